// libFuzzer target: bytes -> parse_point_cloud (PLY, PCD, XYZ, OBJ; the first byte picks the
// file-name hint so that every sniffing path is reached) -> cleaning and voxel grid -> Morse
// reconstruction of small clouds. Build and run: scripts/fuzz.sh point_cloud.
#include "morse/reconstruction.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/voxel_downsample.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const hints[] = {"", "cloud.ply", "cloud.pcd", "cloud.xyz", "cloud.obj", "cloud.txt"};
  const std::string_view hint = hints[data[0] % 6];
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  tela::CloudLimits limits;
  limits.max_points = 20000;  // declared counts beyond this are refused before allocating
  const auto cloud = tela::parse_point_cloud(bytes, hint, limits);
  if (!cloud.ok()) return 0;
  const auto& points = cloud.value->points;
  if (points.rows() > 0 && tela::voxel_size_problem(*cloud.value, 0.01).empty())
    tela::voxel_downsample(*cloud.value, 0.01);
  if (points.rows() >= 4 && points.rows() <= 600) tela::morse::reconstruct(points, tela::morse::ReconstructOptions{});
  return 0;
}
