// A fit problem from the page's recording bytes and options JSON (bind_fit_page.cpp's
// FitPageJob). Conversions only.
#pragma once

#include "fit/fit_job.h"
#include "fit/fit_problem.h"
#include "mocap/parse_recording.h"
#include "scenario/json.h"
#include "base/json_keys.h"
#include "scenario/scenes.h"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
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
  const std::string unknown =
      unknown_key_error(j, "options", {"format", "units", "up", "scene", "scenario", "rho", "kappa", "dt", "cols", "rows",
                                       "order", "held", "exclude", "refine", "width", "height", "duration",
                                       "held_smoothing", "taut_tolerance"});
  if (!unknown.empty()) return unknown;
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

// settings JSON (every key optional): {"grid", "refine_evaluations", "split": "whole"|"half",
// "repetition": 1|2, "start": [delta / rho, alpha / rho(, mu)], "start_mu", "mu_grid", "mu_max"},
// with the ranges of `tela fit`'s flags (--grid, --refine-evaluations, --split, --repetition,
// --params, --start-mu, --mu-grid, --mu-max). "start_mu" is the starting mu alone (the page's
// field; the start's delta and alpha then stay the Table 4.6 guess), for scenes with obstacles,
// and not together with a start that holds a mu. As for the options, a key that is present
// must hold a usable value: a grid of 1, a start outside the searched box or a mu_max of 0 is
// refused, naming the key, rather than clamped or replaced by the default. Returns an error
// message or "".
inline std::string read_fit_settings(const std::string& text, const FitProblem& problem, FitSettings& s) {
  s = FitSettings{};
  s.threads = 1;  // the page runs one simulation per worker
  if (text.empty()) return {};
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "settings: not a JSON object";
  const std::string unknown = unknown_key_error(
      j, "settings", {"grid", "refine_evaluations", "split", "repetition", "start", "start_mu", "mu_grid", "mu_max"});
  if (!unknown.empty()) return unknown;
  std::string error;
  auto fail = [&](const char* key, const std::string& what) {
    if (error.empty()) error = std::string(key) + ": must be " + what + " (got " + j[key].dump() + ")";
  };
  // a whole number in [0, max], not 1 when `one_allowed` is false (a grid of one point)
  auto count = [&](const char* key, int& out, int max, bool one_allowed, const std::string& what) {
    if (!j.contains(key)) return;
    const nlohmann::json& v = j[key];
    const bool whole = v.is_number_unsigned() || (v.is_number_integer() && v.get<long long>() >= 0);
    if (!whole || v.get<unsigned long long>() > static_cast<unsigned long long>(max) ||
        (!one_allowed && v.get<unsigned long long>() == 1))
      return fail(key, what);
    out = v.get<int>();
  };
  const std::string grid_max = std::to_string(kMaxFitGrid);
  count("grid", s.grid, kMaxFitGrid, false, "a whole number of points per axis, 0 (no sweep) or 2 to " + grid_max);
  count("refine_evaluations", s.refine_evaluations, kMaxRefineEvaluations, true,
        "a whole number of evaluations from 0 to " + std::to_string(kMaxRefineEvaluations));
  count("mu_grid", s.mu_grid, kMaxFitGrid, false, "a whole number of mu values, 0 (mu fixed) or 2 to " + grid_max);
  if (j.contains("repetition")) {
    if (j["repetition"] != 1 && j["repetition"] != 2) fail("repetition", "1 (hanger) or 2 (bare hands)");
    else s.a_priori_repetition = j["repetition"].get<int>();
  }
  if (j.contains("split")) {
    if (j["split"] == "half") split_half(s, problem.steps * problem.dt);
    else if (j["split"] != "whole") fail("split", "\"whole\" or \"half\"");
  }
  if (j.contains("mu_max")) {
    const nlohmann::json& v = j["mu_max"];
    if (!v.is_number() || !(v.get<double>() > 0 && v.get<double>() <= kMaxFitMu))
      fail("mu_max", "the largest friction coefficient tried, in (0, 100]");
    else s.mu_max = v.get<double>();
  }
  if (j.contains("start")) {
    const nlohmann::json& v = j["start"];
    const bool numbers = v.is_array() && (v.size() == 2 || v.size() == 3) &&
                         std::all_of(v.begin(), v.end(), [](const nlohmann::json& x) {
                           return x.is_number() && std::isfinite(x.get<double>()) && x.get<double>() >= 0;
                         });
    if (!numbers) {
      fail("start", "[delta / rho, alpha / rho] or [delta / rho, alpha / rho, mu], numbers >= 0");
    } else if (v[0].get<double>() > s.delta_ratio_max || v[1].get<double>() > s.alpha_ratio_max) {
      // the fit searches [0, max] x [0, max] (thesis §4.2.2): a start outside would be moved to
      // the box's edge without a word (tela fit --params refuses it too)
      char box[160];
      std::snprintf(box, sizeof box, "a point of the searched box delta / rho in [0, %g], alpha / rho in [0, %g] (thesis §4.2.2)",
                    s.delta_ratio_max, s.alpha_ratio_max);
      fail("start", box);
    } else if (v.size() == 3 && problem.obstacles.empty()) {
      fail("start", "[delta / rho, alpha / rho]: a mu needs obstacles to act on (choose a scene with obstacles)");
    } else {
      s.has_start = true;
      s.start_delta_ratio = v[0].get<double>();
      s.start_alpha_ratio = v[1].get<double>();
      if (v.size() == 3) s.start_mu = v[2].get<double>();
    }
  }
  if (j.contains("start_mu")) {
    const nlohmann::json& v = j["start_mu"];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
      fail("start_mu", "the friction coefficient the fit starts from, a number >= 0");
    else if (problem.obstacles.empty())
      fail("start_mu", "left out: a mu needs obstacles to act on (choose a scene with obstacles)");
    else if (std::isfinite(s.start_mu))
      fail("start_mu", "left out when start holds a mu (the third number of start)");
    else
      s.start_mu = v.get<double>();
  }
  const double mu = starting_mu(s, problem.obstacles);
  if (error.empty() && fits_mu(s, problem.obstacles) && mu > s.mu_max) {
    char text[240];
    if (j.contains("start_mu"))
      std::snprintf(text, sizeof text, "start_mu: %g lies above mu_max %g (mu is fitted in [0, mu_max]); give a smaller mu or raise mu_max", mu, s.mu_max);
    else if (std::isfinite(s.start_mu))
      std::snprintf(text, sizeof text, "start: its mu %g lies above mu_max %g (mu is fitted in [0, mu_max]); give a smaller mu or raise mu_max", mu, s.mu_max);
    else
      std::snprintf(text, sizeof text, "mu_max: %g is below the first obstacle's friction coefficient %g, the fit's starting mu (mu is fitted in [0, mu_max]); raise mu_max or give a starting mu", s.mu_max, mu);
    error = text;
  }
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
