#include "morse/smoothing.h"

namespace tela::morse {

Positions smooth_along_normals(const Positions& points, const NeighbourGraph& graph,
                               const std::vector<TangentPlane>& planes, int iterations) {
  Positions current = points;
  Positions next = points;
  for (int it = 0; it < iterations; ++it) {
    for (int v = 0; v < graph.size(); ++v) {
      if (graph.degree(v) == 0) continue;
      Eigen::RowVector3d mean = Eigen::RowVector3d::Zero();
      for (const int* w = graph.begin(v); w != graph.end(v); ++w) mean += current.row(*w);
      mean /= graph.degree(v);
      const Eigen::RowVector3d normal = planes[v].normal.transpose();
      next.row(v) = current.row(v) + 0.5 * normal.dot(mean - current.row(v)) * normal;
    }
    current.swap(next);
  }
  return current;
}

}  // namespace tela::morse
