// Scenario file version 1 -> Scenario: the syntax pass (base/json_syntax.h), then the top-level
// keys here and each section by its parser (scenario/parse_sections.h). nlohmann-json never
// throws here (the wasm build has no exceptions): the text is parsed with allow_exceptions =
// false after the syntax pass, and every value is read through base/json_read.h.
#include "scenario/json.h"

#include "base/json_read.h"
#include "base/json_syntax.h"
#include "base/json_text.h"
#include "scenario/parse_sections.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace tela {
namespace {

using json = nlohmann::json;

bool parse_metrics(const json& j, std::vector<std::string>& out, std::string& error) {
  if (!require_array(j, "metrics", error)) return false;
  std::vector<std::string> metrics;
  for (std::size_t i = 0; i < j.size(); ++i) {
    std::string metric;
    if (!enum_value(j[i], element_path("metrics", i), {"drape_coefficient", "free_corner"}, metric, error)) {
      return false;
    }
    for (const std::string& previous : metrics) {
      if (previous == metric) {
        error = element_path("metrics", i) + ": \"" + metric + "\" is listed twice";
        return false;
      }
    }
    metrics.push_back(metric);
  }
  out = std::move(metrics);
  return true;
}

bool parse_seed(const json& j, std::uint64_t& seed, std::string& error) {
  if (j.is_number_unsigned()) {
    seed = j.get<std::uint64_t>();
    return true;
  }
  if (j.is_number_integer()) {
    error = "seed: must be >= 0 (got " + std::to_string(j.get<std::int64_t>()) + ")";
    return false;
  }
  double v = 0;
  if (!number_value(j, "seed", kNonNegative, v, error)) return false;
  if (v != std::floor(v) || v >= 18446744073709551616.0) {
    error = "seed: must be an integer in [0, 2^64) (got " + format_number(v) + ")";
    return false;
  }
  seed = static_cast<std::uint64_t>(v);
  return true;
}

bool parse_root(const json& root, Scenario& s, std::string& error) {
  if (!root.is_object()) {
    error = "scenario: must be a JSON object" + got_type(root);
    return false;
  }
  const json* version = find_member(root, "version");
  if (version == nullptr) {
    error = "version: required (this tela reads scenario files of version 1)";
    return false;
  }
  if (!version->is_number()) {
    error = "version: must be an integer" + got_type(*version);
    return false;
  }
  if (version->get<double>() != 1.0) {
    error = "version: unsupported scenario version " + json_text(*version) +
            " (this tela reads version 1)";
    return false;
  }
  s.version = 1;
  if (!check_keys(root, "", {"version", "name", "description", "mesh", "material", "solver",
                             "duration", "controls", "metrics", "seed", "obstacles",
                             "self_collision"}, error) ||
      !read_string(root, "name", "", s.name, error) ||
      !read_string(root, "description", "", s.description, error)) {
    return false;
  }
  const json* mesh = find_member(root, "mesh");
  if (mesh == nullptr) {
    error = "mesh: required";
    return false;
  }
  if (!parse_mesh(*mesh, s.mesh, error)) return false;
  if (const json* j = find_member(root, "material"); j && !parse_material(*j, s.material, error)) return false;
  if (const json* j = find_member(root, "solver"); j && !parse_solver(*j, s.solver, error)) return false;
  if (!read_number(root, "duration", "", NumberRange{0.0, 3600.0, true, false}, s.duration, error)) {
    return false;
  }
  if (const json* j = find_member(root, "controls");
      j && !parse_controls(*j, known_node_count(s.mesh), s.controls, error)) {
    return false;
  }
  if (const json* j = find_member(root, "metrics"); j && !parse_metrics(*j, s.metrics, error)) return false;
  if (const json* j = find_member(root, "seed"); j && !parse_seed(*j, s.seed, error)) return false;
  if (const json* j = find_member(root, "obstacles"); j && !parse_obstacles(*j, s.obstacles, error)) return false;
  if (const json* j = find_member(root, "self_collision");
      j && !parse_self_collision(*j, s.self_collision, error)) {
    return false;
  }
  return true;
}

}  // namespace

Result<Scenario> parse_scenario(const std::string& json_text) {
  if (std::string error = json_syntax_error(json_text); !error.empty()) return Result<Scenario>::failure(error);
  const json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Result<Scenario>::failure("invalid JSON");
  Scenario scenario;
  std::string error;
  if (!parse_root(root, scenario, error)) return Result<Scenario>::failure(error);
  return Result<Scenario>::success(std::move(scenario));
}

}  // namespace tela
