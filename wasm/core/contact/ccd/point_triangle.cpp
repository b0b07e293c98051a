#include "contact/ccd/point_triangle.h"

#include "contact/ccd/coplanar_motion.h"
#include "contact/distance/point_triangle.h"

#include <Eigen/Geometry>

namespace tela {

CcdResult point_triangle_ccd(const Eigen::Vector3d& a0, const Eigen::Vector3d& b0,
                             const Eigen::Vector3d& c0, const Eigen::Vector3d& p0,
                             const Eigen::Vector3d& a1, const Eigen::Vector3d& b1,
                             const Eigen::Vector3d& c1, const Eigen::Vector3d& p1, double tolerance) {
  MovingPoints m;
  m.t0 = {a0, b0, c0, p0};
  m.t1 = {a1, b1, c1, p1};
  const auto distance = [&](double tau) {
    return point_triangle_closest(m.at(3, tau), m.at(0, tau), m.at(1, tau), m.at(2, tau)).distance;
  };
  return first_contact(m, distance, tolerance);
}

}  // namespace tela
