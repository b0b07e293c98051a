#include "contact/obstacles/shapes.h"

#include <Eigen/Geometry>
#include <cmath>

namespace tela {

SurfacePoint cylinder_closest(const Cylinder& cylinder, const Eigen::Vector3d& p) {
  SurfacePoint s;
  const Eigen::Vector3d& axis = cylinder.axis;
  const Eigen::Vector3d local = p - cylinder.center;
  const double h = local.dot(axis);
  const Eigen::Vector3d radial = local - h * axis;
  const double rho = radial.norm();
  Eigen::Vector3d radial_dir;
  if (rho > 0) {
    radial_dir = radial / rho;
  } else {  // on the axis: any direction perpendicular to it
    radial_dir = axis.unitOrthogonal();
  }
  const double dr = rho - cylinder.radius;
  if (cylinder.length <= 0) {
    s.distance = dr;
    s.normal = radial_dir;
    s.closest = cylinder.center + h * axis + cylinder.radius * radial_dir;
    return s;
  }
  const double half = 0.5 * cylinder.length;
  const double dh = std::fabs(h) - half;
  const double side = h >= 0 ? 1.0 : -1.0;
  if (dr > 0 && dh > 0) {  // beyond the rim: closest point on the rim circle
    const Eigen::Vector3d rim = cylinder.center + side * half * axis + cylinder.radius * radial_dir;
    const Eigen::Vector3d d = p - rim;
    s.distance = d.norm();
    s.normal = d / s.distance;
    s.closest = rim;
  } else if (dr > 0 || (dr <= 0 && dh <= 0 && dr >= dh)) {  // lateral surface (outside or nearest inside)
    s.distance = dr;
    s.normal = radial_dir;
    s.closest = cylinder.center + h * axis + cylinder.radius * radial_dir;
  } else {  // a cap (outside above it, or nearest inside)
    s.distance = dh;
    s.normal = side * axis;
    s.closest = cylinder.center + side * half * axis + radial;
  }
  return s;
}

}  // namespace tela
