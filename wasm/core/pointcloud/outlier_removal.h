// Statistical outlier removal (as PCL's StatisticalOutlierRemoval): a point is an outlier when
// its mean distance to its k nearest neighbours exceeds mean + std_ratio * standard deviation
// of that quantity over the whole cloud.
#pragma once

#include "pointcloud/point_cloud.h"

#include <vector>

namespace tela {

// k beyond this is taken as this (PCL's examples use 50; larger only costs time).
constexpr int kMaxOutlierNeighbours = 1000;

// The inlier mask (#points) for the rule above. k < 1 or fewer than k + 1 points: all inliers.
std::vector<bool> statistical_inliers(const PointCloud& cloud, int k, double std_ratio);

// The cloud without its statistical outliers (attributes, grid and faces follow the points).
PointCloud remove_statistical_outliers(const PointCloud& cloud, int k, double std_ratio);

}  // namespace tela
