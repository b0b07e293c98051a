#include "morse/nearest_neighbours.h"

#include "pointcloud/knn.h"

#include <algorithm>

namespace tela::morse {

NearestNeighbours k_nearest_neighbours(const Positions& points, int k) {
  NearestNeighbours result;
  const int n = static_cast<int>(points.rows());
  result.k = std::max(0, std::min(k, n - 1));
  if (result.k == 0) return result;
  const KnnIndex index(points);
  result.indices = tela::k_nearest_neighbours(index, result.k);
  return result;
}

}  // namespace tela::morse
