// The cleaning pipeline in front of a reconstruction, the same for the CLI (`tela reconstruct
// --crop/--voxel/--outliers/--remove-planes`) and the page (cleanCloud): crop to a box, voxel
// down-sampling, statistical outliers, then RANSAC planes (a table top, a wall), each step
// optional and always in this order.
#pragma once

#include "pointcloud/planes.h"
#include "pointcloud/point_cloud.h"
#include "base/result.h"

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tela {

struct CropBox {
  Eigen::Vector3d min, max;  // metres, bounds included
};

struct CleaningOptions {
  std::optional<CropBox> crop;
  double voxel = 0;            // voxel edge, metres; 0: off
  int outlier_k = 0;           // neighbours of the statistical rule; 0: off
  double outlier_ratio = 2;    // standard deviations (PCL's StatisticalOutlierRemoval)
  int planes = 0;              // planes to find and remove; 0: off
  double plane_distance = 0;   // inlier distance, metres; 0: twice the median point spacing
  std::uint64_t seed = 1;      // RANSAC
};

struct CleaningStep {
  std::string step;  // "input", "crop", "voxel", "outliers", "planes"
  int count = 0;     // points after it
};

struct CleanedCloud {
  PointCloud cloud;
  std::vector<CleaningStep> steps;
  std::vector<PlaneFit> planes;  // the removed planes
  double plane_distance = 0;     // the inlier distance used (0 without planes)
};

// Range checks name the option ("voxel: ...", "outliers: ...", "planes: ...", "crop: ...").
std::string cleaning_problem(const CleaningOptions& options);

Result<CleanedCloud> clean_cloud(PointCloud cloud, const CleaningOptions& options);

// Median distance from a point to its nearest neighbour (0 for fewer than two points).
double median_spacing(const Positions& points);

}  // namespace tela
