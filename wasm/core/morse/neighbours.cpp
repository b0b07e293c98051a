#include "morse/neighbours.h"

#include "geometry/delaunay.h"
#include "morse/tangent_planes.h"

#include <algorithm>
#include <array>

namespace tela::morse {

bool NeighbourGraph::adjacent(int a, int b) const {
  return std::binary_search(begin(a), end(a), b);
}

NeighbourGraph graph_from_edges(int point_count, std::vector<std::array<int, 2>> edges) {
  for (std::array<int, 2>& e : edges)
    if (e[0] > e[1]) std::swap(e[0], e[1]);
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  NeighbourGraph graph;
  graph.offsets.assign(point_count + 1, 0);
  for (const std::array<int, 2>& e : edges) {
    if (e[0] == e[1]) continue;
    ++graph.offsets[e[0] + 1];
    ++graph.offsets[e[1] + 1];
  }
  for (int v = 0; v < point_count; ++v) graph.offsets[v + 1] += graph.offsets[v];
  graph.indices.assign(graph.offsets.back(), -1);
  std::vector<int> fill(graph.offsets.begin(), graph.offsets.end() - 1);
  for (const std::array<int, 2>& e : edges) {
    if (e[0] == e[1]) continue;
    graph.indices[fill[e[0]]++] = e[1];
    graph.indices[fill[e[1]]++] = e[0];
  }
  for (int v = 0; v < point_count; ++v)
    std::sort(graph.indices.begin() + graph.offsets[v], graph.indices.begin() + graph.offsets[v + 1]);
  return graph;
}

NeighbourGraph build_neighbour_graph(const Positions& points, const NearestNeighbours& nearest) {
  const int n = static_cast<int>(points.rows());
  const int k = nearest.k;
  std::vector<std::array<int, 2>> edges;
  edges.reserve(static_cast<std::size_t>(n) * 6);
  Points2 local(k + 1, 2);
  for (int v = 0; v < n; ++v) {
    const int* near = nearest.of(v);
    // least-squares plane of v and its k nearest points
    const TangentPlane plane = fit_tangent_plane(points, v, near, near + k);
    local.row(0).setZero();
    for (int a = 0; a < k; ++a) {
      const Eigen::RowVector3d d = points.row(near[a]) - points.row(v);
      local(a + 1, 0) = d.dot(plane.t1.transpose());
      local(a + 1, 1) = d.dot(plane.t2.transpose());
    }
    for (const std::array<int, 3>& t : delaunay_triangulate(local)) {
      for (int c = 0; c < 3; ++c) {
        if (t[c] != 0) continue;
        edges.push_back({v, near[t[(c + 1) % 3] - 1]});
        edges.push_back({v, near[t[(c + 2) % 3] - 1]});
        // the opposite side of the triangle too (the star's link), so that the graph closes
        // into triangles where the local triangulations of neighbouring points disagree
        edges.push_back({near[t[(c + 1) % 3] - 1], near[t[(c + 2) % 3] - 1]});
      }
    }
    if (k >= 1) edges.push_back({v, near[0]});  // the nearest point is always a neighbour
  }
  return graph_from_edges(n, std::move(edges));
}

}  // namespace tela::morse
