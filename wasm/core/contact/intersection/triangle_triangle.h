// Exact triangle-triangle intersection (closed triangles), built only on the exact orientation
// predicate (intersection/orient3d.h): no tolerance anywhere. For a cloth mesh, pairs that
// share an edge never count, and pairs that share one vertex count only when they meet
// somewhere else than at that vertex.
#pragma once

#include "geometry/mesh.h"

#include <Eigen/Core>
#include <array>
#include <utility>
#include <vector>

namespace tela {

// Do the closed triangles (a0, a1, a2) and (b0, b1, b2) have a common point?
bool triangles_intersect(const Eigen::Vector3d& a0, const Eigen::Vector3d& a1,
                         const Eigen::Vector3d& a2, const Eigen::Vector3d& b0,
                         const Eigen::Vector3d& b1, const Eigen::Vector3d& b2);

// Does the closed segment (s, e) meet the closed triangle (a, b, c)?
bool segment_triangle_intersect(const Eigen::Vector3d& s, const Eigen::Vector3d& e,
                                const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                const Eigen::Vector3d& c);

// Pairs (i, j), i < j, of mesh triangles that intersect (see above for neighbours), found
// through the broad phase. `triangles` index rows of `positions` (#nodes by 3).
std::vector<std::pair<int, int>> intersecting_triangle_pairs(
    const std::vector<std::array<int, 3>>& triangles, const Positions& positions);

}  // namespace tela
