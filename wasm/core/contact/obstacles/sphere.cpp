#include "contact/obstacles/shapes.h"

namespace tela {

SurfacePoint sphere_closest(const Sphere& sphere, const Eigen::Vector3d& p) {
  SurfacePoint s;
  const Eigen::Vector3d d = p - sphere.center;
  const double r = d.norm();
  s.normal = r > 0 ? Eigen::Vector3d(d / r) : Eigen::Vector3d(0, 0, 1);  // centre: any direction
  s.distance = r - sphere.radius;
  s.closest = sphere.center + sphere.radius * s.normal;
  return s;
}

}  // namespace tela
