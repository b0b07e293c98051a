#include "morse/topology.h"

namespace tela::morse {

Topology surface_topology(const int cells[3], int morse_sum, int boundary_components,
                          int connected_components, bool orientable) {
  Topology t;
  for (int d = 0; d < 3; ++d) t.cells[d] = cells[d];
  t.euler = cells[0] - cells[1] + cells[2];
  t.morse_sum = morse_sum;
  t.boundary_components = boundary_components;
  t.connected_components = connected_components;
  t.orientable = orientable;
  const int twice_or_once = 2 * connected_components - boundary_components - t.euler;
  if (orientable) t.genus = (twice_or_once >= 0 && twice_or_once % 2 == 0) ? twice_or_once / 2 : -1;
  else t.genus = twice_or_once >= 1 ? twice_or_once : -1;
  return t;
}

}  // namespace tela::morse
