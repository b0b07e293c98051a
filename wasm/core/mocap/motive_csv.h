// OptiTrack Motive CSV export (format versions 1.2x, with or without the Parent row):
// Marker, Rigid Body Marker, Rigid Body (position columns), Bone and Bone Marker points;
// millimetres, centimetres or metres; empty cells are occluded samples. The frame rate comes
// from the header (Export Frame Rate, else Capture Frame Rate) and times from the frame
// index, never from the rounded Time column. Rotations and marker errors are skipped.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string_view>

namespace tela {

// Errors are located: "line 9, column 14 (device02 Position Y): 'abc' is not a number".
Result<Recording> parse_motive_csv(std::string_view bytes);

}  // namespace tela
