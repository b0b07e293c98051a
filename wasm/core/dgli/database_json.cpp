#include "dgli/database_json.h"

#include "base/json_syntax.h"
#include "base/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <utility>

namespace tela {

std::string database_to_json(const DgliDatabase& db, int digits) {
  using nlohmann::json;
  const double scale = std::pow(10.0, digits);
  auto states_json = [&](const std::vector<ReferenceState>& states, bool with_group) {
    json list = json::array();
    for (const ReferenceState& s : states) {
      json values = json::array();
      for (double v : s.coordinates) values.push_back(std::round(v * scale) / scale + 0.0);  // + 0.0: no "-0.0"
      json item = {{"class", s.label}, {"source", s.source}, {"coordinates", values}};
      if (with_group) item["group"] = s.group;
      list.push_back(item);
    }
    return list;
  };
  json j;
  j["format"] = "tela-dgli-database";
  j["version"] = 1;
  j["provenance"] = db.provenance;
  j["settings"] = {{"segments", to_string(db.settings.choice)},
                   {"per_side", db.settings.per_side},
                   {"layout", to_string(db.settings.layout)},
                   {"sides", db.settings.sides},
                   {"normalize_by_perimeter", db.settings.normalize_by_perimeter},
                   {"rotations", db.rotations},
                   {"distance", to_string(db.distance)}};
  if (db.distance == StateDistance::saturated) j["settings"]["saturation"] = db.saturation;
  j["classes"] = db.classes;
  j["representatives"] = states_json(db.representatives, true);
  j["states"] = states_json(db.states, false);
  return json_text(j);
}

Result<DgliDatabase> parse_database(const std::string& text) {
  using nlohmann::json;
  using R = Result<DgliDatabase>;
  if (const std::string error = json_syntax_error(text); !error.empty()) return R::failure("database: " + error);
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return R::failure("database: not valid JSON");
  // (j.value() would abort on a "format" that is not a string: the core has no exceptions)
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != "tela-dgli-database")
    return R::failure("database: format must be \"tela-dgli-database\"");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    return R::failure("database.version: must be 1");
  DgliDatabase db;
  if (j.contains("provenance") && j["provenance"].is_string()) db.provenance = j["provenance"].get<std::string>();
  if (!j.contains("settings") || !j["settings"].is_object()) return R::failure("database.settings: missing");
  const json& s = j["settings"];
  if (!s.contains("segments") || !s["segments"].is_string() ||
      !parse_segment_choice(s["segments"].get<std::string>(), db.settings.choice))
    return R::failure("database.settings.segments: must be all, alternate or per_side");
  if (!s.contains("per_side") || !s["per_side"].is_number_integer() || s["per_side"].get<int>() < 1)
    return R::failure("database.settings.per_side: must be an integer >= 1");
  db.settings.per_side = s["per_side"].get<int>();
  if (!s.contains("layout") || !s["layout"].is_string() ||
      !parse_side_layout(s["layout"].get<std::string>(), db.settings.layout))
    return R::failure("database.settings.layout: must be spread or first_half");
  if (!s.contains("sides") || !s["sides"].is_number_integer() || s["sides"].get<int>() < 1)
    return R::failure("database.settings.sides: must be an integer >= 1");
  db.settings.sides = s["sides"].get<int>();
  if (!s.contains("normalize_by_perimeter") || !s["normalize_by_perimeter"].is_boolean())
    return R::failure("database.settings.normalize_by_perimeter: must be true or false");
  db.settings.normalize_by_perimeter = s["normalize_by_perimeter"].get<bool>();
  if (!s.contains("rotations") || !s["rotations"].is_number_integer() || s["rotations"].get<int>() < 1)
    return R::failure("database.settings.rotations: must be an integer >= 1");
  db.rotations = s["rotations"].get<int>();
  if (s.contains("distance") &&
      (!s["distance"].is_string() || !parse_state_distance(s["distance"].get<std::string>(), db.distance)))
    return R::failure("database.settings.distance: must be euclidean, direction_log_norm or saturated");
  if (s.contains("saturation")) {
    if (!s["saturation"].is_number() || !(s["saturation"].get<double>() > 0) ||
        !std::isfinite(s["saturation"].get<double>()))
      return R::failure("database.settings.saturation: must be a number > 0");
    db.saturation = s["saturation"].get<double>();
  }
  if (!j.contains("classes") || !j["classes"].is_array() || j["classes"].empty())
    return R::failure("database.classes: must be a non-empty array of names");
  for (const json& c : j["classes"]) {
    if (!c.is_string()) return R::failure("database.classes: every class name must be a string");
    db.classes.push_back(c.get<std::string>());
  }
  std::size_t dim = 0;
  auto read_states = [&](const char* key, std::vector<ReferenceState>& out, std::string& error) {
    if (!j.contains(key) || !j[key].is_array()) {
      error = std::string("database.") + key + ": must be an array";
      return false;
    }
    for (std::size_t i = 0; i < j[key].size(); ++i) {
      const json& item = j[key][i];
      const std::string at = std::string("database.") + key + "[" + std::to_string(i) + "]";
      if (!item.is_object() || !item.contains("class") || !item["class"].is_number_integer() ||
          item["class"].get<int>() < 0 || item["class"].get<int>() >= static_cast<int>(db.classes.size())) {
        error = at + ".class: must be a class index in [0, " + std::to_string(db.classes.size()) + ")";
        return false;
      }
      ReferenceState state;
      state.label = item["class"].get<int>();
      if (item.contains("group") && item["group"].is_number_integer()) state.group = item["group"].get<int>();
      if (item.contains("source") && item["source"].is_string()) state.source = item["source"].get<std::string>();
      if (!item.contains("coordinates") || !item["coordinates"].is_array()) {
        error = at + ".coordinates: must be an array of numbers";
        return false;
      }
      for (const json& v : item["coordinates"]) {
        if (!v.is_number() || !std::isfinite(v.get<double>())) {
          error = at + ".coordinates: must hold finite numbers";
          return false;
        }
        state.coordinates.push_back(v.get<double>());
      }
      if (state.coordinates.empty()) {
        error = at + ".coordinates: empty (a state needs its dGLI coordinates)";
        return false;
      }
      if (dim == 0) dim = state.coordinates.size();
      if (state.coordinates.size() != dim) {
        error = at + ".coordinates: expected " + std::to_string(dim) + " values, got " +
                std::to_string(state.coordinates.size());
        return false;
      }
      out.push_back(std::move(state));
    }
    return true;
  };
  std::string error;
  if (!read_states("representatives", db.representatives, error)) return R::failure(error);
  if (db.representatives.empty()) return R::failure("database.representatives: must not be empty");
  if (!read_states("states", db.states, error)) return R::failure(error);
  // the k nearest states give the class (classify_coordinates): none leaves no answer
  if (db.states.empty()) return R::failure("database.states: must not be empty");
  // per-side segments fix the count: m = per_side x sides segments give m (m - 1) / 2 values
  // (the other choices depend on the boundary's points)
  if (db.settings.choice == SegmentChoice::per_side) {
    const long long m = static_cast<long long>(db.settings.per_side) * db.settings.sides;
    if (static_cast<long long>(dim) != m * (m - 1) / 2)
      return R::failure("database.settings: per_side " + std::to_string(db.settings.per_side) + " x sides " +
                        std::to_string(db.settings.sides) + " make " + std::to_string(m) + " segments, " +
                        std::to_string(m * (m - 1) / 2) + " coordinates, but the states hold " + std::to_string(dim));
  }
  index_states(db);
  return R::success(std::move(db));
}

}  // namespace tela
