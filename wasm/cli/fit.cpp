// tela fit RECORDING: fits delta / rho and alpha / rho of the inextensible model to a
// motion-capture recording (thesis §4.2): detection summary, sweep, Nelder-Mead refinement.
#include "cli.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "fit/fit_job.h"
#include "fit/fit_report.h"
#include "mocap/parse_recording.h"
#include "base/json_text.h"

namespace tela::cli {
namespace {


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
  FitProblemOptions options;
  FitSettings settings;
  settings.threads = std::max(1u, std::thread::hardware_concurrency());
  RecordingParseOptions parse_options;
  bool rho_given = false;
  double start_mu_flag = std::numeric_limits<double>::quiet_NaN();  // --start-mu
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has = i + 1 < args.size();
    const std::string value = has ? args[i + 1] : std::string();
    if (a.rfind("--", 0) == 0 && !has) return bad_input("option " + a + " needs a value; " + usage);
    if (a == "--scenario") scenario_path = args[++i];
    else if (a == "--report") report_path = args[++i];
    else if (a == "--replay-out") replay_path = args[++i];
    else if (a == "--grid") {
      if (!parse_int(args[++i], 0, kMaxFitGrid, settings.grid) || settings.grid == 1)
        return bad_input("--grid: a whole number of points per axis, 0 (no sweep) or 2 to " + std::to_string(kMaxFitGrid));
    } else if (a == "--threads") {
      if (!parse_int(args[++i], 1, 256, settings.threads)) return bad_input("--threads: a whole number from 1 to 256");
    } else if (a == "--params") {
      const std::vector<std::string> items = split_list(args[++i]);
      double d = 0, al = 0, mu = 0;
      if ((items.size() != 2 && items.size() != 3) || !parse_real(items[0], d) || !parse_real(items[1], al) || d < 0 ||
          al < 0 || (items.size() == 3 && (!parse_real(items[2], mu) || mu < 0)))
        return bad_input("--params: delta,alpha[,mu] (kg/m^2, kg/(m^2 s) and a friction coefficient, all >= 0)");
      settings.has_start = true;
      settings.start_delta_ratio = d;  // divided by rho once rho is known
      settings.start_alpha_ratio = al;
      if (items.size() == 3) settings.start_mu = mu;
    } else if (a == "--start-mu") {
      if (!parse_real(args[++i], start_mu_flag) || !(start_mu_flag >= 0) || !std::isfinite(start_mu_flag))
        return bad_input("--start-mu: the friction coefficient the fit starts from, a number >= 0");
    } else if (a == "--mu-grid") {
      if (!parse_int(args[++i], 0, kMaxFitGrid, settings.mu_grid) || settings.mu_grid == 1)
        return bad_input("--mu-grid: a whole number of mu values, 0 (mu fixed) or 2 to " + std::to_string(kMaxFitGrid));
    } else if (a == "--mu-max") {
      if (!parse_real(args[++i], settings.mu_max) || !(settings.mu_max > 0) || settings.mu_max > kMaxFitMu)
        return bad_input("--mu-max: the largest friction coefficient tried, in (0, 100]");
    } else if (a == "--rho") {
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
      if (split != "whole" && split != "half") return bad_input("--split: whole or half");
    } else if (a == "--duration") {
      if (!parse_real(args[++i], options.duration) || !(options.duration > 0)) return bad_input("--duration: seconds > 0");
    } else if (a == "--refine-evaluations") {
      if (!parse_int(args[++i], 0, kMaxRefineEvaluations, settings.refine_evaluations))
        return bad_input("--refine-evaluations: 0 to " + std::to_string(kMaxRefineEvaluations));
    } else if (a == "--repetition") {
      if (!parse_int(args[++i], 1, 2, settings.a_priori_repetition)) return bad_input("--repetition: 1 or 2");
    } else if (a == "--held-smoothing") {
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
  if (std::isfinite(settings.start_mu) && options.obstacles.empty())
    return bad_input("--params: a mu needs obstacles to act on; give a --scenario with obstacles (e.g. a table)");
  if (std::isfinite(start_mu_flag)) {
    // the starting mu alone (delta and alpha keep the a-priori guess, or --params' two values)
    if (options.obstacles.empty())
      return bad_input("--start-mu: a mu needs obstacles to act on; give a --scenario with obstacles (e.g. a table)");
    if (std::isfinite(settings.start_mu))
      return bad_input("--start-mu: give the starting mu once, here or as the third value of --params");
    settings.start_mu = start_mu_flag;
  }
  const double mu = starting_mu(settings, options.obstacles);
  if (fits_mu(settings, options.obstacles) && mu > settings.mu_max) {
    char text[300];
    if (std::isfinite(start_mu_flag))
      std::snprintf(text, sizeof text,
                    "--start-mu: %g lies above --mu-max %g (mu is fitted in [0, mu_max]); give a smaller mu or "
                    "raise --mu-max", mu, settings.mu_max);
    else if (std::isfinite(settings.start_mu))
      std::snprintf(text, sizeof text,
                    "--params: mu = %g lies above --mu-max %g (mu is fitted in [0, mu_max]); give a smaller mu or "
                    "raise --mu-max", mu, settings.mu_max);
    else
      std::snprintf(text, sizeof text,
                    "--mu-max: %g is below the first obstacle's friction coefficient %g, the fit's starting mu (mu is "
                    "fitted in [0, mu_max]); raise --mu-max or give a starting mu with --params delta,alpha,mu",
                    settings.mu_max, mu);
    return bad_input(text);
  }
  if (settings.has_start) {
    settings.start_delta_ratio /= options.rho;
    settings.start_alpha_ratio /= options.rho;
    // the fit searches [0, max] x [0, max] in (delta / rho, alpha / rho) (thesis §4.2.2); a
    // start outside would be moved to the box's edge without a word
    if (settings.start_delta_ratio > settings.delta_ratio_max || settings.start_alpha_ratio > settings.alpha_ratio_max) {
      char text[300];
      std::snprintf(text, sizeof text,
                    "--params: delta = %g, alpha = %g lie outside the searched box delta <= %g, alpha <= %g "
                    "(delta / rho <= %g, alpha / rho <= %g with rho = %g kg/m^2; thesis §4.2.2)",
                    settings.start_delta_ratio * options.rho, settings.start_alpha_ratio * options.rho,
                    settings.delta_ratio_max * options.rho, settings.alpha_ratio_max * options.rho,
                    settings.delta_ratio_max, settings.alpha_ratio_max, options.rho);
      return bad_input(text);
    }
  }

  Result<std::string> bytes = read_file(source);
  if (!bytes.ok()) return bad_input(bytes.error);
  Result<Recording> recording = parse_recording(*bytes.value, parse_options);
  if (!recording.ok()) return bad_input(source + ": " + recording.error);
  Result<FitProblem> made = make_fit_problem(*recording.value, options);
  if (!made.ok()) return bad_input(source + ": " + made.error);
  auto problem = std::make_shared<const FitProblem>(std::move(*made.value));
  if (split == "half") split_half(settings, problem->steps * problem->dt);

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
