// The STATE argument of `tela dgli` and `tela classify`: an OBJ mesh, a boundary polyline CSV,
// or a trajectory CSV frame (--frame K, mesh from --scenario FILE|NAME), read into a boundary
// curve (dgli/cloth_boundary.h).
#pragma once

#include "dgli/cloth_boundary.h"
#include "base/result.h"

#include <string>

namespace tela::cli {

struct ClothStateSource {
  std::string path;
  long frame = -1;          // trajectory frame, -1 when not given
  std::string scenario;     // trajectory mesh: scenario file or built-in name
};

// Also says what was read ("obj", "boundary_csv", "trajectory") in `kind`.
Result<BoundaryCurve> load_cloth_state(const ClothStateSource& source, std::string& kind);

}  // namespace tela::cli
