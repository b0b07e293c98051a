// tela fit RECORDING: fits delta / rho and alpha / rho of the inextensible model to a
// motion-capture recording (thesis §4.2): detection summary, sweep, Nelder-Mead refinement.
#include "cli.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "base/json_text.h"
#include "fit/fit_job.h"
#include "fit/fit_report.h"
#include "fit/fit_settings.h"
#include "mocap/parse_recording.h"

namespace tela::cli {
namespace {

// the flags of the fit's settings, by their keys in make_fit_settings' messages
// (fit/fit_settings.h); "scene" is the choice of a scenario with obstacles
std::string flag_of(const std::string& key) {
  static const char* const flags[][2] = {
      {"grid", "--grid"},         {"refine_evaluations", "--refine-evaluations"}, {"mu_grid", "--mu-grid"},
      {"mu_max", "--mu-max"},     {"repetition", "--repetition"},                 {"split", "--split"},
      {"start", "--params"},      {"start_mu", "--start-mu"},                     {"scene", "--scenario"}};
  for (const auto& flag : flags)
    if (key == flag[0]) return flag[1];
  return key;
}

Given<double> given_number(const std::string& text) {
  double v = 0;
  return Given<double>{parse_real(text, v) ? std::optional<double>(v) : std::nullopt, text};
}

// --params delta,alpha[,mu] in kg/m^2, kg/(m^2 s): the settings' start holds delta / rho and
// alpha / rho; the message of a start the fit cannot use quotes both
Given<std::vector<double>> given_start(const std::string& text, double rho) {
  const std::vector<std::string> items = split_list(text);
  std::vector<double> start;
  for (std::size_t i = 0; i < items.size(); ++i) {
    double v = 0;
    if (!parse_real(items[i], v)) return Given<std::vector<double>>{std::nullopt, text};
    start.push_back(i < 2 ? v / rho : v);
  }
  std::string quoted = text;
  if (start.size() >= 2) {
    char ratios[160];
    std::snprintf(ratios, sizeof ratios, ", that is delta / rho = %g, alpha / rho = %g with rho = %g kg/m^2", start[0],
                  start[1], rho);
    quoted += ratios;
  }
  return Given<std::vector<double>>{start, quoted};
}

}  // namespace

int run_fit(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela fit RECORDING [--scenario FILE|NAME] [--params delta,alpha[,mu]] [--start-mu MU] [--grid N] "
      "[--mu-grid N] [--mu-max M] [--report out.json] [--replay-out replay.csv] "
      "[--threads N] [--rho R] [--up AXIS] [--markers CxR] [--order A,B,...] [--exclude A,B,...] [--held A,B] [--refine K] [--size W,H] [--split whole|half] "
      "[--duration S] [--refine-evaluations N] [--repetition 1|2] [--held-smoothing N] [--kappa K] [--units m|cm|mm] "
      "[--format F]";
  if (wants_help(args)) return print_usage(usage);
  std::string source, scenario_path, report_path, replay_path, split = "whole";
  std::optional<std::string> params;  // --params, converted once rho is known
  FitProblemOptions options;
  FitSettingsRequest request;  // checked by make_fit_settings once the problem is known
  int threads = std::max(1u, std::thread::hardware_concurrency());
  RecordingParseOptions parse_options;
  bool rho_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has = i + 1 < args.size();
    const std::string value = has ? args[i + 1] : std::string();
    if (a.rfind("--", 0) == 0 && !has) return bad_input("option " + a + " needs a value; " + usage);
    if (a == "--scenario") scenario_path = args[++i];
    else if (a == "--report") report_path = args[++i];
    else if (a == "--replay-out") replay_path = args[++i];
    else if (a == "--grid") request.grid = given_number(args[++i]);
    else if (a == "--threads") {
      if (!parse_int(args[++i], 1, 256, threads)) return bad_input("--threads: a whole number from 1 to 256");
    } else if (a == "--params") params = args[++i];
    else if (a == "--start-mu") request.start_mu = given_number(args[++i]);
    else if (a == "--mu-grid") request.mu_grid = given_number(args[++i]);
    else if (a == "--mu-max") request.mu_max = given_number(args[++i]);
    else if (a == "--rho") {
      if (!parse_real(args[++i], options.rho) || !(options.rho > 0)) return bad_input("--rho: a density > 0 in kg/m^2");
      rho_given = true;
    } else if (a == "--up") options.up = args[++i];
    else if (a == "--markers") {
      const std::string v = args[++i];
      const std::size_t x = v.find('x');
      if (x == std::string::npos || !parse_int(v.substr(0, x), 2, 100, options.grid.cols) ||
          !parse_int(v.substr(x + 1), 2, 100, options.grid.rows))
        return bad_input("--markers: the marker grid as COLSxROWS, e.g. 4x5");
    } else if (a == "--exclude") {
      options.grid.exclude = split_list(args[++i]);
      if (options.grid.exclude.empty()) return bad_input("--exclude: marker names, A,B,...");
    } else if (a == "--order") {
      options.grid.order = split_list(args[++i]);
      if (options.grid.order.size() < 4) return bad_input("--order: the grid's marker names row-major from the top-left, A,B,... (with --markers CxR)");
    } else if (a == "--held") {
      options.grid.held = split_list(args[++i]);
      if (options.grid.held.size() != 2) return bad_input("--held: two marker names, A,B");
    } else if (a == "--size") {
      const std::vector<std::string> items = split_list(args[++i]);
      if (items.size() != 2 || !parse_real(items[0], options.cloth.width) || !parse_real(items[1], options.cloth.height) ||
          !(options.cloth.width > 0) || !(options.cloth.height > 0) || options.cloth.width > 100 || options.cloth.height > 100)
        return bad_input("--size: the rest width and height of the marked area in metres, W,H (each in (0, 100])");
    } else if (a == "--refine") {
      if (!parse_int(args[++i], 1, 16, options.cloth.refine)) return bad_input("--refine: a factor from 1 to 16");
    } else if (a == "--split") {
      split = args[++i];
      request.split = Given<std::string>{split, split};
    } else if (a == "--duration") {
      if (!parse_real(args[++i], options.duration) || !(options.duration > 0)) return bad_input("--duration: seconds > 0");
    } else if (a == "--refine-evaluations") request.refine_evaluations = given_number(args[++i]);
    else if (a == "--repetition") request.repetition = given_number(args[++i]);
    else if (a == "--held-smoothing") {
      if (!parse_int(args[++i], 1, 101, options.held_smoothing)) return bad_input("--held-smoothing: 1 to 101 samples");
    } else if (a == "--kappa") {
      if (!parse_real(args[++i], options.kappa) || options.kappa < 0) return bad_input("--kappa: a bending stiffness >= 0");
    } else if (a == "--units") parse_options.units = args[++i];
    else if (a == "--format") parse_options.format = args[++i];
    else if (a.rfind("--", 0) == 0) return bad_input("unknown option '" + a + "'; " + usage);
    else if (source.empty()) source = a;
    else return bad_input("unexpected argument '" + a + "'; " + usage);
  }
  if (source.empty()) return bad_input(usage);

