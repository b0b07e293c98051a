// Topology of the reconstructed surface: Euler characteristic from the cells, boundary curves,
// connected components, orientability (normals orientable along the neighbour graph) and the
// genus from chi = sum over components (2 - 2g - b) (orientable) or (2 - g - b) (non-orientable,
// g = number of cross-caps).
#pragma once

namespace tela::morse {

struct Topology {
  int cells[3] = {0, 0, 0};    // #0-cells, #1-cells, #2-cells
  int euler = 0;               // cells[0] - cells[1] + cells[2]
  int morse_sum = 0;           // sum of the critical points' Euler contributions
  int boundary_components = 0;
  int connected_components = 0;
  bool orientable = true;
  // total over the components; -1 (undefined: reported as null, with a warning) when no
  // surface has this chi, b and number of components, e.g. chi = 1 with 4 boundary curves on
  // one component (2 - 2g - 4 = 1 has no g >= 0): the cells do not describe one surface
  int genus = 0;
};

Topology surface_topology(const int cells[3], int morse_sum, int boundary_components,
                          int connected_components, bool orientable);

}  // namespace tela::morse
