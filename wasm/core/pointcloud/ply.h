// PLY (Stanford polygon file format): reading any encoding and property types, writing
// ascii or binary with an optional integer label per point (the labelled export of the page).
#pragma once

#include "pointcloud/parse_point_cloud.h"

#include <string>
#include <string_view>
#include <vector>

namespace tela {

// Parses a PLY file. Vertex properties x, y, z are required (any numeric type); red/green/blue
// (or r/g/b, diffuse_*) and nx/ny/nz are read when present, other properties are skipped;
// other elements are skipped except `face` (vertex_indices / vertex_index lists), kept in
// PointCloud::faces.
Result<PointCloud> parse_ply(std::string_view bytes, const CloudLimits& limits = {});

enum class PlyEncoding { ascii, binary_little_endian, binary_big_endian };

// Writes x y z as double (float when positions_as_float), then red green blue (uchar) when the
// cloud has colours, nx ny nz (float) when it has normals, and `int <label_name>` when labels
// has #points entries (empty: no label property). Faces are written when present.
std::string write_ply(const PointCloud& cloud, PlyEncoding encoding,
                      const std::vector<int>& labels = {}, std::string_view label_name = "label",
                      bool positions_as_float = false);

}  // namespace tela
