#include "scenario/obstacle_overlap.h"

#include <algorithm>
#include <cmath>

namespace tela {

std::string obstacle_overlap(const ObstacleDesc& a, const ObstacleDesc& b) {
  const bool static_pair = a.motion.translation.type == "hold" && a.motion.angular_velocity == 0 &&
                           b.motion.translation.type == "hold" && b.motion.angular_velocity == 0;
  if (!static_pair) return {};
  if (a.type == b.type) {
    if (a.type == "plane" && (a.normal - b.normal).norm() < 1e-12 &&
        std::fabs((b.point - a.point).dot(a.normal)) < 1e-12) {
      return "is the same plane as";
    }
    if (a.type == "sphere" && (a.center - b.center).norm() + std::min(a.radius, b.radius) <=
                                  std::max(a.radius, b.radius)) {
      return "lies inside (or is the same sphere as)";
    }
    if (a.type == "box") {
      const Eigen::Vector3d alo = a.center - 0.5 * a.size, ahi = a.center + 0.5 * a.size;
      const Eigen::Vector3d blo = b.center - 0.5 * b.size, bhi = b.center + 0.5 * b.size;
      const bool b_in_a = (blo.array() >= alo.array()).all() && (bhi.array() <= ahi.array()).all();
      const bool a_in_b = (alo.array() >= blo.array()).all() && (ahi.array() <= bhi.array()).all();
      if (b_in_a || a_in_b) return "lies inside (or is the same box as)";
    }
    if (a.type == "cylinder" && (a.center - b.center).norm() < 1e-12 && (a.axis - b.axis).norm() < 1e-12 &&
        a.radius == b.radius && a.length == b.length) {
      return "is the same cylinder as";
    }
  }
  // a sphere or box entirely below a plane is hidden inside the plane's solid
  auto below = [](const ObstacleDesc& plane, const ObstacleDesc& o) {
    if (plane.type != "plane") return false;
    if (o.type == "sphere") return (o.center - plane.point).dot(plane.normal) + o.radius <= 0;
    if (o.type == "box") {
      const double reach = 0.5 * o.size.cwiseProduct(plane.normal.cwiseAbs()).sum();
      return (o.center - plane.point).dot(plane.normal) + reach <= 0;
    }
    return false;
  };
  if (below(a, b) || below(b, a)) return "lies entirely inside the solid below the plane of";
  return {};
}

}  // namespace tela
