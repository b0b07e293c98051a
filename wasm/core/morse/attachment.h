// Attachment maps of the cells (thesis §5.4.8).
// 1-cells to 0-cells: the 0-cells at the two ends of each 1-cell's path (a saddle's two
// descending branches end at its first and last points).
// 2-cells to 1-cells: a crown around each 2-cell's maximum is flowed down to the 1-cells
// (morse/crowns.h); read in its cyclic order, the matched 1-cell points give the attaching word:
// the 1-cells the 2-cell's boundary runs along, in order, each with sign +1 when the crown runs
// along it in the direction of its path and -1 against it. The crown runs counter-clockwise
// about the maximum's (oriented) normal. Where the thesis is silent: points where several
// 1-cells meet (0-cells, merged descending paths) are read as the 1-cell the crown is already
// on, or the one it stays on longest; runs that cover less than a quarter of a 1-cell are noise
// of the discrete flow and dropped; a run reversing by more than a tenth of its 1-cell, or
// jumping by more than half of it, is two letters.
// Checks read from the words: every boundary arc must be used once and every other 1-cell
// twice, consecutive letters must meet at a common 0-cell ("complete": both hold), and the surface is
// orientable iff the 2-cells can be given signs so that each 1-cell's two uses have opposite
// signs (a 1-cell used twice with the same sign by one 2-cell is a cross-cap).
// Also kept from before: each 1-cell's left / right 2-cells, read from the labels beside it.
#pragma once

#include "geometry/mesh.h"
#include "morse/boundary.h"
#include "morse/cells.h"
#include "morse/flows.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"

#include <array>
#include <vector>

namespace tela::morse {

struct AttachingEdge {
  int cell = -1;  // 1-cell index
  int sign = 1;   // +1 along its path, -1 against
};

struct Attachment {
  std::vector<std::array<int, 2>> sides;          // per 1-cell: 2-cell on its left, right (-1 none)
  std::vector<std::vector<int>> boundary_of;      // per 2-cell: its 1-cells, a 1-cell twice when attached twice
  std::vector<std::array<int, 2>> ends;           // per 1-cell: 0-cells (index into zero_cells) at its path's start, end; -1 none
  std::vector<std::vector<AttachingEdge>> words;  // per 2-cell: cyclic attaching word from its crown
  std::vector<int> collapses_to;                  // per 2-cell with an empty word: the 0-cell its crown shrank to, else -1
  std::vector<int> uses;                          // per 1-cell: letters for it over all words
  bool complete = false;                          // boundary arcs used once, other 1-cells twice, no 2-cell without word
                                                  // or point, no corner mismatch, no truncated crown
  int corner_mismatches = 0;                      // consecutive letters not meeting at a common 0-cell
  int orientable = -1;                            // from the words' signs: 1, 0, or -1 when the words are not complete
  int crown_steps = 0;                            // Down steps over all crowns
  int truncated_crowns = 0;                       // crowns stopped by the step or length limit
};

Attachment attach_cells(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                        const Flows& flows, const BoundaryCurves& curves,
                        const std::vector<TangentPlane>& planes, const Cells& cells);

}  // namespace tela::morse
