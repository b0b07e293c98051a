// Edge-edge continuous collision detection (thesis §3.3.1): edges (p0, p1) and (q0, q1) moving
// linearly over the step. At each coplanarity time the two segments are tested by their exact
// distance (<= tolerance): parallel, collinear and touching edges need no special case. Edges
// moving within one plane throughout go to ccd/coplanar_motion.h (our addition).
#pragma once

#include "contact/ccd/point_triangle.h"

#include <Eigen/Core>

namespace tela {

CcdResult edge_edge_ccd(const Eigen::Vector3d& p0_t0, const Eigen::Vector3d& p1_t0,
                        const Eigen::Vector3d& q0_t0, const Eigen::Vector3d& q1_t0,
                        const Eigen::Vector3d& p0_t1, const Eigen::Vector3d& p1_t1,
                        const Eigen::Vector3d& q0_t1, const Eigen::Vector3d& q1_t1, double tolerance);

}  // namespace tela
