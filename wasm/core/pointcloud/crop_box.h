// Cropping a cloud to an axis-aligned box.
#pragma once

#include "pointcloud/point_cloud.h"

#include <Eigen/Core>

namespace tela {

// The points p with min <= p <= max component-wise (bounds included, metres).
PointCloud crop_box(const PointCloud& cloud, const Eigen::Vector3d& min, const Eigen::Vector3d& max);

}  // namespace tela
