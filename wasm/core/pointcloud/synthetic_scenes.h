// Generated point clouds with a known answer, shared by tests, benchmarks and demos: a cloth
// lying over a low object on a tilted, noisy table (the scene plane removal is for).
// Portable arithmetic and RNG only, so native and WebAssembly builds generate the same points.
#pragma once

#include "pointcloud/point_cloud.h"

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace tela {

struct ClothOnTableSpec {
  double table_width = 1.2, table_depth = 0.8;  // metres, centred on `origin`
  int table_points = 20000;
  double table_noise = 0.002;                    // standard deviation along the normal, metres
  double cloth_size = 0.4;                       // square side, metres, centred on `origin`
  int cloth_points = 5000;
  double cloth_noise = 0.001;                    // along the normal, metres
  // cloth height above the table: lift + bump_height / (1 + r^2 / bump_radius^2)^2
  double lift = 0.03, bump_height = 0.12, bump_radius = 0.08;
  bool uneven_density = true;                    // cloth samples denser towards one edge
  double tilt_degrees = 20;                      // table turned about the axis (1, 2, 0)
  Eigen::Vector3d origin{0.3, -0.2, 0.75};
};

struct ClothOnTable {
  PointCloud cloud;           // table and cloth points shuffled together, coloured grey / red
  std::vector<int> labels;    // #points: 0 table, 1 cloth
  Eigen::Vector3d table_normal = Eigen::Vector3d::UnitZ();  // unit, towards the cloth
  double table_offset = 0;    // table plane {p : table_normal . p = table_offset}
};

ClothOnTable cloth_on_table(const ClothOnTableSpec& spec, std::uint64_t seed);

}  // namespace tela
