// Attachment of the 2-cells to the 1-cells (thesis §5.4.8), simplified: instead of flowing a
// crown down from each maximum, each 1-cell looks at the 2-cell labels of the points beside it
// on either side (left and right of its direction in the tangent plane). A 2-cell is attached
// along a 1-cell once when it lies on one side, twice when it lies on both (two formal sides
// identified, e.g. 6 and 6' of the thesis's vest); boundary arcs have one side.
#pragma once

#include "geometry/mesh.h"
#include "morse/cells.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"

#include <vector>

namespace tela::morse {

struct Attachment {
  std::vector<std::array<int, 2>> sides;          // per 1-cell: 2-cell on its left, right (-1 none)
  std::vector<std::vector<int>> boundary_of;      // per 2-cell: its 1-cells, a 1-cell twice when attached twice
};

Attachment attach_cells(const Positions& points, const NeighbourGraph& graph,
                        const std::vector<TangentPlane>& planes, const Cells& cells);

}  // namespace tela::morse
