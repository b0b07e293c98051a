#include "pointcloud/outlier_removal.h"

#include "pointcloud/knn.h"

#include <algorithm>
#include <cmath>

namespace tela {

std::vector<bool> statistical_inliers(const PointCloud& cloud, int k, double std_ratio) {
  const int n = cloud.point_count();
  std::vector<bool> keep(n, true);
  if (k < 1 || n < k + 1 || !std::isfinite(std_ratio)) return keep;
  k = std::min(k, kMaxOutlierNeighbours);
  const KnnIndex index(cloud.points);
  // mean distance of each point to its k nearest other points
  std::vector<double> mean_distance(n);
  std::vector<int> ids;
  std::vector<double> squared;
  for (int i = 0; i < n; ++i) {
    index.nearest_to_point(i, k, ids, squared);
    double sum = 0;
    for (double s : squared) sum += std::sqrt(s);
    mean_distance[i] = sum / static_cast<double>(squared.size());
  }
  // mean and (sample) standard deviation over the cloud, as PCL; two passes
  double sum = 0;
  for (double d : mean_distance) sum += d;
  const double mean = sum / n;
  double sum_squares = 0;
  for (double d : mean_distance) sum_squares += (d - mean) * (d - mean);
  const double variance = n > 1 ? sum_squares / (n - 1) : 0.0;
  const double threshold = mean + std_ratio * std::sqrt(variance);
  for (int i = 0; i < n; ++i) keep[i] = mean_distance[i] <= threshold;
  return keep;
}

PointCloud remove_statistical_outliers(const PointCloud& cloud, int k, double std_ratio) {
  return select_points(cloud, indices_where(statistical_inliers(cloud, k, std_ratio)));
}

}  // namespace tela
