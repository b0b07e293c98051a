// The answer of an obstacle query: signed distance, closest surface point, outward normal.
#pragma once

#include <Eigen/Core>

namespace tela {

struct SurfacePoint {
  double distance = 0;                 // signed, metres: > 0 outside, < 0 inside
  Eigen::Vector3d closest{0, 0, 0};    // closest point of the surface, metres
  Eigen::Vector3d normal{0, 0, 1};     // outward unit normal there (gradient of the distance)
};

}  // namespace tela
