#include "pointcloud/parse_point_cloud.h"

#include "pointcloud/pcd.h"
#include "pointcloud/ply.h"
#include "pointcloud/text_cloud.h"
#include "pointcloud/text_scan.h"

#include <algorithm>
#include <cctype>

namespace tela {

namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

std::string extension_of(std::string_view name) {
  const std::size_t dot = name.find_last_of('.');
  if (dot == std::string_view::npos) return {};
  std::string ext(name.substr(dot + 1));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool looks_binary(std::string_view head) {
  for (char c : head) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u == 0 || (u < 32 && u != '\n' && u != '\r' && u != '\t' && u != '\f' && u != '\v')) return true;
  }
  return false;
}

}  // namespace

const char* cloud_format_name(CloudFormat format) {
  switch (format) {
    case CloudFormat::ply: return "ply";
    case CloudFormat::pcd: return "pcd";
    case CloudFormat::xyz: return "xyz";
    case CloudFormat::obj: return "obj";
    case CloudFormat::unknown: return "unknown";
  }
  return "unknown";
}

CloudFormat sniff_cloud_format(std::string_view bytes, std::string_view file_name_hint) {
  std::string_view head = bytes.substr(0, std::min<std::size_t>(bytes.size(), 4096));
  if (starts_with(head, "\xEF\xBB\xBF")) head.remove_prefix(3);
  const std::string_view start = trim(head.substr(0, std::min<std::size_t>(head.size(), 8)));
  if (starts_with(start, "ply") && (start.size() == 3 || start[3] == '\n' || start[3] == '\r' || start[3] == ' ')) return CloudFormat::ply;
  // first few meaningful lines decide between PCD, OBJ and columns of numbers (rows whose
  // first three fields are numbers)
  LineScanner lines(head);
  TextLine line;
  std::vector<std::string_view> tokens;
  int examined = 0, obj_lines = 0, numeric_lines = 0;
  while (lines.next(line) && examined < 40) {
    const std::string_view text = trim(line.text);
    if (text.empty()) continue;
    if (starts_with(text, "# .PCD") || starts_with(text, "#.PCD")) return CloudFormat::pcd;
    if (text[0] == '#') continue;
    ++examined;
    if (starts_with(text, "VERSION") || starts_with(text, "FIELDS")) return CloudFormat::pcd;
    split_tokens(text, tokens, false);
    const std::string_view key = tokens[0];
    if (key == "v" || key == "vn" || key == "vt" || key == "f" || key == "o" || key == "g" || key == "mtllib" ||
        key == "usemtl" || key == "s")
      ++obj_lines;
    split_tokens(text, tokens, true);
    double value = 0;
    if (tokens.size() >= 3 && std::all_of(tokens.begin(), tokens.begin() + 3, [&](std::string_view t) {
          return parse_double_token(t, value);
        }))
      ++numeric_lines;
  }
  if (obj_lines > 0 && obj_lines * 2 >= examined) return CloudFormat::obj;
  if (numeric_lines > 0 && !looks_binary(head)) return CloudFormat::xyz;
  const std::string ext = extension_of(file_name_hint);
  if (ext == "ply") return CloudFormat::ply;
  if (ext == "pcd") return CloudFormat::pcd;
  if (ext == "obj") return CloudFormat::obj;
  if (ext == "xyz" || ext == "csv" || ext == "txt" || ext == "pts" || ext == "asc" || ext == "xyzrgb")
    return CloudFormat::xyz;
  return CloudFormat::unknown;
}

Result<PointCloud> parse_point_cloud(std::string_view bytes, std::string_view file_name_hint,
                                     const CloudLimits& limits) {
  if (static_cast<std::int64_t>(bytes.size()) > limits.max_bytes)
    return Result<PointCloud>::failure("the file has " + std::to_string(bytes.size()) +
                                       " bytes, more than the limit of " + std::to_string(limits.max_bytes));
  if (bytes.empty()) return Result<PointCloud>::failure("the file is empty");
  switch (sniff_cloud_format(bytes, file_name_hint)) {
    case CloudFormat::ply: return parse_ply(bytes, limits);
    case CloudFormat::pcd: return parse_pcd(bytes, limits);
    case CloudFormat::xyz: return parse_xyz(bytes, limits);
    case CloudFormat::obj: return parse_obj_vertices(bytes, limits);
    case CloudFormat::unknown: break;
  }
  // motion-capture exports are a common wrong drop
  const std::string_view head = bytes.substr(0, std::min<std::size_t>(bytes.size(), 4096));
  if (head.find("Format Version") != std::string_view::npos || head.find("Trajectories") != std::string_view::npos ||
      head.find("NO_OF_FRAMES") != std::string_view::npos)
    return Result<PointCloud>::failure("this looks like a motion-capture export, not a point cloud");
  return Result<PointCloud>::failure(
      "unrecognised point-cloud format: expected PLY ('ply' header), PCD ('# .PCD' / VERSION / FIELDS header), "
      "OBJ ('v x y z' lines) or XYZ/CSV/TXT (rows of 3 or more numbers)");
}

}  // namespace tela
