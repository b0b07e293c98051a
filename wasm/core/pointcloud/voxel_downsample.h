// Box-grid down-sampling (thesis §5.4.10, Step 0): the bounding box is cut into cubes of side
// voxel_size and the points in each occupied cube are replaced by their average.
#pragma once

#include "pointcloud/point_cloud.h"

#include <string>

namespace tela {

// One point per occupied voxel (position, colour and normal averaged; normals re-normalized),
// ordered by voxel (x fastest, then y, then z). Cubes are anchored at the cloud's minimum
// corner. voxel_size <= 0 or non-finite returns the cloud unchanged. Grid and faces are
// dropped. Deterministic: per voxel, points are summed in input order.
PointCloud voxel_downsample(const PointCloud& cloud, double voxel_size);

// Why `voxel_size` cannot grid `cloud` (a message naming both), or "" when it can: cells of
// less than 1e-9 of the cloud's extent are below the coordinates' precision (a voxel of 1e-300 m
// would put every cell past the int64 range, clamped to one: 3000 points into 4).
std::string voxel_size_problem(const PointCloud& cloud, double voxel_size);

}  // namespace tela
