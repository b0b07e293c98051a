// Vicon Nexus CSV export: the Trajectories section (name line, rate line, a names row with
// `Subject:Marker` every third column from column 3, `Frame,Sub Frame,X,Y,Z,...`, a units row,
// data until a blank line). Other sections (Devices, Model Outputs) are skipped. Blank cells
// are gaps. Vicon is z-up.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string_view>

namespace tela {

Result<Recording> parse_vicon_csv(std::string_view bytes);

}  // namespace tela
