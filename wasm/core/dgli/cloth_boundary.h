// The boundary curve of a cloth state, the input of the dGLI cloth coordinates (thesis §7.2;
// docs/math.md §5.3), from a mesh or from a boundary polyline.
//
// Convention (fixed start and orientation): for a mesh, the outer boundary loop (the longest)
// is traversed with the cloth on its left in the faces' winding (counter-clockwise seen from
// +z for a flat cloth whose faces point up) and starts at its smallest node index; for the
// rectangles of geometry/generators.h that is node 0, the bottom-left corner. The winding is
// read from the faces, not the positions, so folding does not change it. For a polyline the
// points are taken in the given order, starting at the first.
#pragma once

#include "geometry/mesh.h"
#include "base/result.h"

#include <string>
#include <vector>

namespace tela {

struct BoundaryCurve {
  Positions points;                 // #points by 3, metres; a closed loop (last joins first)
  // Corners as arc-length positions from points[0] (metres, ascending, in [0, perimeter)).
  // Meshes: the boundary nodes whose interior angle sum over their faces is the smallest
  // (< 0.8 pi; intrinsic, so unchanged by folding an inextensible cloth). Polylines: empty
  // unless given; per-side segment choice then splits the perimeter in four equal parts.
  std::vector<double> corners;
  std::vector<int> nodes;           // mesh node of each point (empty for polylines)
  // Meshes: boundary loops other than the longest, which alone is the curve (a hole, a
  // separate piece); they are not part of the coordinates, and callers say so
  int ignored_loops = 0;
};

// Perimeter length of the closed polyline (metres).
double perimeter_length(const Positions& points);

// The point at arc length s (metres, any real; taken modulo the perimeter) along the loop.
Eigen::Vector3d point_at_arc_length(const Positions& points, double s);

// Boundary of `mesh` (its faces) at `positions` (#nodes by 3). Fails on a mesh without a
// manifold boundary loop. Looks for `corner_count` corners (4 for a rectangular napkin) and
// leaves `corners` empty when the mesh does not have that many angle-sum corners.
Result<BoundaryCurve> mesh_boundary(const Mesh& mesh, const Positions& positions, int corner_count = 4);

// A boundary polyline: at least 4 points, all finite, consecutive points distinct.
Result<BoundaryCurve> polyline_boundary(const Positions& points);

}  // namespace tela
