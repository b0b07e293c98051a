// Text point clouds: XYZ / CSV / TXT columns and the vertices of Wavefront OBJ files.
#pragma once

#include "pointcloud/parse_point_cloud.h"

#include <string_view>

namespace tela {

// Rows of 3 or more numbers separated by commas, semicolons, tabs or spaces; the first three
// columns are x y z. Leading non-numeric lines (headers, comments starting with # or //) are
// skipped; a header naming r/g/b or red/green/blue columns (or 6+ columns whose 4th to 6th are
// integers 0-255) gives colours, values in [0, 1] are scaled to 0-255.
Result<PointCloud> parse_xyz(std::string_view bytes, const CloudLimits& limits = {});

// The `v x y z [r g b]` lines of an OBJ file (colours in [0, 1] when present); all other
// statements are ignored.
Result<PointCloud> parse_obj_vertices(std::string_view bytes, const CloudLimits& limits = {});

}  // namespace tela
