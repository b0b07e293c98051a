// Tangent planes by local PCA (thesis §5.4.2): the plane through v minimising the sum of
// squared distances of the offsets v_i - v of its neighbours; the normal is the right-singular
// vector of the smallest singular value of the matrix with rows v_i - v.
#pragma once

#include "geometry/mesh.h"
#include "morse/neighbours.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <vector>

namespace tela::morse {

struct TangentPlane {
  Eigen::Vector3d normal{0, 0, 1};
  Eigen::Vector3d t1{1, 0, 0};  // orthonormal basis of the plane; t1 x t2 = normal
  Eigen::Vector3d t2{0, 1, 0};
};

// The plane at point v from the offsets to the points [first, last).
TangentPlane fit_tangent_plane(const Positions& points, int v, const int* first, const int* last);

// One plane per point from its graph neighbours. #points.
std::vector<TangentPlane> tangent_planes(const Positions& points, const NeighbourGraph& graph);

// Orients the normals consistently by propagating along the graph, strongest agreement first
// (a maximum spanning tree on |n_v . n_w|). Returns the number of graph edges whose normals
// still disagree strongly (n_v . n_w < -0.5) afterwards: zero on an orientable sampled
// surface, a seam's worth on a Moebius strip.
int orient_normals(const NeighbourGraph& graph, std::vector<TangentPlane>& planes);

}  // namespace tela::morse
