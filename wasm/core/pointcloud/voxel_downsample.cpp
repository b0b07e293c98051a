#include "pointcloud/voxel_downsample.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace tela {

namespace {

constexpr double kMaxVoxelsPerAxis = 1e9;

// voxel coordinate of x along one axis, clamped to [0, 2^32 - 1] (voxel_size_problem refuses
// grids beyond 1e9 cells per axis, so the clamp never merges cells of an accepted grid)
std::uint32_t voxel_coordinate(double x, double lo, double voxel_size) {
  const double q = std::floor((x - lo) / voxel_size);
  return static_cast<std::uint32_t>(std::min(std::max(q, 0.0), 4294967295.0));
}

// a point's voxel (z and y packed, then x) and its index: sorting these records orders the points
// by voxel and, within a voxel, in input order, in one contiguous array (an index sort comparing
// through a separate key array missed the cache on every comparison: 36 s for 45 M points)
struct VoxelRecord {
  std::uint64_t zy;
  std::uint32_t x;
  std::int32_t index;
  bool same_voxel(const VoxelRecord& o) const { return zy == o.zy && x == o.x; }
  bool operator<(const VoxelRecord& o) const {
    if (zy != o.zy) return zy < o.zy;
    if (x != o.x) return x < o.x;
    return index < o.index;
  }
};

}  // namespace

std::string voxel_size_problem(const PointCloud& cloud, double voxel_size) {
  if (!(voxel_size > 0) || !std::isfinite(voxel_size)) return "voxel: must be a finite size > 0 (metres)";
  if (cloud.point_count() == 0) return "";
  const double extent = (cloud.points.colwise().maxCoeff() - cloud.points.colwise().minCoeff()).maxCoeff();
  if (extent / voxel_size > kMaxVoxelsPerAxis) {
    char text[200];
    std::snprintf(text, sizeof text, "voxel: %g m is too small for a cloud %g m across (more than %g cells per axis)",
                  voxel_size, extent, kMaxVoxelsPerAxis);
    return text;
  }
  return "";
}

PointCloud voxel_downsample(const PointCloud& cloud, double voxel_size) {
  const int n = cloud.point_count();
  if (!(voxel_size > 0) || !std::isfinite(voxel_size) || n == 0) return cloud;
  const Eigen::Vector3d lo = cloud.points.colwise().minCoeff().transpose();

  std::vector<VoxelRecord> records(n);
  for (int i = 0; i < n; ++i) {
    const std::uint64_t z = voxel_coordinate(cloud.points(i, 2), lo[2], voxel_size);
    const std::uint64_t y = voxel_coordinate(cloud.points(i, 1), lo[1], voxel_size);
    records[i] = {z << 32 | y, voxel_coordinate(cloud.points(i, 0), lo[0], voxel_size), i};
  }
  std::sort(records.begin(), records.end());

  PointCloud out;
  out.format = cloud.format;
  out.dropped_non_finite = cloud.dropped_non_finite;
  std::vector<Eigen::Vector3d> positions, normals;
  for (int begin = 0; begin < n;) {
    int end = begin + 1;
    while (end < n && records[end].same_voxel(records[begin])) ++end;
    const double count = end - begin;
    Eigen::Vector3d p = Eigen::Vector3d::Zero(), normal = Eigen::Vector3d::Zero();
    double rgb[3] = {0, 0, 0};
    for (int j = begin; j < end; ++j) {
      const int i = records[j].index;
      p += cloud.points.row(i).transpose();
      if (cloud.has_normals()) normal += cloud.normals.row(i).transpose();
      if (cloud.has_colors())
        for (int c = 0; c < 3; ++c) rgb[c] += cloud.colors[i][c];
    }
    positions.push_back(p / count);
    if (cloud.has_normals()) {
      const double length = normal.norm();
      normals.push_back(length > 0 ? Eigen::Vector3d(normal / length) : Eigen::Vector3d::Zero());
    }
    if (cloud.has_colors()) {
      std::array<std::uint8_t, 3> color{};
      for (int c = 0; c < 3; ++c) color[c] = static_cast<std::uint8_t>(std::floor(rgb[c] / count + 0.5));
      out.colors.push_back(color);
    }
    begin = end;
  }
  out.points.resize(static_cast<Eigen::Index>(positions.size()), 3);
  for (std::size_t i = 0; i < positions.size(); ++i) out.points.row(i) = positions[i].transpose();
  if (!normals.empty()) {
    out.normals.resize(static_cast<Eigen::Index>(normals.size()), 3);
    for (std::size_t i = 0; i < normals.size(); ++i) out.normals.row(i) = normals[i].transpose();
  }
  return out;
}

}  // namespace tela
