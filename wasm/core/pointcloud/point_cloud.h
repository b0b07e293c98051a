// A point cloud as the parsers give it and the cleaning steps pass it on: positions plus the
// optional per-point attributes the files carry. Plain data; every attribute vector is either
// empty or has one entry per point, in the order of `points`.
#pragma once

#include "geometry/mesh.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tela {

struct PointCloud {
  Positions points;                            // #points by 3, metres (file units, see below)
  std::vector<std::array<std::uint8_t, 3>> colors;  // empty or #points, 8-bit r, g, b
  Positions normals;                           // 0 rows or #points by 3 (unit or as stored)
  // organized clouds (a PCD with WIDTH > 1 and HEIGHT > 1, e.g. a 640 x 480 depth image):
  // the grid size is kept even though invalid (NaN) pixels are dropped; grid_index gives
  // each surviving point's pixel, row * grid_width + column. Unorganized: 0, 0, empty.
  int grid_width = 0, grid_height = 0;
  std::vector<int> grid_index;                 // empty or #points
  // PLY faces whose vertices all survived, re-indexed into `points` (triangles and quads;
  // larger polygons are fanned into triangles). Other formats: empty.
  std::vector<Face> faces;
  std::string format;                          // e.g. "ply binary_little_endian", "pcd binary_compressed", "xyz", "obj"
  std::int64_t dropped_non_finite = 0;         // points dropped by the parser for NaN/inf coordinates
  // Files carry no unit: coordinates are taken as metres unchanged.

  int point_count() const { return static_cast<int>(points.rows()); }
  bool has_colors() const { return !colors.empty(); }
  bool has_normals() const { return normals.rows() > 0; }
  bool organized() const { return grid_width > 0 && grid_height > 0; }
};

// The points with the given indices (each in [0, #points), in the given order) with all their
// attributes; the grid size is kept, faces survive only if all their vertices are selected.
PointCloud select_points(const PointCloud& cloud, const std::vector<int>& indices);

// Indices i in [0, #points) with keep[i] true, ascending. keep has #points entries.
std::vector<int> indices_where(const std::vector<bool>& keep);

}  // namespace tela
