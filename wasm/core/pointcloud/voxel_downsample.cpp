#include "pointcloud/voxel_downsample.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>

namespace tela {

namespace {

constexpr double kMaxVoxelsPerAxis = 1e9;

// voxel coordinate of x along one axis, clamped far below int64 overflow
std::int64_t voxel_coordinate(double x, double lo, double voxel_size) {
  const double q = std::floor((x - lo) / voxel_size);
  constexpr double cap = 4.0e18;
  return static_cast<std::int64_t>(std::min(std::max(q, 0.0), cap));
}

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

  std::vector<std::array<std::int64_t, 3>> keys(n);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) keys[i][d] = voxel_coordinate(cloud.points(i, d), lo[d], voxel_size);
  // order by voxel (z, then y, then x); stable, so each voxel's points stay in input order
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const auto& ka = keys[a];
    const auto& kb = keys[b];
    if (ka[2] != kb[2]) return ka[2] < kb[2];
    if (ka[1] != kb[1]) return ka[1] < kb[1];
    return ka[0] < kb[0];
  });

  PointCloud out;
  out.format = cloud.format;
  out.dropped_non_finite = cloud.dropped_non_finite;
  std::vector<Eigen::Vector3d> positions, normals;
  for (int begin = 0; begin < n;) {
    int end = begin + 1;
    while (end < n && keys[order[end]] == keys[order[begin]]) ++end;
    const double count = end - begin;
    Eigen::Vector3d p = Eigen::Vector3d::Zero(), normal = Eigen::Vector3d::Zero();
    double rgb[3] = {0, 0, 0};
    for (int j = begin; j < end; ++j) {
      const int i = order[j];
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
