#include "pointcloud/synthetic_scenes.h"

#include "base/portable_math.h"
#include "base/portable_random.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tela {

ClothOnTable cloth_on_table(const ClothOnTableSpec& spec, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  // rotation by tilt_degrees about (1, 2, 0) / sqrt(5), Rodrigues' formula
  const Eigen::Vector3d axis = Eigen::Vector3d(1, 2, 0) / std::sqrt(5.0);
  double sine = 0, cosine = 1;
  portable_sin_cos_turns(spec.tilt_degrees / 360.0, &sine, &cosine);
  Eigen::Matrix3d cross;
  cross << 0, -axis.z(), axis.y(), axis.z(), 0, -axis.x(), -axis.y(), axis.x(), 0;
  const Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity() + sine * cross + (1 - cosine) * (cross * cross);

  const int table = std::max(0, spec.table_points), cloth = std::max(0, spec.cloth_points);
  const int n = table + cloth;
  std::vector<Eigen::Vector3d> local(n);
  std::vector<int> label(n);
  for (int i = 0; i < table; ++i) {
    // one draw per statement: the order of evaluation of function arguments is unspecified
    // (GCC and clang differ), and the points must be the same in every build
    const double x = uniform_real(rng, -0.5, 0.5) * spec.table_width;
    const double y = uniform_real(rng, -0.5, 0.5) * spec.table_depth;
    const double z = spec.table_noise * standard_normal(rng);
    local[i] = Eigen::Vector3d(x, y, z);
    label[i] = 0;
  }
  const double half = 0.5 * spec.cloth_size;
  for (int i = table; i < n; ++i) {
    const double u = uniform01(rng);
    const double x = -half + spec.cloth_size * (spec.uneven_density ? u * u : u);
    const double y = uniform_real(rng, -half, half);
    const double s = 1 + (x * x + y * y) / (spec.bump_radius * spec.bump_radius);
    const double noise = spec.cloth_noise * standard_normal(rng);
    const double height = spec.lift + spec.bump_height / (s * s) + noise;
    local[i] = Eigen::Vector3d(x, y, height);
    label[i] = 1;
  }
  // shuffle (Fisher-Yates) so that indices do not tell table from cloth
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 0; --i) std::swap(order[i], order[uniform_index(rng, i + 1)]);

  ClothOnTable scene;
  scene.cloud.format = "generated cloth on table";
  scene.cloud.points.resize(n, 3);
  scene.cloud.colors.resize(n);
  scene.labels.resize(n);
  for (int k = 0; k < n; ++k) {
    const int i = order[k];
    const Eigen::Vector3d p = spec.origin + rotation * local[i];
    scene.cloud.points.row(k) = p.transpose();
    scene.labels[k] = label[i];
    scene.cloud.colors[k] = label[i] ? std::array<std::uint8_t, 3>{200, 40, 40} : std::array<std::uint8_t, 3>{150, 150, 150};
  }
  scene.table_normal = rotation.col(2);
  scene.table_offset = scene.table_normal.dot(spec.origin);
  return scene;
}

}  // namespace tela
