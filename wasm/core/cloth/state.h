// ClothState: what evolves during a run.
#pragma once

#include "geometry/mesh.h"

namespace tela {

struct ClothState {
  Positions positions;   // #nodes by 3, metres
  Positions velocities;  // #nodes by 3, m/s
  double time = 0;       // s
};

}  // namespace tela
