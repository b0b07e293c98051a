// Neighbour graph of a point cloud (thesis §5.4.1): of the k nearest points of v, those joined
// to v by an edge of the Delaunay triangulation of these few points projected onto v's
// least-squares plane (computed as the sides of v's Voronoi cell among them); the relation is then made symmetric. The link of v's Delaunay star (the
// triangle sides opposite v) is kept as well: the local triangulations of neighbouring points
// do not always agree, and without the link the graph has quadrilateral and larger gaps that
// cut level curves apart.
#pragma once

#include "geometry/mesh.h"
#include "morse/nearest_neighbours.h"

#include <array>
#include <vector>

namespace tela::morse {

// Compressed adjacency lists: the neighbours of v are indices[offsets[v] .. offsets[v+1]),
// sorted increasingly. offsets has #points + 1 entries.
struct NeighbourGraph {
  std::vector<int> offsets{0};
  std::vector<int> indices;
  int size() const { return static_cast<int>(offsets.size()) - 1; }
  const int* begin(int v) const { return indices.data() + offsets[v]; }
  const int* end(int v) const { return indices.data() + offsets[v + 1]; }
  int degree(int v) const { return offsets[v + 1] - offsets[v]; }
  bool adjacent(int a, int b) const;  // binary search in a's list
};

// Builds the graph from the k nearest neighbours (thesis: k about 12); `nearest` may hold more
// (e.g. 2k), which are used for points left on the hull of their k nearest ones.
NeighbourGraph build_neighbour_graph(const Positions& points, const NearestNeighbours& nearest, int k);

// Graph from explicit undirected edges (used when points are added to a cloud).
NeighbourGraph graph_from_edges(int point_count, std::vector<std::array<int, 2>> edges);

}  // namespace tela::morse