  if (!scenario_path.empty()) {
    Result<Scenario> scenario = load_scenario(scenario_path);
    if (!scenario.ok()) return bad_input("--scenario: " + scenario.error);
    if (!rho_given) options.rho = scenario.value->material.rho;
    options.solver = scenario.value->solver;
    // contact scenes: the scenario's obstacles (in the recording's z-up frame) make mu fittable
    options.obstacles = scenario.value->obstacles;
  }
  Result<std::string> bytes = read_file(source);
  if (!bytes.ok()) return bad_input(bytes.error);
  Result<Recording> recording = parse_recording(*bytes.value, parse_options);
  if (!recording.ok()) return bad_input(source + ": " + recording.error);
  Result<FitProblem> made = make_fit_problem(*recording.value, options);
  if (!made.ok()) return bad_input(source + ": " + made.error);
  auto problem = std::make_shared<const FitProblem>(std::move(*made.value));
  if (params) request.start = given_start(*params, problem->rho);
  Result<FitSettings> checked = make_fit_settings(request, problem->obstacles, problem->steps * problem->dt, flag_of);
  if (!checked.ok()) return bad_input(checked.error);
  FitSettings settings = *checked.value;
  settings.threads = threads;

  const auto start = std::chrono::steady_clock::now();
  const FitResult fit = tela::run_fit(problem, settings);
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  nlohmann::json out = nlohmann::json::parse(fit_result_json(*problem, settings, fit, false));
  out["split"] = split;
  out["threads"] = settings.threads;
  out["wall_ms"] = wall_ms;
  if (!report_path.empty()) {
    nlohmann::json report = nlohmann::json::parse(fit_result_json(*problem, settings, fit, true));
    report["split"] = split;
    report["threads"] = settings.threads;
    report["wall_ms"] = wall_ms;
    if (!write_file(report_path, json_text(report, 1) + "\n"))
      return bad_input("--report: cannot write '" + report_path + "'");
  }
  if (!replay_path.empty() && std::isfinite(fit.train_error_cm)) {
    // the replay at the fitted point, as the page's Replay CSV
    std::vector<Positions> trajectory;
    evaluate(*problem, FitPoint{fit.delta_ratio, fit.alpha_ratio, fit.mu}, Window{}, nullptr, &trajectory);
    if (!write_file(replay_path, marker_replay_csv(*problem, trajectory)))
      return bad_input("--replay-out: cannot write '" + replay_path + "'");
  }
  if (!std::isfinite(fit.train_error_cm)) {
    out["error"] = "every simulation of the fit failed (diverged or non-finite)" +
                   (out["failure"].is_string() ? ": " + out["failure"].get<std::string>() : std::string());
    std::printf("%s\n", json_text(out).c_str());
    return kExitNumericalFailure;
  }
  std::printf("%s\n", json_text(out).c_str());
  return 0;
}

}  // namespace tela::cli
