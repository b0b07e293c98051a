// The PCL sample files in TELA_SHARED_DATA/clouds (see the data README): real headers,
// encodings and NaN patterns. Skipped with a message when the folder is absent. The
// environment variable TELA_SHARED_DATA overrides the compiled-in folder (useful in worktrees).
// Oracle values (counts, sums, first points, colour sums) come from an independent Python
// reader, pcl_samples_oracle.py in this folder.
#include "pointcloud/parse_point_cloud.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string clouds_dir() {
  if (const char* env = std::getenv("TELA_SHARED_DATA")) return std::string(env) + "/clouds";
  return std::string(TELA_SHARED_DATA) + "/clouds";
}

bool read_sample(const std::string& name, std::string& bytes) {
  std::ifstream in(clouds_dir() + "/" + name, std::ios::binary);
  if (!in) {
    MESSAGE("skipped: sample " << name << " not found in " << clouds_dir());
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  bytes = buffer.str();
  return true;
}

struct Expected {
  int points;
  long dropped;
  int grid_width, grid_height;
  double sum[3];        // coordinate sums over the kept points
  long color_sum[3];    // -1: no colours
  double first[3];      // the first kept point
  int first_grid_index; // -1: unorganized
};

void check_sample(const std::string& name, const std::string& format, const Expected& e) {
  std::string bytes;
  if (!read_sample(name, bytes)) return;
  // a misleading name hint must not matter: the content decides
  const auto parsed = tela::parse_point_cloud(bytes, "cloud.txt");
  REQUIRE_MESSAGE(parsed.ok(), parsed.error);
  const tela::PointCloud& cloud = *parsed.value;
  CHECK(cloud.format == format);
  CHECK(cloud.point_count() == e.points);
  CHECK(cloud.dropped_non_finite == e.dropped);
  CHECK(cloud.grid_width == e.grid_width);
  CHECK(cloud.grid_height == e.grid_height);
  for (int d = 0; d < 3; ++d) {
    // the same values summed in double in another order: agreement to rounding (relative 1e-11)
    CHECK(cloud.points.col(d).sum() == doctest::Approx(e.sum[d]).epsilon(1e-11));
    CHECK(cloud.points(0, d) == doctest::Approx(e.first[d]).epsilon(1e-12));
  }
  if (e.color_sum[0] < 0) {
    CHECK_FALSE(cloud.has_colors());
  } else {
    REQUIRE(cloud.colors.size() == static_cast<std::size_t>(e.points));
    long sums[3] = {0, 0, 0};
    for (const auto& c : cloud.colors)
      for (int k = 0; k < 3; ++k) sums[k] += c[k];
    for (int k = 0; k < 3; ++k) CHECK(sums[k] == e.color_sum[k]);
  }
  if (e.first_grid_index >= 0) {
    REQUIRE(cloud.grid_index.size() == static_cast<std::size_t>(e.points));
    CHECK(cloud.grid_index[0] == e.first_grid_index);
    // pixels strictly increasing and inside the grid
    bool ordered = true;
    for (std::size_t i = 1; i < cloud.grid_index.size(); ++i) ordered = ordered && cloud.grid_index[i] > cloud.grid_index[i - 1];
    CHECK(ordered);
    CHECK(cloud.grid_index.back() < e.grid_width * e.grid_height);
  } else {
    CHECK(cloud.grid_index.empty());
  }
}

}  // namespace

TEST_SUITE("pointcloud") {

TEST_CASE("real PCL sample bunny.pcd: PCD v.5 ascii, 397 points") {
  check_sample("bunny.pcd", "pcd ascii",
               {397, 0, 0, 0, {-11.545135005610064, 40.753102920949459, 10.838877076108474}, {-1, -1, -1}, {0.005421599838882685, 0.11349000036716461, 0.040748998522758484}, -1});
}

TEST_CASE("real PCL sample colored_cloud.pcd: binary, rgb + normals, 1 x 1000 (not a grid)") {
  check_sample("colored_cloud.pcd", "pcd binary",
               {1000, 0, 0, 0, {-218.51275972346775, -513.7772444486618, 1210.1030099391937}, {140634, 139284, 136778},
                {-0.8550515174865723, -0.6315085887908936, 1.4670000076293945}, -1});
  std::string bytes;
  if (!read_sample("colored_cloud.pcd", bytes)) return;
  const auto parsed = tela::parse_point_cloud(bytes, "colored_cloud.pcd");
  REQUIRE(parsed.ok());
  REQUIRE(parsed.value->has_normals());
  // the stored normals are unit vectors
  for (int i = 0; i < parsed.value->point_count(); i += 97)
    CHECK(parsed.value->normals.row(i).norm() == doctest::Approx(1.0).epsilon(1e-5));
}

TEST_CASE("real PCL sample milk_color.pcd: binary_compressed (LZF), rgba") {
  check_sample("milk_color.pcd", "pcd binary_compressed",
               {13704, 0, 0, 0, {-770.30411062663188, -1874.0773195419461, 10610.029351890087}, {1253588, 1270390, 1299452},
                {-0.13160760700702667, -0.2095429003238678, 0.7720000147819519}, -1});
}

TEST_CASE("real PCL sample depth frame: organized 640 x 480, binary_compressed, 35,625 NaN pixels") {
  check_sample("frame_20121214T142255.814212.pcd", "pcd binary_compressed",
               {271575, 35625, 640, 480, {-6168.5921169567155, -12658.194327666424, 269271.27260071039}, {19762079, 19831930, 18263294},
                {-0.9102628231048584, -0.673714280128479, 1.5720000267028809}, 9616});
}

TEST_CASE("real PCL sample cube.ply: binary little-endian with faces") {
  std::string bytes;
  if (!read_sample("cube.ply", bytes)) return;
  const auto parsed = tela::parse_point_cloud(bytes, "cube.ply");
  REQUIRE_MESSAGE(parsed.ok(), parsed.error);
  const tela::PointCloud& cloud = *parsed.value;
  CHECK(cloud.format == "ply binary_little_endian");
  CHECK(cloud.point_count() == 24);
  CHECK(cloud.faces.size() == 12);
  // a cube of side 2 centred at the origin: every coordinate is +-1
  CHECK(cloud.points.cwiseAbs().minCoeff() == 1.0);
  CHECK(cloud.points.cwiseAbs().maxCoeff() == 1.0);
  CHECK(cloud.points.colwise().sum().norm() == 0.0);
  REQUIRE(cloud.faces.size() >= 2);
  CHECK(cloud.faces[0].v == std::array<int, 4>{0, 1, 2, -1});
  CHECK(cloud.faces[1].v == std::array<int, 4>{0, 2, 3, -1});
}

}
