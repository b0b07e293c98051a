// Flowing a crown down to the 1-cells (thesis §5.4.8, discrete case): the ring of neighbours of
// a 2-cell's maximum, ordered counter-clockwise about its tangent plane's normal, is moved by
// Down until each of its points reaches the 1-cells (lies on one, or has a neighbour on one: it
// is then matched to that neighbour with the most negative downward slope, and stops). After
// every step the curve is repaired as the thesis describes: repeated points are merged, spikes
// (x y x) removed, and neighbours whose images are no longer neighbours are joined by a
// shortest path (fewest edges) through points no higher than the higher image. When the curve
// is stationary (or its repairs undo each other), its unmatched points walk on towards the
// closest 1-cell point (fewest edges), and are matched as they reach it.
// A maximum on the boundary uses the same ring: its boundary neighbours lie on the boundary
// arc, so they are matched at once, which plays the role of the thesis's semi-crown.
#pragma once

#include "geometry/mesh.h"
#include "morse/flows.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"

#include <vector>

namespace tela::morse {

struct CrownFlow {
  std::vector<int> matched;   // the final crown in cyclic order: 1-cell points (-1: none reachable)
  int final_point = -1;       // when the crown shrank to one point not on a 1-cell: that point
  int steps = 0;              // Down steps taken
  bool truncated = false;     // stopped by the step or length limit
};

// on_one_cell[v] != 0 for the points of the 1-cells; toward_cell[v] the next point on a shortest
// path (in edges) from v to the 1-cells (v itself on them, -1 if none is connected to v).
CrownFlow flow_crown(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                     const Flows& flows, const TangentPlane& plane, int maximum,
                     const std::vector<char>& on_one_cell, const std::vector<int>& toward_cell);

}  // namespace tela::morse
