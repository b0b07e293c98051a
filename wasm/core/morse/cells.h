// The cell complex (thesis §5.2.2 assembly order, §5.4.7): 0-cells (interior and boundary
// minima, plus boundary points where 1-cells end), 1-cells (saddle 1-cells as two descending
// branches, flows from boundary minima that are not minima of S, and the boundary curves split
// at their 0-cells) and 2-cells (one per local maximum of S, interior or on the boundary),
// with every point labelled by the 2-cell its Up flow reaches.
#pragma once

#include "geometry/mesh.h"
#include "morse/boundary.h"
#include "morse/critical_points.h"
#include "morse/flows.h"
#include "morse/neighbours.h"

#include <array>
#include <vector>

namespace tela::morse {

enum class OneCellKind { saddle, boundary_minimum_flow, boundary_arc };
const char* to_string(OneCellKind kind);

struct OneCell {
  OneCellKind kind = OneCellKind::saddle;
  std::vector<int> path;      // ordered point indices (a saddle's path passes through it)
  int critical = -1;          // index into CriticalPoints::points (saddle / boundary min), -1 for arcs
  int top = -1;               // saddle 1-cells: the point of the path its two branches leave from
  int boundary_curve = -1;    // for boundary arcs
  std::array<int, 2> cut_at{-1, -1};  // for boundary arcs: the 0-cells (index into zero_cells) it was cut at, start and end
};

struct Cells {
  std::vector<int> zero_cells;           // point indices
  std::vector<OneCell> one_cells;
  std::vector<int> two_cells;            // point index of each 2-cell's maximum
  std::vector<int> label;                // #points: 2-cell index, -1 if none could be assigned
  int extra_boundary_points = 0;         // 0-cells added where 1-cells end on the boundary (Remark 5.4.5)
  int counts[3] = {0, 0, 0};             // #0-cells, #1-cells, #2-cells of the complex
};

Cells build_cells(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                  const Flows& flows, const std::vector<char>& on_boundary, const BoundaryCurves& curves,
                  const std::vector<TangentPlane>& planes, const CriticalPoints& critical);

}  // namespace tela::morse
