// tela dgli STATE: the dGLI cloth coordinates of a cloth state (thesis ch. 7).
#include "cli.h"
#include "cloth_state.h"

#include "dgli/cloth_coordinates.h"
#include "base/json_text.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace tela::cli {

int run_dgli(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela dgli STATE.obj|boundary.csv|trajectory.csv [--frame K --scenario FILE|NAME] "
      "[--segments per_side|alternate|all] [--per-side K] [--layout spread|first_half] [--normalize]";
  if (wants_help(args)) return print_usage(usage);
  ClothStateSource source;
  CoordinateSettings settings;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    char* end = nullptr;
    if (a == "--frame" && has_value) {
      source.frame = std::strtol(args[++i].c_str(), &end, 10);
      if (args[i].empty() || *end != '\0' || source.frame < 0) return bad_input("--frame: needs a whole number >= 0");
    } else if (a == "--scenario" && has_value) source.scenario = args[++i];
    else if (a == "--segments" && has_value) {
      if (!parse_segment_choice(args[++i], settings.choice)) return bad_input("--segments: per_side, alternate or all");
    } else if (a == "--per-side" && has_value) {
      settings.per_side = static_cast<int>(std::strtol(args[++i].c_str(), &end, 10));
      if (*end != '\0' || settings.per_side < 1 || settings.per_side > 100)
        return bad_input("--per-side: needs a whole number in [1, 100]");
    } else if (a == "--layout" && has_value) {
      if (!parse_side_layout(args[++i], settings.layout)) return bad_input("--layout: spread or first_half");
    } else if (a == "--normalize") settings.normalize_by_perimeter = true;
    else if (a.rfind("--", 0) == 0) return bad_input("unknown or incomplete option '" + a + "'; " + usage);
    else if (source.path.empty()) source.path = a;
    else return bad_input("unexpected argument '" + a + "'; " + usage);
  }
  if (source.path.empty()) return bad_input(usage);
  std::string kind;
  Result<BoundaryCurve> curve = load_cloth_state(source, kind);
  if (!curve.ok()) return bad_input(curve.error);
  Result<DgliCoordinates> coordinates = cloth_coordinates(*curve.value, settings);
  if (!coordinates.ok()) return bad_input(source.path + ": " + coordinates.error);
  const DgliCoordinates& c = *coordinates.value;

  nlohmann::json out;
  out["state"] = kind;
  out["boundary_points"] = curve.value->points.rows();
  out["corners_found"] = curve.value->corners.size();
  out["segment_choice"] = to_string(settings.choice);
  if (settings.choice == SegmentChoice::per_side) {
    out["per_side"] = settings.per_side;
    out["layout"] = to_string(settings.layout);
  }
  out["normalized_by_perimeter"] = settings.normalize_by_perimeter;
  out["perimeter"] = c.perimeter;
  nlohmann::json segments = nlohmann::json::array();
  for (const Segment& s : c.segments) segments.push_back({s[0].x(), s[0].y(), s[0].z(), s[1].x(), s[1].y(), s[1].z()});
  out["segments"] = segments;
  out["count"] = c.values.size();
  out["coordinates"] = c.values;
  nlohmann::json undefined = nlohmann::json::array();
  const int m = static_cast<int>(c.segments.size());
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j) {
      const PairStatus status = c.status[upper_index(i, j, m)];
      if (status != PairStatus::ok) undefined.push_back({{"i", i}, {"j", j}, {"status", to_string(status)}});
    }
  out["undefined"] = undefined;
  // a mesh's other boundary loops (holes, separate pieces) are not in the coordinates
  if (curve.value->ignored_loops > 0) out["ignored_boundary_loops"] = curve.value->ignored_loops;
  std::printf("%s\n", json_text(out).c_str());
  return 0;
}

}  // namespace tela::cli
