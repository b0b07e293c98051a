// Node-face continuous collision detection (thesis §3.3.1): a point p and a triangle (a, b, c)
// moving linearly over the step. At each coplanarity time (in increasing order) the point is
// tested against the triangle by its exact distance (<= tolerance), which makes the test robust
// for touching contact, degenerate triangles and points moving within the triangle's plane
// (ccd/coplanar_motion.h; our addition, the thesis does not treat that case).
#pragma once

#include <Eigen/Core>

namespace tela {

struct CcdResult {
  bool hit = false;
  double tau = 0;   // normalized time of the first contact in [0, 1]
};

// Points in order {a, b, c, p}; `tolerance` in metres.
CcdResult point_triangle_ccd(const Eigen::Vector3d& a0, const Eigen::Vector3d& b0,
                             const Eigen::Vector3d& c0, const Eigen::Vector3d& p0,
                             const Eigen::Vector3d& a1, const Eigen::Vector3d& b1,
                             const Eigen::Vector3d& c1, const Eigen::Vector3d& p1, double tolerance);

}  // namespace tela
