// tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--voxel S] [--remove-planes K]:
// the Morse-theory reconstruction of a point cloud (thesis ch. 5). Reads XYZ/CSV/TXT text
// (three or more numeric columns, comma or whitespace separated, '#' comments and non-numeric
// header lines skipped) until the pointcloud module's parsers (PLY, PCD, OBJ) are merged;
// --voxel and --remove-planes need that module and are refused until then.
#include "cli.h"

#include "morse/reconstruction.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tela::cli {
namespace {

bool parse_number(const std::string& text, double& value) {
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end != text.c_str() && *end == '\0' && std::isfinite(value);
}

Result<Positions> parse_xyz(const std::string& text) {
  std::vector<double> values;
  std::istringstream lines(text);
  std::string line;
  int line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    for (char& c : line)
      if (c == ',' || c == ';' || c == '\t' || c == '\r') c = ' ';
    std::istringstream fields(line);
    std::string field;
    std::vector<double> row;
    bool numeric = true;
    while (fields >> field) {
      if (field[0] == '#') break;
      double v = 0;
      if (!parse_number(field, v)) {
        numeric = false;
        break;
      }
      row.push_back(v);
    }
    if (row.empty()) continue;
    if (!numeric) {
      if (values.empty()) continue;  // a header line
      return Result<Positions>::failure("line " + std::to_string(line_number) + ": '" + field + "' is not a number");
    }
    if (row.size() < 3)
      return Result<Positions>::failure("line " + std::to_string(line_number) + ": " + std::to_string(row.size()) +
                                        " column(s); x, y, z are needed");
    values.insert(values.end(), row.begin(), row.begin() + 3);
  }
  if (values.empty()) return Result<Positions>::failure("no points found (expected lines of x y z)");
  Positions points(static_cast<Eigen::Index>(values.size() / 3), 3);
  for (Eigen::Index i = 0; i < points.rows(); ++i)
    for (int a = 0; a < 3; ++a) points(i, a) = values[3 * i + a];
  return Result<Positions>::success(std::move(points));
}

}  // namespace

int run_reconstruct(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--voxel S] [--remove-planes K] [--seed N]";
  std::string path;
  morse::ReconstructOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--direction" && has_value) {
      std::string text = args[++i];
      for (char& c : text)
        if (c == ',') c = ' ';
      std::istringstream in(text);
      std::string part;
      std::vector<double> d;
      while (in >> part) {
        double v = 0;
        if (!parse_number(part, v)) return bad_input("--direction: '" + part + "' is not a number");
        d.push_back(v);
      }
      if (d.size() != 3) return bad_input("--direction: needs three numbers x,y,z");
      options.direction = Eigen::Vector3d(d[0], d[1], d[2]);
    } else if (a == "--levels" && has_value) {
      double v = 0;
      if (!parse_number(args[++i], v) || v != std::floor(v) || v < 2 || v > 10000)
        return bad_input("--levels: needs a whole number between 2 and 10000");
      options.levels = static_cast<int>(v);
    } else if (a == "--seed" && has_value) {
      double v = 0;
      if (!parse_number(args[++i], v) || v != std::floor(v) || v < 0) return bad_input("--seed: needs a whole number >= 0");
      options.seed = static_cast<std::uint64_t>(v);
    } else if ((a == "--voxel" || a == "--remove-planes") && has_value) {
      return bad_input(a + ": cloud cleaning is not available in this build (it comes with the pointcloud module)");
    } else if (a.rfind("--", 0) == 0) {
      return bad_input("unknown or incomplete option '" + a + "'; " + usage);
    } else if (path.empty()) {
      path = a;
    } else {
      return bad_input("unexpected argument '" + a + "'; " + usage);
    }
  }
  if (path.empty()) return bad_input(usage);
  Result<std::string> text = read_file(path);
  if (!text.ok()) return bad_input(text.error);
  Result<Positions> points = parse_xyz(*text.value);
  if (!points.ok()) return bad_input(path + ": " + points.error);
  options.resample = true;
  Result<morse::Reconstruction> result = morse::reconstruct(*points.value, options);
  if (!result.ok()) return bad_input(path + ": " + result.error);
  const morse::Reconstruction& r = *result.value;
  nlohmann::json critical = nlohmann::json::object();
  for (int t = 0; t < morse::kCriticalTypeCount; ++t)
    critical[morse::to_string(static_cast<morse::CriticalType>(t))] = r.critical.count(static_cast<morse::CriticalType>(t));
  const morse::Topology& topology = r.topology;
  nlohmann::json out = {
      {"points_used", r.points.rows()},
      {"direction", {r.direction(0), r.direction(1), r.direction(2)}},
      {"levels", r.slicing.slab_count},
      {"critical_points", critical},
      {"cells", {topology.cells[0], topology.cells[1], topology.cells[2]}},
      {"euler", topology.euler},
      {"morse_sum", topology.morse_sum},
      {"boundary_components", topology.boundary_components},
      {"connected_components", topology.connected_components},
      {"genus", topology.genus},
      {"orientable", topology.orientable},
      {"mesh_nodes", r.mesh ? r.mesh->node_count() : 0},
      {"warnings", r.warnings},
  };
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

}  // namespace tela::cli
