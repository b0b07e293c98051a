// tela classify STATE [--database FILE]: the class of a cloth state by its dGLI coordinates
// (nearest class representative, runner-up, and k nearest database states).
#include "cli.h"
#include "cloth_state.h"

#include "dgli/database_json.h"
#include "dgli/dgli_classifier.h"
#include "base/json_text.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace tela::cli {

int run_classify(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela classify STATE.obj|boundary.csv|trajectory.csv [--frame K --scenario FILE|NAME] "
      "[--database FILE (default public/dgli/database.json)] [--k K (default 1)]";
  if (wants_help(args)) return print_usage(usage);
  ClothStateSource source;
  std::string database_path = "public/dgli/database.json";
  int k = 1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    char* end = nullptr;
    if (a == "--frame" && has_value) {
      source.frame = std::strtol(args[++i].c_str(), &end, 10);
      if (args[i].empty() || *end != '\0' || source.frame < 0) return bad_input("--frame: needs a whole number >= 0");
    } else if (a == "--scenario" && has_value) source.scenario = args[++i];
    else if (a == "--database" && has_value) database_path = args[++i];
    else if (a == "--k" && has_value) {
      k = static_cast<int>(std::strtol(args[++i].c_str(), &end, 10));
      if (*end != '\0' || k < 1 || k > 1000) return bad_input("--k: needs a whole number in [1, 1000]");
    } else if (a.rfind("--", 0) == 0) return bad_input("unknown or incomplete option '" + a + "'; " + usage);
    else if (source.path.empty()) source.path = a;
    else return bad_input("unexpected argument '" + a + "'; " + usage);
  }
  if (source.path.empty()) return bad_input(usage);
  Result<std::string> text = read_file(database_path);
  if (!text.ok()) return bad_input("--database: " + text.error + " (run from the repository root or pass --database)");
  Result<DgliDatabase> db = parse_database(*text.value);
  if (!db.ok()) return bad_input(database_path + ": " + db.error);
  std::string kind;
  Result<BoundaryCurve> curve = load_cloth_state(source, kind);
  if (!curve.ok()) return bad_input(curve.error);
  Result<DgliCoordinates> coordinates = cloth_coordinates(*curve.value, db.value->settings);
  if (!coordinates.ok()) return bad_input(source.path + ": " + coordinates.error);
  if (coordinates.value->values.size() != db.value->representatives.front().coordinates.size())
    return bad_input("the state gives " + std::to_string(coordinates.value->values.size()) +
                     " coordinates, the database has " +
                     std::to_string(db.value->representatives.front().coordinates.size()));
  const Classification c = classify_coordinates(*db.value, coordinates.value->values, k);
  const std::vector<std::string>& names = db.value->classes;
  nlohmann::json out;
  out["state"] = kind;
  // first the k nearest database states (k = 1: the nearest state), then the thesis's nearest
  // class representative
  out["class"] = names[c.knn_label];
  out["distance"] = c.knn_label_distance;
  out["runner_up"] = c.state_runner_up >= 0 ? nlohmann::json(names[c.state_runner_up]) : nlohmann::json(nullptr);
  out["runner_up_distance"] = c.state_runner_up >= 0 ? nlohmann::json(c.state_runner_up_distance) : nlohmann::json(nullptr);
  out["k"] = k;
  out["knn_votes"] = c.knn_votes;
  out["representative"] = {
      {"class", names[c.label]},
      {"distance", c.distance},
      {"runner_up", c.runner_up >= 0 ? nlohmann::json(names[c.runner_up]) : nlohmann::json(nullptr)},
      {"runner_up_distance", c.runner_up >= 0 ? nlohmann::json(c.runner_up_distance) : nlohmann::json(nullptr)}};
  // unlike every state of the database (nearest state farther than the database's reach)
  out["novel"] = c.novel;
  out["nearest_state_distance"] = c.nearest_state_distance;
  out["database_reach"] = db.value->reach;
  out["undefined_pairs"] = coordinates.value->undefined;
  // a mesh's other boundary loops (holes, separate pieces) are not in the coordinates
  if (curve.value->ignored_loops > 0) out["ignored_boundary_loops"] = curve.value->ignored_loops;
  std::printf("%s\n", json_text(out).c_str());
  return 0;
}

}  // namespace tela::cli
