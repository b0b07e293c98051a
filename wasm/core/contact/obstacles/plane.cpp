#include "contact/obstacles/shapes.h"

namespace tela {

SurfacePoint plane_closest(const Plane& plane, const Eigen::Vector3d& p) {
  SurfacePoint s;
  s.normal = plane.normal;
  s.distance = (p - plane.point).dot(plane.normal);
  s.closest = p - s.distance * plane.normal;
  return s;
}

}  // namespace tela
