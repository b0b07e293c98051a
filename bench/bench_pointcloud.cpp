// Point-cloud benchmark figures: parsing a generated 640 x 480 organized binary_compressed PCD
// (a depth camera's frame: a table plane and a draped bump, 20 % invalid pixels, colours) and
// the cleaning steps on the parsed cloud. Wall-clock medians of several runs; figures only.
#include "base/portable_random.h"
#include "pointcloud/outlier_removal.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/pcd.h"
#include "pointcloud/planes.h"
#include "pointcloud/ply.h"
#include "pointcloud/voxel_downsample.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

namespace {

tela::PointCloud depth_frame(int width, int height, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  tela::PointCloud cloud;
  cloud.grid_width = width;
  cloud.grid_height = height;
  std::vector<Eigen::Vector3d> points;
  for (int row = 0; row < height; ++row)
    for (int col = 0; col < width; ++col) {
      if (tela::uniform01(rng) < 0.2) continue;  // invalid pixel
      // pinhole ray through the pixel (focal 525 px) hitting the table z = 1.2 - 0.4 y or the bump
      const double x = (col - width / 2.0) / 525.0, y = (row - height / 2.0) / 525.0;
      const double bump = 0.15 * std::exp(-(x * x + y * y) / 0.02);
      const double depth = 1.2 - 0.4 * y - bump + 0.002 * tela::standard_normal(rng);
      points.push_back(Eigen::Vector3d(x * depth, y * depth, depth));
      cloud.grid_index.push_back(row * width + col);
      cloud.colors.push_back({static_cast<std::uint8_t>(col % 256), static_cast<std::uint8_t>(row % 256),
                              static_cast<std::uint8_t>(bump > 0.01 ? 200 : 90)});
    }
  cloud.points.resize(static_cast<Eigen::Index>(points.size()), 3);
  for (std::size_t i = 0; i < points.size(); ++i) cloud.points.row(i) = points[i].transpose();
  return cloud;
}

double median_ms(int runs, const std::function<void()>& work) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto begin = std::chrono::steady_clock::now();
    work();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

void bench_pointcloud() {
  const tela::PointCloud frame = depth_frame(640, 480, 1);
  const std::string bytes = tela::write_pcd(frame, tela::PcdEncoding::binary_compressed);
  tela::PointCloud parsed;
  bool ok = true;
  const double parse_ms = median_ms(9, [&]() {
    auto result = tela::parse_point_cloud(bytes, "frame.pcd");
    ok = ok && result.ok();
    if (result.ok()) parsed = std::move(*result.value);
  });
  if (!ok || parsed.point_count() != frame.point_count()) {
    std::fprintf(stderr, "bench_pointcloud: the generated PCD did not parse back\n");
    return;
  }
  std::printf("pointcloud: 640 x 480 binary_compressed PCD, %d valid points, %zu bytes\n", parsed.point_count(), bytes.size());
  std::printf("BENCH native_pointcloud_parse_pcd_640x480_compressed %.4g ms\n", parse_ms);
  // the same frame as a binary and an ascii PLY (float positions and colours, as scanners write)
  for (tela::PlyEncoding encoding : {tela::PlyEncoding::binary_little_endian, tela::PlyEncoding::ascii}) {
    const std::string ply = tela::write_ply(frame, encoding, {}, "label", true);
    const double ms = median_ms(5, [&]() { ok = ok && tela::parse_point_cloud(ply, "frame.ply").ok(); });
    std::printf("BENCH native_pointcloud_parse_ply_%s_640x480 %.4g ms\n",
                encoding == tela::PlyEncoding::ascii ? "ascii" : "binary", ms);
  }
  tela::PointCloud down;
  const double voxel_ms = median_ms(5, [&]() { down = tela::voxel_downsample(parsed, 0.01); });
  std::printf("BENCH native_pointcloud_voxel_640x480_1cm %.4g ms\n", voxel_ms);
  const double outlier_ms = median_ms(3, [&]() { tela::remove_statistical_outliers(down, 16, 2.0); });
  std::printf("BENCH native_pointcloud_outliers_k16_%dpts %.4g ms\n", down.point_count(), outlier_ms);
  const double ransac_ms = median_ms(3, [&]() { tela::detect_planes(parsed, 1, 0.01, 1); });
  std::printf("BENCH native_pointcloud_ransac_plane_640x480 %.4g ms\n", ransac_ms);
  std::fflush(stdout);
}
