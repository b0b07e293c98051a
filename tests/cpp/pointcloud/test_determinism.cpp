// Determinism across builds: the generated scene, RANSAC, voxel grid, outlier mask and a PCD
// write/parse round trip hash to the values the WebAssembly build (em++ 3.1.6, node 20) printed
// for the same code on 2026-11-30 (the native build printed the same). A change here means
// results differ from that wasm build: re-check with em++ before updating the values.
#include "pointcloud/outlier_removal.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/pcd.h"
#include "pointcloud/planes.h"
#include "pointcloud/synthetic_scenes.h"
#include "pointcloud/voxel_downsample.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace {

// FNV-1a over raw bytes
struct Hash {
  std::uint64_t value = 1469598103934665603ull;
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
      value ^= bytes[i];
      value *= 1099511628211ull;
    }
  }
  void add(double d) { add(&d, sizeof(d)); }
  std::string hex() const {
    char buffer[20];
    std::snprintf(buffer, sizeof(buffer), "%016llx", static_cast<unsigned long long>(value));
    return buffer;
  }
};

}  // namespace

TEST_SUITE("pointcloud") {

TEST_CASE("determinism: generated scene and cleaning hash as in the WebAssembly build") {
  Hash hash;
  const tela::ClothOnTable scene = tela::cloth_on_table({}, 6);
  hash.add(scene.cloud.points.data(), scene.cloud.points.size() * sizeof(double));
  CHECK(hash.hex() == "e36796c4b4f79e3a");
  const std::vector<tela::PlaneFit> planes = tela::detect_planes(scene.cloud, 2, 0.01, 42);
  for (const tela::PlaneFit& p : planes) {
    hash.add(p.normal.x());
    hash.add(p.normal.y());
    hash.add(p.normal.z());
    hash.add(p.offset);
    hash.add(&p.inliers, sizeof(p.inliers));
  }
  CHECK(planes.size() == 2);
  CHECK(hash.hex() == "bb71be0dc4710a48");
  const tela::PointCloud down = tela::voxel_downsample(scene.cloud, 0.02);
  hash.add(down.points.data(), down.points.size() * sizeof(double));
  CHECK(down.point_count() == 3871);
  CHECK(hash.hex() == "ceadaab0e3acb4db");
  for (bool keep : tela::statistical_inliers(down, 12, 1.0)) {
    const unsigned char byte = keep;
    hash.add(&byte, 1);
  }
  CHECK(hash.hex() == "1aa212c3df624f1b");
  const std::string bytes = tela::write_pcd(scene.cloud, tela::PcdEncoding::binary_compressed);
  hash.add(bytes.data(), bytes.size());
  const auto back = tela::parse_point_cloud(bytes, "");
  REQUIRE(back.ok());
  hash.add(back.value->points.data(), back.value->points.size() * sizeof(double));
  CHECK(hash.hex() == "c29e2dc4663c2343");
}

}
