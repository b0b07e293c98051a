#include "contact/ccd/edge_edge.h"

#include "contact/ccd/coplanar_motion.h"
#include "contact/distance/segment_segment.h"

#include <Eigen/Geometry>

namespace tela {

CcdResult edge_edge_ccd(const Eigen::Vector3d& p0_t0, const Eigen::Vector3d& p1_t0,
                        const Eigen::Vector3d& q0_t0, const Eigen::Vector3d& q1_t0,
                        const Eigen::Vector3d& p0_t1, const Eigen::Vector3d& p1_t1,
                        const Eigen::Vector3d& q0_t1, const Eigen::Vector3d& q1_t1, double tolerance) {
  MovingPoints m;
  m.t0 = {p0_t0, p1_t0, q0_t0, q1_t0};
  m.t1 = {p0_t1, p1_t1, q0_t1, q1_t1};
  const auto distance = [&](double tau) {
    return segment_segment_closest(m.at(0, tau), m.at(1, tau), m.at(2, tau), m.at(3, tau)).distance;
  };
  return first_contact(m, distance, tolerance);
}

}  // namespace tela
