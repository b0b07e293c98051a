// Reading a point cloud from the bytes of a file, whatever its format. The format is sniffed
// from the content first (`ply`, `# .PCD` / `VERSION`, `v x y z` lines, numeric columns); the
// file name only breaks ties (an extension never overrides what the content says).
#pragma once

#include "pointcloud/point_cloud.h"
#include "base/result.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

namespace tela {

enum class CloudFormat { unknown, ply, pcd, xyz, obj };

// Limits against hostile or accidental huge input. Exceeding one fails with a message that
// names the limit and the value found (nothing is allocated for the oversized part).
struct CloudLimits {
  std::int64_t max_points = 50'000'000;            // declared or counted points, NaNs included
  std::int64_t max_bytes = std::int64_t(2) << 30;  // input size (2 GiB)
  // Whether normals and PLY faces are kept (they are read and checked either way). The page
  // keeps neither: it never uses them, and they decide whether the largest clouds fit its
  // 4 GB module (normals cost 24 bytes per point, a mesh's faces about 50 per face).
  bool normals = true;
  bool faces = true;
  // the point limit in force: max_points, but never beyond what an int index holds
  std::int64_t point_cap() const { return std::min<std::int64_t>(max_points, std::numeric_limits<int>::max()); }
};

// Which format the bytes are in, from content, then from the extension of file_name_hint.
CloudFormat sniff_cloud_format(std::string_view bytes, std::string_view file_name_hint);

// Parses PLY (ascii, binary_little_endian, binary_big_endian), PCD (v0.5-v0.7: ascii, binary,
// binary_compressed), XYZ/CSV/TXT columns and OBJ `v` lines. Points with a non-finite
// coordinate are dropped and counted. Errors are located: "PLY header line 4: ...",
// "PCD binary data, byte 1204 (point 17): ...", "XYZ line 12, column 3: ...".
Result<PointCloud> parse_point_cloud(std::string_view bytes, std::string_view file_name_hint,
                                     const CloudLimits& limits = {});

const char* cloud_format_name(CloudFormat format);

}  // namespace tela
