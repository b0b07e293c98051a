#include "morse/nearest_neighbours.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tela::morse {

NearestNeighbours k_nearest_neighbours(const Positions& points, int k) {
  NearestNeighbours result;
  const int n = static_cast<int>(points.rows());
  k = std::max(0, std::min(k, n - 1));
  result.k = k;
  result.indices.assign(static_cast<std::size_t>(n) * k, -1);
  if (k == 0) return result;

  // grid with about two points per cell
  const Eigen::RowVector3d lo = points.colwise().minCoeff();
  const Eigen::RowVector3d hi = points.colwise().maxCoeff();
  const Eigen::RowVector3d extent = (hi - lo).cwiseMax(1e-12);
  const double volume = extent(0) * extent(1) * extent(2);
  // clouds sample surfaces: size cells by the area-like measure as well, whichever is finer
  const double area = 2 * (extent(0) * extent(1) + extent(1) * extent(2) + extent(0) * extent(2));
  double cell = std::min(std::cbrt(2.0 * volume / n), std::sqrt(2.0 * area / n));
  cell = std::max(cell, 1e-12 * extent.maxCoeff());
  int dims[3];
  for (int a = 0; a < 3; ++a) dims[a] = std::max(1, std::min(1024, static_cast<int>(extent(a) / cell) + 1));
  auto coord = [&](double x, int a) {
    const int c = static_cast<int>((x - lo(a)) / extent(a) * dims[a]);
    return std::min(dims[a] - 1, std::max(0, c));
  };
  const std::size_t cells = static_cast<std::size_t>(dims[0]) * dims[1] * dims[2];
  std::vector<int> start(cells + 1, 0), order(n);
  std::vector<std::size_t> cell_of(n);
  for (int i = 0; i < n; ++i) {
    cell_of[i] = (static_cast<std::size_t>(coord(points(i, 2), 2)) * dims[1] + coord(points(i, 1), 1)) * dims[0] +
                 coord(points(i, 0), 0);
    ++start[cell_of[i] + 1];
  }
  for (std::size_t c = 0; c < cells; ++c) start[c + 1] += start[c];
  {
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (int i = 0; i < n; ++i) order[fill[cell_of[i]]++] = i;
  }
  const double size[3] = {extent(0) / dims[0], extent(1) / dims[1], extent(2) / dims[2]};

  std::vector<std::pair<double, int>> best;
  for (int i = 0; i < n; ++i) {
    const int ci[3] = {coord(points(i, 0), 0), coord(points(i, 1), 1), coord(points(i, 2), 2)};
    best.clear();
    for (int ring = 0;; ++ring) {
      // visit the shell of cells at Chebyshev distance `ring`
      for (int z = ci[2] - ring; z <= ci[2] + ring; ++z) {
        if (z < 0 || z >= dims[2]) continue;
        for (int y = ci[1] - ring; y <= ci[1] + ring; ++y) {
          if (y < 0 || y >= dims[1]) continue;
          for (int x = ci[0] - ring; x <= ci[0] + ring; ++x) {
            if (x < 0 || x >= dims[0]) continue;
            if (std::max({std::abs(x - ci[0]), std::abs(y - ci[1]), std::abs(z - ci[2])}) != ring) continue;
            const std::size_t c = (static_cast<std::size_t>(z) * dims[1] + y) * dims[0] + x;
            for (int s = start[c]; s < start[c + 1]; ++s) {
              const int j = order[s];
              if (j == i) continue;
              best.emplace_back((points.row(j) - points.row(i)).squaredNorm(), j);
            }
          }
        }
      }
      // every point closer than `ring` full cells has been seen
      const double reach = ring * std::min({size[0], size[1], size[2]});
      if (static_cast<int>(best.size()) >= k) {
        std::nth_element(best.begin(), best.begin() + (k - 1), best.end());
        if (best[k - 1].first <= reach * reach) break;
      }
      if (ring > dims[0] + dims[1] + dims[2]) break;
    }
    std::sort(best.begin(), best.end());
    for (int a = 0; a < k; ++a) result.indices[static_cast<std::size_t>(i) * k + a] = best[a].second;
  }
  return result;
}

}  // namespace tela::morse
