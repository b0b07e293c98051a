// PLACEHOLDER until the qp branch's interface header is merged (the qp engineer owns this
// file; on merge their version replaces this one).
#pragma once

#include <Eigen/Core>
#include <array>

namespace tela {

//   normal · (Σ_i weights[i] · x[nodes[i]]) >= offset   (frozen normal, one step)
struct ContactConstraint {
  std::array<int, 4> nodes{-1, -1, -1, -1};
  std::array<double, 4> weights{0, 0, 0, 0};
  Eigen::Vector3d normal{0, 0, 1};
  double offset = 0;
  double mu = 0;
  Eigen::Vector3d surface_velocity{0, 0, 0};
};

}  // namespace tela
