// Exact sign of the orientation determinant det[b - a, c - a, d - a] for double inputs:
// a floating-point filter with Shewchuk's error bound, and exact expansion arithmetic
// (Shewchuk 1997, "Adaptive precision floating-point arithmetic") when the filter cannot
// decide. Needs IEEE round-to-nearest doubles without FMA contraction (as the whole core).
#pragma once

#include <Eigen/Core>

namespace tela {

// Sign of det[b - a, c - a, d - a] = (d - a) . ((b - a) x (c - a)): +1 when d lies on the side
// the normal (b - a) x (c - a) points to, -1 on the other side, 0 when the four are coplanar.
int orient3d_sign(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                  const Eigen::Vector3d& d);

}  // namespace tela
