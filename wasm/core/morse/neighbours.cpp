#include "morse/neighbours.h"

#include "geometry/delaunay.h"  // Points2

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

namespace {

// The Voronoi cell of the origin among the points q_1..q_m of the plane (local(0) is the origin,
// rows 1..m the others), clipped by a large box: its sides in counter-clockwise order, each
// labelled with the row whose bisector it lies on, or -1 for a side of the box. The rows that
// label a side are the origin's Delaunay neighbours; two consecutive such sides close a
// Delaunay triangle; a box side means the origin lies on the hull of the points.
struct CellSide {
  Eigen::Vector2d start;
  int label;
};
void voronoi_cell(const Points2& local, std::vector<CellSide>& cell, std::vector<CellSide>& work) {
  double reach = 0;
  for (Eigen::Index i = 1; i < local.rows(); ++i) reach = std::max(reach, local.row(i).cwiseAbs().maxCoeff());
  reach = 4 * std::max(reach, 1e-300);
  cell = {{{-reach, -reach}, -1}, {{reach, -reach}, -1}, {{reach, reach}, -1}, {{-reach, reach}, -1}};
  for (Eigen::Index i = 1; i < local.rows(); ++i) {
    // keep {x : x . q <= |q|^2 / 2}, the origin's side of the bisector
    const Eigen::Vector2d q = local.row(i).transpose();
    const double limit = 0.5 * q.squaredNorm();
    if (limit == 0) continue;  // a duplicate of the origin
    work.clear();
    const std::size_t count = cell.size();
    for (std::size_t a = 0; a < count; ++a) {
      const CellSide& side = cell[a];
      const Eigen::Vector2d& end = cell[(a + 1) % count].start;
      const double s0 = side.start.dot(q) - limit, s1 = end.dot(q) - limit;
      if (s0 <= 0) work.push_back(side);
      if ((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0)) {
        const Eigen::Vector2d cross = side.start + (s0 / (s0 - s1)) * (end - side.start);
        // leaving the half-plane: the bisector becomes the next side; entering: the old side resumes
        if (s0 < 0) work.push_back({cross, static_cast<int>(i)});
        else work.push_back({cross, side.label});
      } else if (s0 == 0 && s1 > 0) {
        work.back().label = static_cast<int>(i);
      }
    }
    cell.swap(work);
    if (cell.empty()) return;
  }
}

}  // namespace

NeighbourGraph build_neighbour_graph(const Positions& points, const NearestNeighbours& nearest, int k) {
  const int n = static_cast<int>(points.rows());
  k = std::min(k, nearest.k);
  std::vector<std::array<int, 2>> edges;
  edges.reserve(static_cast<std::size_t>(n) * 9);
  Points2 local;
  std::vector<CellSide> cell, work;
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
      // Delaunay neighbours of v in the projection = the sides of its Voronoi cell
      voronoi_cell(local, cell, work);
      bool on_hull = cell.empty();
      for (const CellSide& side : cell) on_hull = on_hull || side.label < 0;
      if (on_hull && count < nearest.k) continue;
      for (std::size_t a = 0; a < cell.size(); ++a) {
        const int label = cell[a].label, next = cell[(a + 1) % cell.size()].label;
        if (label < 0) continue;
        edges.push_back({v, near[label - 1]});
        // the opposite side of the Delaunay triangle too (the star's link), so that the graph
        // closes into triangles where the local triangulations of neighbouring points disagree
        if (next >= 0 && next != label) edges.push_back({near[label - 1], near[next - 1]});
      }
      break;
    }
    if (k >= 1) edges.push_back({v, near[0]});  // the nearest point is always a neighbour
  }
  return graph_from_edges(n, std::move(edges));
}

}  // namespace tela::morse
