#include "contact/obstacles/shapes.h"
#include "base/integer_cast.h"

#include <cmath>

namespace tela {
namespace {

// axis (x, y) of needle (i, j)
Eigen::Vector2d needle_axis(const NeedleField& n, int i, int j) {
  return Eigen::Vector2d(n.center.x() + (i - 0.5 * (n.count_x - 1)) * n.spacing,
                         n.center.y() + (j - 0.5 * (n.count_y - 1)) * n.spacing);
}

}  // namespace

std::vector<Eigen::Vector3d> needle_tips(const NeedleField& n) {
  std::vector<Eigen::Vector3d> tips;
  for (int j = 0; j < n.count_y; ++j)
    for (int i = 0; i < n.count_x; ++i) {
      const Eigen::Vector2d a = needle_axis(n, i, j);
      tips.emplace_back(a.x(), a.y(), n.center.z() + n.c2);
    }
  return tips;
}

SurfacePoint needle_field_closest(const NeedleField& n, const Eigen::Vector3d& p) {
  // the nearest needle axis (needles do not overlap: spacing >= 2 / c1, checked on input)
  const double fi = (p.x() - n.center.x()) / n.spacing + 0.5 * (n.count_x - 1);
  const double fj = (p.y() - n.center.y()) / n.spacing + 0.5 * (n.count_y - 1);
  const int i = clamped_floor(fi + 0.5, 0, n.count_x - 1);
  const int j = clamped_floor(fj + 0.5, 0, n.count_y - 1);
  const Eigen::Vector2d a = needle_axis(n, i, j);
  const Eigen::Vector2d off(p.x() - a.x(), p.y() - a.y());
  const double r = off.norm();
  double h = 0, dh_dr = 0;
  if (r * n.c1 < 1) {
    // h = c2 (1 - sqrt(c1 r))^2,  dh/dr = -c2 sqrt(c1 / r) (1 - sqrt(c1 r))
    const double q = std::sqrt(n.c1 * r);
    h = n.c2 * (1 - q) * (1 - q);
    dh_dr = r > 0 ? -n.c2 * std::sqrt(n.c1 / r) * (1 - q) : -1e300;
  }
  Eigen::Vector3d normal(0, 0, 1);
  double scale = 1;
  if (dh_dr != 0) {
    const double g = std::fabs(dh_dr) > 1e12 ? 1e12 : -dh_dr;  // |grad h|, capped at the tip
    const Eigen::Vector2d dir = r > 0 ? Eigen::Vector2d(off / r) : Eigen::Vector2d(1, 0);
    scale = std::sqrt(1 + g * g);
    normal = Eigen::Vector3d(g * dir.x(), g * dir.y(), 1) / scale;
  }
  SurfacePoint s;
  s.distance = (p.z() - n.center.z() - h) / scale;
  s.normal = normal;
  s.closest = p - s.distance * normal;
  return s;
}

}  // namespace tela
