// Boundary points and boundary curves (thesis §5.4.3).
#pragma once

#include "geometry/mesh.h"
#include "morse/nearest_neighbours.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"

#include <vector>

namespace tela::morse {

// v is a boundary point when its neighbours (strong) or 2k nearest points (weak; nearest must
// hold them), projected onto v's tangent plane and onto the
// tangent plane of every neighbour, never enclose it: in each projection some angular gap
// between consecutive neighbours (seen from v) exceeds `max_gap` radians (pi = a half-plane;
// a little less catches boundary points that a neighbour slightly overhangs). #points, 0/1.
// Boundary points whose two boundary neighbours are not neighbours of each other close the
// band: the point between them joins it.
std::vector<char> detect_boundary_points(const Positions& points, const NeighbourGraph& graph,
                                         const NearestNeighbours& nearest, int k,
                                         const std::vector<TangentPlane>& planes, double max_gap);

// Boundary curves: connected components of the graph restricted to boundary points. Components
// with fewer than `min_points` points are isolated false detections: they are removed from
// `on_boundary`. Each curve is also ordered into a closed polyline by walking along the band of
// boundary points (points beside the walk in a band two or three wide are skipped; of walks
// from three starts the one that covers most of the band is kept, see boundary.cpp).
struct BoundaryCurves {
  std::vector<int> curve_of;                  // #points: curve index, -1 for interior points
  std::vector<std::vector<int>> members;      // per curve: all its boundary points, sorted
  std::vector<std::vector<int>> polylines;    // per curve: an ordered closed walk (first != last)
  int count() const { return static_cast<int>(members.size()); }
};
BoundaryCurves find_boundary_curves(const Positions& points, const NeighbourGraph& graph,
                                    const std::vector<TangentPlane>& planes,
                                    std::vector<char>& on_boundary, int min_points);

}  // namespace tela::morse
