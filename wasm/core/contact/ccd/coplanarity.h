// The coplanarity cubic of four moving points (thesis eq. 3.3), in normalized time
// tau in [0, 1]: x_i(tau) = x_i^0 + tau (x_i^1 - x_i^0). With x~_i = x_i - x_4 and
// v~_i = (x_i^1 - x_i^0) - (x_4^1 - x_4^0):
//   det(x~1 + tau v~1, x~2 + tau v~2, x~3 + tau v~3) = a3 tau^3 + a2 tau^2 + a1 tau + a0.
#pragma once

#include <Eigen/Core>
#include <array>

namespace tela {

struct MovingPoints {
  std::array<Eigen::Vector3d, 4> t0, t1;  // positions at the two ends of the step, metres
  Eigen::Vector3d at(int i, double tau) const { return t0[i] + tau * (t1[i] - t0[i]); }
};

// Coefficients {a3, a2, a1, a0}.
std::array<double, 4> coplanarity_cubic(const MovingPoints& points);

// Times tau in [0, 1] (increasing) at which the four points are coplanar; `count` = -1 when
// they stay coplanar throughout (within round-off of the geometry's scale).
struct CoplanarTimes {
  int count = 0;
  double tau[3] = {0, 0, 0};
};
CoplanarTimes coplanar_times(const MovingPoints& points);

}  // namespace tela
