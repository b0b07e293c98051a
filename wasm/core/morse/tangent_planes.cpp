#include "morse/tangent_planes.h"

#include <Eigen/Eigenvalues>
#include <queue>
#include <tuple>

namespace tela::morse {

TangentPlane fit_tangent_plane(const Positions& points, int v, const int* first, const int* last) {
  Eigen::Matrix3d scatter = Eigen::Matrix3d::Zero();
  for (const int* p = first; p != last; ++p) {
    const Eigen::Vector3d d = (points.row(*p) - points.row(v)).transpose();
    scatter.noalias() += d * d.transpose();
  }
  TangentPlane plane;
  if (last - first < 2) return plane;
  // iterative (QR) solver: only + - * / sqrt, so native and wasm agree
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(scatter);
  if (solver.info() != Eigen::Success) return plane;
  plane.normal = solver.eigenvectors().col(0).normalized();
  plane.t1 = solver.eigenvectors().col(2).normalized();
  plane.t2 = plane.normal.cross(plane.t1);
  return plane;
}

std::vector<TangentPlane> tangent_planes(const Positions& points, const NeighbourGraph& graph) {
  std::vector<TangentPlane> planes(graph.size());
  for (int v = 0; v < graph.size(); ++v) planes[v] = fit_tangent_plane(points, v, graph.begin(v), graph.end(v));
  return planes;
}

int orient_normals(const NeighbourGraph& graph, std::vector<TangentPlane>& planes) {
  const int n = graph.size();
  std::vector<char> done(n, 0);
  // Prim's algorithm on the weight |n_v . n_w|; ties by index (deterministic)
  using Item = std::tuple<double, int, int>;  // weight, -to, from
  for (int root = 0; root < n; ++root) {
    if (done[root]) continue;
    std::priority_queue<Item> queue;
    done[root] = 1;
    auto push = [&](int v) {
      for (const int* w = graph.begin(v); w != graph.end(v); ++w)
        if (!done[*w]) queue.emplace(std::abs(planes[v].normal.dot(planes[*w].normal)), -*w, v);
    };
    push(root);
    while (!queue.empty()) {
      const auto [weight, minus_to, from] = queue.top();
      queue.pop();
      const int to = -minus_to;
      if (done[to]) continue;
      done[to] = 1;
      if (planes[to].normal.dot(planes[from].normal) < 0) {
        planes[to].normal = -planes[to].normal;
        planes[to].t2 = -planes[to].t2;  // keep t1 x t2 = normal
      }
      push(to);
    }
  }
  int disagreements = 0;
  for (int v = 0; v < n; ++v)
    for (const int* w = graph.begin(v); w != graph.end(v); ++w)
      if (*w > v && planes[v].normal.dot(planes[*w].normal) < -0.5) ++disagreements;
  return disagreements;
}

}  // namespace tela::morse
