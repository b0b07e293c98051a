// k nearest neighbours of every point of a cloud, by the pointcloud module's kd-tree
// (KnnIndex: exact, ties broken by index, so native and wasm agree).
#pragma once

#include "geometry/mesh.h"

#include <vector>

namespace tela::morse {

// For each point, the indices of its k nearest other points, nearest first (#points by k,
// flat, row-major). Fewer than k when the cloud has fewer than k + 1 points (then k is
// reduced to #points - 1 for every point).
struct NearestNeighbours {
  int k = 0;
  std::vector<int> indices;  // #points * k
  const int* of(int point) const { return indices.data() + static_cast<std::size_t>(point) * k; }
};

NearestNeighbours k_nearest_neighbours(const Positions& points, int k);

}  // namespace tela::morse
