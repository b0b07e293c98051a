// A fit problem from the page's recording bytes and options JSON, and the fit's settings from
// its settings JSON (bind_fit.cpp's FitPageJob): keys mapped onto the core's options and
// settings, values read by base/json_read.h; the core checks what it needs.
#pragma once

#include "base/json_read.h"
#include "base/json_text.h"
#include "fit/fit_problem.h"
#include "fit/fit_settings.h"
#include "mocap/parse_recording.h"
#include "scenario/json.h"
#include "scenario/scenes.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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
  std::string error;
  if (!check_keys(j, "options", {"format", "units", "up", "scene", "scenario", "rho", "kappa", "dt", "cols", "rows",
                                 "order", "held", "exclude", "refine", "width", "height", "duration",
                                 "held_smoothing", "taut_tolerance"}, error))
    return error;
  // A key that is present must hold a usable value: the page passes what the user typed, and
  // a width of 0 is refused here rather than read as "automatic" (rho, kappa, dt,
  // held_smoothing, taut_tolerance: make_fit_problem checks their ranges).
  std::string scene, scenario_text;
  if (!read_string_as(j, "scene", "", "text", scene, error) ||
      !read_string_as(j, "scenario", "", "text", scenario_text, error))
    return error;
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
  constexpr int kMaxCount = 1000000;
  const bool read =
      read_string_as(j, "format", "", "text", parse.format, error) &&
      read_string_as(j, "units", "", "text", parse.units, error) &&
      read_string_as(j, "up", "", "text", options.up, error) &&
      read_number_as(j, "rho", "", kAnyNumber, "a number", options.rho, error) &&
      read_number_as(j, "kappa", "", kAnyNumber, "a number", options.kappa, error) &&
      read_number_as(j, "dt", "", kAnyNumber, "a number", options.solver.dt, error) &&
      read_int_as(j, "cols", "", 2, kMaxCount, "a whole number >= 2", options.grid.cols, error) &&
      read_int_as(j, "rows", "", 2, kMaxCount, "a whole number >= 2", options.grid.rows, error) &&
      read_strings_as(j, "order", "", "a list of marker names", options.grid.order, error) &&
      read_strings_as(j, "held", "", "a list of marker names", options.grid.held, error) &&
      read_strings_as(j, "exclude", "", "a list of marker names", options.grid.exclude, error) &&
      read_int_as(j, "refine", "", 1, kMaxCount, "a whole number >= 1", options.cloth.refine, error) &&
      read_number_as(j, "width", "", kPositive, "a length > 0 in metres", options.cloth.width, error) &&
      read_number_as(j, "height", "", kPositive, "a length > 0 in metres", options.cloth.height, error) &&
      read_number_as(j, "duration", "", kPositive, "a duration > 0 in seconds", options.duration, error) &&
      read_int_as(j, "held_smoothing", "", 1, kMaxCount, "a whole number >= 1", options.held_smoothing, error) &&
      read_number_as(j, "taut_tolerance", "", kAnyNumber, "a number", options.taut_tolerance, error);
  return read ? std::string() : error;
}

// settings JSON (every key optional): {"grid", "refine_evaluations", "split": "whole"|"half",
// "repetition": 1|2, "start": [delta / rho, alpha / rho(, mu)], "start_mu", "mu_grid", "mu_max"},
// the keys of FitSettingsRequest (fit/fit_settings.h), which `tela fit`'s flags map onto too.
// "start_mu" is the starting mu alone (the page's field; the start's delta and alpha then stay
// the Table 4.6 guess). Each key present is handed over as given; make_fit_settings refuses a
// value the fit cannot use, naming the key. Returns an error message or "".
inline std::string read_fit_settings(const std::string& text, const FitProblem& problem, FitSettings& settings) {
  settings = FitSettings{};
  if (text.empty()) return {};
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "settings: not a JSON object";
  std::string error;
  if (!check_keys(j, "settings",
                  {"grid", "refine_evaluations", "split", "repetition", "start", "start_mu", "mu_grid", "mu_max"}, error))
    return error;
  FitSettingsRequest request;
  auto number = [&](const char* key, std::optional<Given<double>>& out) {
    if (const nlohmann::json* v = find_member(j, key))
      out = Given<double>{v->is_number() ? std::optional<double>(v->get<double>()) : std::nullopt, json_text(*v)};
  };
  number("grid", request.grid);
  number("refine_evaluations", request.refine_evaluations);
  number("mu_grid", request.mu_grid);
  number("mu_max", request.mu_max);
  number("repetition", request.repetition);
  number("start_mu", request.start_mu);
  if (const nlohmann::json* v = find_member(j, "split"))
    request.split = Given<std::string>{v->is_string() ? std::optional<std::string>(v->get<std::string>()) : std::nullopt,
                                       json_text(*v)};
  if (const nlohmann::json* v = find_member(j, "start")) {
    std::optional<std::vector<double>> numbers;
    if (v->is_array() && std::all_of(v->begin(), v->end(), [](const nlohmann::json& x) { return x.is_number(); })) {
      numbers.emplace();
      for (const nlohmann::json& x : *v) numbers->push_back(x.get<double>());
    }
    request.start = Given<std::vector<double>>{numbers, json_text(*v)};
  }
  Result<FitSettings> made = make_fit_settings(request, problem.obstacles, problem.steps * problem.dt);
  if (!made.ok()) return made.error;
  settings = *made.value;
  settings.threads = 1;  // the page runs one simulation per worker
  return {};
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
