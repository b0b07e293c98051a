// Mesh topology: edges, boundary edges, ordered boundary loops and corners.
#pragma once

#include "geometry/mesh.h"

#include <array>
#include <string>
#include <vector>

namespace tela {

using Edge = std::array<int, 2>;  // node indices, smaller first

// All unique edges of the faces (quad diagonals are not edges), sorted.
std::vector<Edge> mesh_edges(const Mesh& mesh);

// Edges that belong to exactly one face, sorted.
std::vector<Edge> boundary_edges(const Mesh& mesh);

// Boundary loops as ordered node lists, each oriented so that the cloth lies to the left
// in the reference plane (counter-clockwise for the outer loop). Loops are sorted by
// decreasing length; a non-manifold boundary is reported with ok = false.
struct BoundaryLoops {
  std::vector<std::vector<int>> loops;
  bool ok = true;
  std::string message;
};
BoundaryLoops boundary_loops(const Mesh& mesh);

// Corners: boundary nodes where the boundary turns by more than `min_turn_radians`
// (in the rest configuration). On a rectangle these are its four corners.
std::vector<int> corner_nodes(const Mesh& mesh, double min_turn_radians = 0.6);

// Lumped nodal areas m_k = integral of N_k over the rest surface (thesis: lumped mass / rho).
std::vector<double> lumped_areas(const Mesh& mesh);

}  // namespace tela
