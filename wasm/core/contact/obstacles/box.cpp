#include "contact/obstacles/shapes.h"

#include <cmath>

namespace tela {

SurfacePoint box_closest(const Box& box, const Eigen::Vector3d& p) {
  SurfacePoint s;
  const Eigen::Vector3d half = 0.5 * box.size;
  const Eigen::Vector3d local = p - box.center;
  const Eigen::Vector3d q = local.cwiseAbs() - half;  // per-axis excess
  if (q.maxCoeff() > 0) {
    // outside: the clamped point is the closest (face, edge or corner region)
    const Eigen::Vector3d clamped = local.cwiseMax(-half).cwiseMin(half);
    const Eigen::Vector3d d = local - clamped;
    s.distance = d.norm();
    s.normal = d / s.distance;
    s.closest = box.center + clamped;
    return s;
  }
  // inside (or on the surface): the nearest face
  int axis = 0;
  q.maxCoeff(&axis);
  s.distance = q[axis];
  s.normal = Eigen::Vector3d::Zero();
  s.normal[axis] = local[axis] >= 0 ? 1.0 : -1.0;
  Eigen::Vector3d on_face = local;
  on_face[axis] = s.normal[axis] * half[axis];
  s.closest = box.center + on_face;
  return s;
}

}  // namespace tela
