#include "dgli/cloth_state_input.h"

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace tela {
namespace {

bool parse_double(const std::string& text, double& out) {
  const char* begin = text.c_str();
  while (*begin == ' ' || *begin == '\t') ++begin;
  char* end = nullptr;
  out = std::strtod(begin, &end);
  if (end == begin) return false;
  while (*end == ' ' || *end == '\t' || *end == '\r') ++end;
  return *end == '\0' && std::isfinite(out);
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, separator)) fields.push_back(field);
  if (!line.empty() && line.back() == separator) fields.push_back("");
  return fields;
}

std::string at_line(long line) { return "line " + std::to_string(line) + ": "; }

}  // namespace

Result<Mesh> parse_obj_mesh(const std::string& text) {
  using R = Result<Mesh>;
  std::vector<double> vertices;
  std::vector<std::pair<long, std::vector<long>>> faces;  // line, raw indices
  std::stringstream in(text);
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::stringstream fields(line);
    std::string kind;
    fields >> kind;
    if (kind == "v") {
      std::string token;
      for (int c = 0; c < 3; ++c) {
        double value = 0;
        if (!(fields >> token) || !parse_double(token, value))
          return R::failure(at_line(number) + "vertex coordinate " + std::to_string(c + 1) + " is not a finite number");
        vertices.push_back(value);
      }
    } else if (kind == "f") {
      std::vector<long> indices;
      std::string token;
      while (fields >> token) {
        const std::string first = token.substr(0, token.find('/'));
        char* end = nullptr;
        const long index = std::strtol(first.c_str(), &end, 10);
        if (first.empty() || *end != '\0' || index == 0)
          return R::failure(at_line(number) + "face index '" + token + "' is not a non-zero integer");
        indices.push_back(index);
      }
      if (indices.size() < 3 || indices.size() > 4)
        return R::failure(at_line(number) + "faces must have 3 or 4 vertices (got " + std::to_string(indices.size()) + ")");
      faces.push_back({number, indices});
    }
  }
  const long n = static_cast<long>(vertices.size() / 3);
  if (n < 3) return R::failure("needs at least 3 vertices");
  if (faces.empty()) return R::failure("has no faces");
  Mesh mesh;
  mesh.positions.resize(n, 3);
  for (long k = 0; k < n; ++k)
    for (int c = 0; c < 3; ++c) mesh.positions(k, c) = vertices[3 * k + c];
  for (const auto& [face_line, indices] : faces) {
    Face face;
    for (std::size_t i = 0; i < indices.size(); ++i) {
      const long index = indices[i] > 0 ? indices[i] - 1 : n + indices[i];
      if (index < 0 || index >= n)
        return R::failure(at_line(face_line) + "face index " + std::to_string(indices[i]) + " out of range (" +
                          std::to_string(n) + " vertices)");
      face.v[i] = static_cast<int>(index);
    }
    mesh.faces.push_back(face);
  }
  return R::success(std::move(mesh));
}

Result<Positions> parse_boundary_csv(const std::string& text) {
  using R = Result<Positions>;
  std::vector<double> values;
  std::stringstream in(text);
  std::string line;
  long number = 0;
  bool header_allowed = true;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1 && line.compare(0, 3, "\xEF\xBB\xBF") == 0) line.erase(0, 3);  // UTF-8 byte-order mark
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    const std::vector<std::string> fields = split(line, ',');
    double xyz[3];
    bool numeric = fields.size() == 3;
    for (int c = 0; numeric && c < 3; ++c) numeric = parse_double(fields[c], xyz[c]);
    if (!numeric) {
      if (header_allowed) {
        header_allowed = false;
        continue;
      }
      return R::failure(at_line(number) + "expected three finite numbers x,y,z");
    }
    header_allowed = false;
    values.insert(values.end(), xyz, xyz + 3);
  }
  const Eigen::Index n = static_cast<Eigen::Index>(values.size() / 3);
  if (n < 4) return R::failure("boundary CSV: needs at least 4 points (got " + std::to_string(n) + ")");
  Positions points(n, 3);
  for (Eigen::Index k = 0; k < n; ++k)
    for (int c = 0; c < 3; ++c) points(k, c) = values[3 * k + c];
  return R::success(std::move(points));
}

Result<Positions> parse_trajectory_frame(const std::string& text, long frame, int node_count) {
  using R = Result<Positions>;
  Positions positions = Positions::Zero(node_count, 3);
  std::vector<char> seen(node_count, 0);
  int found = 0;
  long last_frame = -1;
  std::stringstream in(text);
  std::string line;
  long number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (number == 1 && line.rfind("frame", 0) == 0) continue;
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line, ',');
    if (fields.size() != 6) return R::failure(at_line(number) + "expected 6 fields frame,time,node,x,y,z");
    char* end = nullptr;
    const long f = std::strtol(fields[0].c_str(), &end, 10);
    if (fields[0].empty() || *end != '\0') return R::failure(at_line(number) + "frame is not an integer");
    last_frame = std::max(last_frame, f);
    if (f != frame) continue;
    const long node = std::strtol(fields[2].c_str(), &end, 10);
    if (fields[2].empty() || *end != '\0' || node < 0 || node >= node_count)
      return R::failure(at_line(number) + "node must be an integer in [0, " + std::to_string(node_count) + ")");
    if (seen[node]) return R::failure(at_line(number) + "node " + std::to_string(node) + " repeated in frame " + std::to_string(frame));
    for (int c = 0; c < 3; ++c) {
      double value = 0;
      if (!parse_double(fields[3 + c], value))
        return R::failure(at_line(number) + "field " + std::string(1, "xyz"[c]) + " is not a finite number");
      positions(node, c) = value;
    }
    seen[node] = 1;
    ++found;
  }
  if (found == 0)
    return R::failure("trajectory: no rows for frame " + std::to_string(frame) + " (last frame is " + std::to_string(last_frame) + ")");
  if (found != node_count)
    return R::failure("trajectory: frame " + std::to_string(frame) + " has " + std::to_string(found) + " of the mesh's " +
                      std::to_string(node_count) + " nodes");
  return R::success(std::move(positions));
}

}  // namespace tela
