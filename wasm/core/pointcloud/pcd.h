// PCD (Point Cloud Library's format, v0.5 to v0.7): reading ascii, binary and
// binary_compressed data with any field layout; writing for exports, tests and benchmarks.
#pragma once

#include "pointcloud/parse_point_cloud.h"

#include <string>
#include <string_view>

namespace tela {

// Parses a PCD file. Fields x, y, z are required; `rgb` (float- or uint-packed 0x00RRGGBB) or
// `rgba` (uint 0xAARRGGBB) give colours, normal_x/_y/_z give normals, others are skipped.
// Organized clouds (WIDTH > 1 and HEIGHT > 1) keep their grid size and each point's pixel.
Result<PointCloud> parse_pcd(std::string_view bytes, const CloudLimits& limits = {});

enum class PcdEncoding { ascii, binary, binary_compressed };

// Writes fields x y z (F 4) plus rgb (U 4, packed 0x00RRGGBB) when the cloud has colours.
// An organized cloud (grid_index set) is written as its full grid with NaN for missing pixels.
std::string write_pcd(const PointCloud& cloud, PcdEncoding encoding);

}  // namespace tela
