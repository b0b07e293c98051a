// A fit problem from the page's recording bytes and options JSON (bind_fit_page.cpp's
// FitPageJob). Conversions only.
#pragma once

#include "fit/fit_problem.h"
#include "mocap/parse_recording.h"
#include "scenario/json.h"
#include "scenario/scenes.h"

#include <nlohmann/json.hpp>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tela {

// options JSON (every key optional): {"format", "units", "up", "scene", "scenario", "rho",
// "kappa", "dt", "cols", "rows", "order": [...], "held": [a, b], "exclude": [...], "refine",
// "width", "height", "duration", "held_smoothing", "taut_tolerance"}. "scene" names a built-in
// scene, "scenario" is a scenario file's text (the page's current Simulate scenario); either
// one's obstacles (a contact fit: mu becomes fittable), rho and solver settings are used, as
// `tela fit --scenario NAME|FILE`; "rho" and "dt" override them. Returns an error message or "".
inline std::string read_problem_options(const std::string& text, RecordingParseOptions& parse, FitProblemOptions& options) {
  if (text.empty()) return {};
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "options: not a JSON object";
  // A key that is present must hold a usable value: the page passes what the user typed, and
  // a width of 0 or a rho of -1 is refused here rather than read as "automatic" / the default.
  std::string error;
  auto fail = [&](const char* key, const char* what) {
    if (error.empty()) error = std::string(key) + ": must be " + what + " (got " + j[key].dump() + ")";
  };
  auto str = [&](const char* key, std::string& out) {
    if (!j.contains(key)) return;
    if (j[key].is_string()) out = j[key].get<std::string>();
    else fail(key, "text");
  };
  // a finite number; > 0 when `what` names the range (rho, kappa, dt: the fit problem names
  // their ranges)
  auto num = [&](const char* key, double& out, const char* what = nullptr) {
    if (!j.contains(key)) return;
    const bool finite = j[key].is_number() && std::isfinite(j[key].get<double>());
    if (!finite || (what && !(j[key].get<double>() > 0))) return fail(key, what ? what : "a number");
    out = j[key].get<double>();
  };
  auto integer = [&](const char* key, int& out, int lowest) {
    if (!j.contains(key)) return;
    if (!j[key].is_number_integer() || j[key].get<long long>() < lowest || j[key].get<long long>() > 1000000)
      return fail(key, ("a whole number >= " + std::to_string(lowest)).c_str());
    out = j[key].get<int>();
  };
  auto names = [&](const char* key, std::vector<std::string>& out) {
    if (!j.contains(key)) return;
    if (!j[key].is_array()) return fail(key, "a list of marker names");
    for (const auto& item : j[key]) {
      if (!item.is_string()) return fail(key, "a list of marker names");
      out.push_back(item.get<std::string>());
    }
  };
  std::string scene, scenario_text;
  str("scene", scene);
  str("scenario", scenario_text);
  if (!scene.empty() && !scenario_text.empty()) return "options: give a scene or a scenario, not both";
  std::optional<Scenario> scenario;
  if (!scene.empty()) {
    scenario = builtin_scene(scene);
    if (!scenario) return "scene: no built-in scene named '" + scene + "'";
  } else if (!scenario_text.empty()) {
    Result<Scenario> parsed = parse_scenario(scenario_text);
    if (!parsed.ok()) return "scenario: " + parsed.error;
    scenario = std::move(*parsed.value);
  }
  if (scenario) {
    options.rho = scenario->material.rho;
    options.solver = scenario->solver;
    options.obstacles = scenario->obstacles;
  }
  str("format", parse.format);
  str("units", parse.units);
  str("up", options.up);
  num("rho", options.rho);
  num("kappa", options.kappa);
  num("dt", options.solver.dt);
  integer("cols", options.grid.cols, 2);
  integer("rows", options.grid.rows, 2);
  names("order", options.grid.order);
  names("held", options.grid.held);
  names("exclude", options.grid.exclude);
  integer("refine", options.cloth.refine, 1);
  num("width", options.cloth.width, "a length > 0 in metres");
  num("height", options.cloth.height, "a length > 0 in metres");
  num("duration", options.duration, "a duration > 0 in seconds");
  integer("held_smoothing", options.held_smoothing, 1);
  num("taut_tolerance", options.taut_tolerance);
  return error;
}

// The recording parsed with the options and turned into a fit problem; `error` names what failed.
// recording_summary (optional): set to recording_summary_json when the file was read but no
// problem could be built from it
inline std::shared_ptr<const FitProblem> read_fit_problem(const std::string& bytes, const std::string& options_json,
                                                          std::string& error, std::string* recording_summary = nullptr) {
  RecordingParseOptions parse;
  FitProblemOptions options;
  error = read_problem_options(options_json, parse, options);
  if (!error.empty()) return nullptr;
  Result<Recording> recording = parse_recording(bytes, parse);
  if (!recording.ok()) {
    error = recording.error;
    return nullptr;
  }
  if (recording_summary) *recording_summary = recording_summary_json(*recording.value);
  Result<FitProblem> problem = make_fit_problem(std::move(*recording.value), options);
  if (!problem.ok()) {
    error = problem.error;
    return nullptr;
  }
  return std::make_shared<const FitProblem>(std::move(*problem.value));
}

}  // namespace tela
