#include "contact/obstacles/shapes.h"

#include <algorithm>
#include <limits>

namespace tela {

SurfacePoint stick_closest(const Stick& stick, const Eigen::Vector3d& p) {
  SurfacePoint best;
  best.distance = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i + 1 < stick.points.size(); ++i) {
    const Eigen::Vector3d a = stick.points[i], d = stick.points[i + 1] - a;
    const double len2 = d.squaredNorm();
    const double t = len2 > 0 ? std::clamp((p - a).dot(d) / len2, 0.0, 1.0) : 0.0;
    const Eigen::Vector3d axis_point = a + t * d;
    const Eigen::Vector3d off = p - axis_point;
    const double r = off.norm();
    if (r - stick.radius < best.distance) {
      best.normal = r > 0 ? Eigen::Vector3d(off / r) : Eigen::Vector3d(0, 0, 1);
      best.distance = r - stick.radius;
      best.closest = axis_point + stick.radius * best.normal;
    }
  }
  return best;
}

}  // namespace tela
