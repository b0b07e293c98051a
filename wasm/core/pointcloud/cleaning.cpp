#include "pointcloud/cleaning.h"

#include "pointcloud/crop_box.h"
#include "pointcloud/knn.h"
#include "pointcloud/outlier_removal.h"
#include "pointcloud/voxel_downsample.h"

#include <algorithm>
#include <cmath>

namespace tela {

double median_spacing(const Positions& points) {
  if (points.rows() < 2) return 0;
  const KnnIndex index(points);
  const std::vector<int> nearest = k_nearest_neighbours(index, 1);
  std::vector<double> d(points.rows());
  for (Eigen::Index i = 0; i < points.rows(); ++i) d[i] = (points.row(nearest[i]) - points.row(i)).norm();
  std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
  return d[d.size() / 2];
}

std::string cleaning_problem(const CleaningOptions& o) {
  if (o.crop && !(o.crop->min.allFinite() && o.crop->max.allFinite()))
    return "crop: the box corners must be finite numbers";
  if (o.crop && (o.crop->min.array() > o.crop->max.array()).any())
    return "crop: every coordinate of the box's min corner must be <= the max corner's";
  if (!(o.voxel >= 0) || !std::isfinite(o.voxel)) return "voxel: needs a box size >= 0 (metres; 0: off)";
  if (o.outlier_k < 0 || o.outlier_k > 200) return "outliers: k must be a whole number between 0 (off) and 200";
  if (!(o.outlier_ratio > 0) || !std::isfinite(o.outlier_ratio)) return "outliers: the std ratio must be > 0";
  if (o.planes < 0 || o.planes > 10) return "planes: a whole number between 0 (off) and 10";
  if (!(o.plane_distance >= 0) || !std::isfinite(o.plane_distance))
    return "planes: the inlier distance must be >= 0 (metres; 0: twice the median point spacing)";
  return {};
}

Result<CleanedCloud> clean_cloud(PointCloud cloud, const CleaningOptions& o) {
  using R = Result<CleanedCloud>;
  if (const std::string problem = cleaning_problem(o); !problem.empty()) return R::failure(problem);
  CleanedCloud out;
  auto note = [&](const char* step) { out.steps.push_back({step, cloud.point_count()}); };
  note("input");
  if (o.crop) {
    cloud = crop_box(cloud, o.crop->min, o.crop->max);
    note("crop");
  }
  if (o.voxel > 0) {
    if (const std::string problem = voxel_size_problem(cloud, o.voxel); !problem.empty()) return R::failure(problem);
    cloud = voxel_downsample(cloud, o.voxel);
    note("voxel");
  }
  if (o.outlier_k >= 1) {
    cloud = remove_statistical_outliers(cloud, o.outlier_k, o.outlier_ratio);
    note("outliers");
  }
  if (o.planes >= 1) {
    out.plane_distance = o.plane_distance > 0 ? o.plane_distance : 2 * median_spacing(cloud.points);
    if (!(out.plane_distance > 0) && cloud.point_count() > 0)
      return R::failure("planes: the points coincide (median spacing 0): give an inlier distance");
    out.planes = detect_planes(cloud, o.planes, out.plane_distance, o.seed);
    cloud = remove_planes(cloud, out.planes, out.plane_distance);
    note("planes");
  }
  out.cloud = std::move(cloud);
  return R::success(std::move(out));
}

}  // namespace tela
