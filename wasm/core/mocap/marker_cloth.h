// From a marker grid to a simulation mesh (thesis §4.2.2): the grid refined by a factor
// (A2 4 x 5 -> 7 x 9, A3 3 x 4 -> 5 x 7 with factor 2), every marker on a mesh node, the
// rest sheet flat with the size measured from the markers, and the initial state from the
// first recorded frame.
#pragma once

#include "geometry/mesh.h"
#include "mocap/marker_grid.h"
#include "mocap/recording.h"
#include "base/result.h"

#include <array>
#include <vector>

namespace tela {

struct MarkerClothOptions {
  int refine = 2;       // mesh intervals per marker interval (>= 1)
  double width = 0;     // rest size in metres; 0: measured (mean marker spacing x intervals)
  double height = 0;
  // initial marker positions: the grid's reference (mean of its first frames, which damps
  // marker noise; right when the cloth starts at rest) or, when false, frame 0 as recorded
  bool initial_from_reference = true;
};

struct MarkerCloth {
  Mesh mesh;                       // rest rectangle, quads, placed at the grid's reference pose
  int refine = 2;
  double width = 0, height = 0;    // metres
  std::vector<int> marker_nodes;   // #markers (grid order): the mesh node of each marker
  std::array<int, 2> held_nodes{0, 0};
  Positions initial_positions;     // #nodes by 3: the markers at the start, bilinear in between
};

// Node (i, j) of the mesh is j nx + i (i across, j up from the bottom row, as
// make_rectangle numbers it); marker (row r from the top, column c) sits on node
// i = c refine, j = (rows - 1 - r) refine.
Result<MarkerCloth> build_marker_cloth(const Recording& recording, const MarkerGrid& grid,
                                       const MarkerClothOptions& options = {});

}  // namespace tela
