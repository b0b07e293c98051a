#include "pointcloud/point_cloud.h"

#include <algorithm>

namespace tela {

PointCloud select_points(const PointCloud& cloud, const std::vector<int>& indices) {
  PointCloud out;
  const int n = static_cast<int>(indices.size());
  out.points.resize(n, 3);
  for (int i = 0; i < n; ++i) out.points.row(i) = cloud.points.row(indices[i]);
  if (cloud.has_colors()) {
    out.colors.resize(n);
    for (int i = 0; i < n; ++i) out.colors[i] = cloud.colors[indices[i]];
  }
  if (cloud.has_normals()) {
    out.normals.resize(n, 3);
    for (int i = 0; i < n; ++i) out.normals.row(i) = cloud.normals.row(indices[i]);
  }
  out.grid_width = cloud.grid_width;
  out.grid_height = cloud.grid_height;
  if (!cloud.grid_index.empty()) {
    out.grid_index.resize(n);
    for (int i = 0; i < n; ++i) out.grid_index[i] = cloud.grid_index[indices[i]];
  }
  if (!cloud.faces.empty()) {
    // old index -> new index; a face survives only when all its vertices do
    std::vector<int> new_index(cloud.points.rows(), -1);
    for (int i = 0; i < n; ++i) new_index[indices[i]] = i;
    for (const Face& face : cloud.faces) {
      Face mapped;
      bool complete = true;
      for (int c = 0; c < face.size(); ++c) {
        mapped.v[c] = new_index[face.v[c]];
        if (mapped.v[c] < 0) complete = false;
      }
      if (complete) out.faces.push_back(mapped);
    }
  }
  out.format = cloud.format;
  out.dropped_non_finite = cloud.dropped_non_finite;
  return out;
}

std::vector<int> indices_where(const std::vector<bool>& keep) {
  std::vector<int> indices;
  indices.reserve(static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true)));
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i]) indices.push_back(static_cast<int>(i));
  return indices;
}

}  // namespace tela
