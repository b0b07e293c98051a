// Axis-aligned boxes of primitives swept over a step, inflated by a margin.
#pragma once

#include <Eigen/Core>

namespace tela {

struct Aabb {
  Eigen::Vector3d lo{0, 0, 0}, hi{0, 0, 0};  // metres

  void expand(const Eigen::Vector3d& p) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  void inflate(double margin) {
    lo.array() -= margin;
    hi.array() += margin;
  }
  bool overlaps(const Aabb& o) const {
    return lo.x() <= o.hi.x() && o.lo.x() <= hi.x() && lo.y() <= o.hi.y() && o.lo.y() <= hi.y() &&
           lo.z() <= o.hi.z() && o.lo.z() <= hi.z();
  }
  static Aabb of_point(const Eigen::Vector3d& p) { return Aabb{p, p}; }
};

}  // namespace tela
