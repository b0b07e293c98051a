// Attachment maps of the cells (thesis §5.4.8).
// 1-cells to 0-cells: the 0-cells at the two ends of each 1-cell's path (a saddle's two
// descending branches end at its first and last points).
// 2-cells to 1-cells: the thesis flows a crown round each maximum down by Down until it lies on
// the 1-cells; read in its cyclic order it gives the 2-cell's attaching word. Flowed point by
// point in the discrete flow it does not get there (Down's orbits merge, so the crown shrinks
// and folds back before it has swept the 2-cell, and descending paths merge before their
// 0-cell), so the crown's end position, the walk round the 2-cell along the 1-skeleton, is
// traced directly: the 1-cell ends at each 0-cell are put in counter-clockwise order about its
// normal (ends sharing their first points, paths that merged, ordered where they part, as a
// tree drawn in the surface), and the walk keeps the 2-cell on its left, leaving each 0-cell
// by the next end clockwise from the one it came in by. The normal is carried along each
// 1-cell; when it arrives flipped (a twist: the surface is one-sided along it) the walk goes on
// with left and right exchanged. Each side of each 1-cell is walked once; walks along the
// outside of the boundary arcs are the holes, the others belong to the 2-cell whose points lie
// beside their 1-cells (by the Up-flow labels; beside a saddle's 1-cell, those of the points
// above the saddle on the rim of its 5-edge ball, on either side: the points right beside it
// climb to the saddle and part there at random). Letters: 1-cell and sign, +1 along its path.
// A 2-cell without a walk (no 1-cells in its component) is attached to the 0-cell in it.
// Checks ("complete" when all hold, else `problems` says what failed): every 1-cell end at a
// 0-cell, one walk per 2-cell (or a 0-cell), as many holes as boundary curves, no letter with
// another 2-cell beside it, every boundary arc used once and every other 1-cell twice. The
// surface is orientable iff the 2-cells can be given signs so that each 1-cell's two uses have
// opposite signs (a 1-cell used twice with the same sign by one 2-cell is a cross-cap).
// Also kept from before: each 1-cell's left / right 2-cells, read from the labels beside it.
#pragma once

#include "geometry/mesh.h"
#include "morse/boundary.h"
#include "morse/cells.h"
#include "morse/flows.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"

#include <array>
#include <string>
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
  std::vector<std::vector<AttachingEdge>> words;  // per 2-cell: cyclic attaching word (the walk round it)
  std::vector<int> collapses_to;                  // per 2-cell with an empty word: the 0-cell it is attached to, else -1
  std::vector<int> uses;                          // per 1-cell: letters for it over all words
  bool complete = false;                          // all the checks hold (attachment.h, top)
  std::vector<std::string> problems;              // the checks that failed, in words
  int corner_mismatches = 0;                      // consecutive letters meeting where no 0-cell is
  int side_mismatches = 0;                        // letters with another 2-cell's points beside them
  int orientable = -1;                            // from the words' signs: 1, 0, or -1 when the words are not complete
};

Attachment attach_cells(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                        const BoundaryCurves& curves, const std::vector<TangentPlane>& planes, const Cells& cells);

}  // namespace tela::morse
