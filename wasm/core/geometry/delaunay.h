// Planar Delaunay triangulation by Bowyer-Watson insertion (used by the irregular mesh
// generator). O(n^2): fine for a few thousand points.
#pragma once

#include <Eigen/Core>
#include <array>
#include <vector>

namespace tela {

using Points2 = Eigen::Matrix<double, Eigen::Dynamic, 2, Eigen::RowMajor>;  // #points by 2

// Delaunay triangles of the points (indices into `points`), counter-clockwise, none with zero
// area. Deterministic: points are inserted in index order and every decision is an exactly
// reproducible floating-point sign test. Cocircular points (a regular grid) are handled: ties
// are broken by the insertion order and the result is always a valid triangulation. Exact
// duplicates are skipped (they appear in no triangle). The union of the triangles is the
// convex hull of the points, including hull sides made of exactly collinear points (the
// sides of a rectangle); a hull side that is nearly but not exactly straight may lose a
// sliver. #triangles by 3.
std::vector<std::array<int, 3>> delaunay_triangulate(const Points2& points);

}  // namespace tela
