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

NeighbourGraph build_neighbour_graph(const Positions& points, const NearestNeighbours& nearest, int k) {
  const int n = static_cast<int>(points.rows());
  k = std::min(k, nearest.k);
  std::vector<std::array<int, 2>> edges;
  edges.reserve(static_cast<std::size_t>(n) * 9);
  Points2 local;
  for (int v = 0; v < n; ++v) {
    const int* near = nearest.of(v);
    // with the k nearest points first; when v ends up on the hull of that local set (its
    // nearest points cluster on one side: a density jump or a void, thesis Fig. 5.5), again
    // with all the nearest points available
    for (int count = k;; count = nearest.k) {
      const TangentPlane plane = fit_tangent_plane(points, v, near, near + count);
      local.resize(count + 1, 2);
      local.row(0).setZero();
      for (int a = 0; a < count; ++a) {
        const Eigen::RowVector3d d = points.row(near[a]) - points.row(v);
        local(a + 1, 0) = d.dot(plane.t1.transpose());
        local(a + 1, 1) = d.dot(plane.t2.transpose());
      }
      const std::vector<std::array<int, 3>> triangles = delaunay_triangulate(local);
      int fan = 0;
      std::vector<int> star;
      for (const std::array<int, 3>& t : triangles)
        for (int c = 0; c < 3; ++c)
          if (t[c] == 0) {
            ++fan;
            star.push_back(t[(c + 1) % 3]);
            star.push_back(t[(c + 2) % 3]);
          }
      std::sort(star.begin(), star.end());
      star.erase(std::unique(star.begin(), star.end()), star.end());
      const bool on_hull = fan < static_cast<int>(star.size());
      if (on_hull && count < nearest.k) continue;
      for (const std::array<int, 3>& t : triangles) {
        for (int c = 0; c < 3; ++c) {
          if (t[c] != 0) continue;
          edges.push_back({v, near[t[(c + 1) % 3] - 1]});
          edges.push_back({v, near[t[(c + 2) % 3] - 1]});
          // the opposite side of the triangle too (the star's link), so that the graph closes
          // into triangles where the local triangulations of neighbouring points disagree
          edges.push_back({near[t[(c + 1) % 3] - 1], near[t[(c + 2) % 3] - 1]});
        }
      }
      break;
    }
    if (k >= 1) edges.push_back({v, near[0]});  // the nearest point is always a neighbour
  }
  return graph_from_edges(n, std::move(edges));
}

}  // namespace tela::morse
