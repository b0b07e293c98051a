// Closest point of a triangle to a point (Ericson, Real-Time Collision Detection §5.1.5):
// barycentric weights of the closest point and its distance. Handles degenerate (needle or
// zero-area) triangles through the edge/vertex regions.
#pragma once

#include <Eigen/Core>

namespace tela {

struct PointTriangleClosest {
  double u = 1, v = 0, w = 0;   // closest = u a + v b + w c, u + v + w = 1, all >= 0
  double distance = 0;          // metres
};

PointTriangleClosest point_triangle_closest(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                            const Eigen::Vector3d& b, const Eigen::Vector3d& c);

}  // namespace tela
