#include "fit/fit_report.h"
#include "base/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tela {
namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json recording_json(const Recording& rec) {
  const long missing = missing_samples(rec);
  const double samples = static_cast<double>(rec.point_count()) * rec.frame_count();
  return {{"format", rec.format},
          {"format_version", rec.format_version},
          {"units", rec.units},
          {"units_declared", rec.units_declared},
          {"rate", rec.rate},
          {"frames", rec.frame_count()},
          {"points", rec.point_count()},
          {"duration", rec.duration()},
          {"missing_samples", missing},
          {"missing_fraction", samples > 0 ? missing / samples : 0.0},
          {"names", rec.names}};
}

nlohmann::json summary(const FitProblem& p) {
  const Recording& rec = p.recording;
  nlohmann::json out;
  out["recording"] = recording_json(rec);  // (its warnings go with the problem's, below)
  out["recording"]["up_axis"] = std::string(p.up.sign < 0 ? "-" : "") + "xyz"[p.up.axis];
  out["recording"]["up_axis_source"] = p.up.source;
  std::vector<std::string> order;
  for (int point : p.grid.points) order.push_back(rec.names[point]);
  out["grid"] = {{"cols", p.grid.cols},
                 {"rows", p.grid.rows},
                 {"source", p.grid.source},
                 {"residual", p.grid.residual},
                 {"order", order},
                 {"held", {order[p.grid.held[0]], order[p.grid.held[1]]}}};
  out["mesh"] = {{"nx", (p.grid.cols - 1) * p.cloth.refine + 1},
                 {"ny", (p.grid.rows - 1) * p.cloth.refine + 1},
                 {"refine", p.cloth.refine},
                 {"width", p.cloth.width},
                 {"height", p.cloth.height},
                 {"dt", p.dt},
                 {"steps", p.steps},
                 {"marker_nodes", p.cloth.marker_nodes}};
  out["rho"] = p.rho;
  out["kappa"] = p.base_model->material.kappa;
  out["held_taut_fraction"] = p.held_taut_fraction;
  std::vector<std::string> obstacles;
  for (const ObstacleDesc& o : p.obstacles) obstacles.push_back(o.type);
  out["obstacles"] = obstacles;
  std::vector<std::string> warnings = rec.warnings;
  warnings.insert(warnings.end(), p.warnings.begin(), p.warnings.end());
  out["warnings"] = warnings;
  return out;
}

}  // namespace

std::string fit_summary_json(const FitProblem& problem) { return json_text(summary(problem)); }

std::string recording_summary_json(const Recording& recording) {
  nlohmann::json out = recording_json(recording);
  out["warnings"] = recording.warnings;
  return json_text(out);
}

std::string fit_result_json(const FitProblem& p, const FitSettings& settings, const FitResult& fit, bool details) {
  nlohmann::json out = summary(p);
  const double rho = p.rho;
  out["delta"] = fit.delta_ratio * rho;
  out["alpha"] = fit.alpha_ratio * rho;
  out["delta_over_rho"] = fit.delta_ratio;
  out["alpha_over_rho"] = fit.alpha_ratio;
  out["mean_error_cm"] = number_or_null(fit.test_error_cm);
  out["spatial_sd_cm"] = number_or_null(fit.test_sd_cm);
  out["train_error_cm"] = number_or_null(fit.train_error_cm);
  out["train_window"] = {settings.train.begin, std::min(settings.train.end, p.steps * p.dt)};
  out["test_window"] = {settings.test.begin, std::min(settings.test.end, p.steps * p.dt)};
  out["a_priori"] = {{"repetition", settings.a_priori_repetition},
                     {"S", fit.a_priori.size},
                     {"V", fit.a_priori.speed},
                     {"delta", fit.a_priori.delta},
                     {"alpha", fit.a_priori.alpha},
                     {"train_error_cm", number_or_null(fit.a_priori_evaluation.mean_error_cm)}};
  if (fit.sweep_best >= 0) {
    const Evaluation& b = fit.sweep[fit.sweep_best];
    out["sweep"] = {{"grid", settings.grid},
                    {"delta_over_rho_max", settings.delta_ratio_max},
                    {"alpha_over_rho_max", settings.alpha_ratio_max},
                    {"best_delta_over_rho", b.delta_ratio},
                    {"best_alpha_over_rho", b.alpha_ratio},
                    {"best_error_cm", number_or_null(b.mean_error_cm)}};
  }
  // contact scenes: the friction of every obstacle (fitted or fixed); null without obstacles
  out["mu"] = number_or_null(fit.mu);
  out["mu_fitted"] = fit.mu_fitted;
  if (fit.mu_fitted) out["mu_line"] = {{"points", settings.mu_grid}, {"mu_max", settings.mu_max}};
  out["evaluations"] = fit.evaluations;
  out["cancelled"] = fit.cancelled;
  // why the simulations failed, when none gave an error to compare (the first failure's
  // message: a page that only said "done, e = -" left the user guessing)
  out["failure"] = nullptr;
  if (!std::isfinite(fit.train_error_cm)) {
    std::vector<const Evaluation*> all{&fit.a_priori_evaluation};
    for (const Evaluation& e : fit.sweep) all.push_back(&e);
    for (const Evaluation& e : fit.mu_line) all.push_back(&e);
    for (const Evaluation* e : all)
      if (!e->ok && !e->message.empty()) {
        out["failure"] = e->message;
        break;
      }
  }
  if (details) {
    nlohmann::json frames = nlohmann::json::array();
    for (const FrameError& f : fit.test_frames)
      frames.push_back({{"time", f.time}, {"e_cm", f.e_cm}, {"s_cm", f.s_cm}, {"visible", f.visible}});
    out["frames"] = frames;
    nlohmann::json sweep = nlohmann::json::array();
    for (const Evaluation& e : fit.sweep)
      sweep.push_back({{"delta_over_rho", e.delta_ratio},
                       {"alpha_over_rho", e.alpha_ratio},
                       {"mean_error_cm", number_or_null(e.mean_error_cm)},
                       {"ok", e.ok}});
    out["sweep_points"] = sweep;
    if (fit.mu_fitted) {
      nlohmann::json line = nlohmann::json::array();
      for (const Evaluation& e : fit.mu_line)
        line.push_back({{"mu", number_or_null(e.mu)}, {"mean_error_cm", number_or_null(e.mean_error_cm)}, {"ok", e.ok}});
      out["mu_line_points"] = line;
    }
  }
  return json_text(out);
}

std::string marker_replay_csv(const FitProblem& problem, const std::vector<Positions>& trajectory) {
  const std::vector<int>& nodes = problem.cloth.marker_nodes;
  const int markers = static_cast<int>(nodes.size());
  std::vector<std::string> names;
  for (int point : problem.grid.points) {
    const std::string& name = problem.recording.names[point];
    if (name.find_first_of(",\"\n") == std::string::npos) {
      names.push_back(name);
    } else {
      std::string quoted = "\"";
      for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      names.push_back(quoted + "\"");
    }
  }
  std::string out = "step,time,marker,recorded_x,recorded_y,recorded_z,simulated_x,simulated_y,simulated_z,distance_cm\n";
  const Eigen::Index steps = std::min<Eigen::Index>(problem.targets.rows(), static_cast<Eigen::Index>(trajectory.size()));
  char cell[48];
  const auto number = [&](double v) {
    std::snprintf(cell, sizeof cell, "%.9g", v);
    return std::string(cell);
  };
  for (Eigen::Index s = 0; s < steps; ++s) {
    for (int k = 0; k < markers; ++k) {
      const Eigen::Vector3d recorded = problem.targets.block<1, 3>(s, 3 * k).transpose();
      const Eigen::Vector3d simulated = trajectory[s].row(nodes[k]).transpose();
      const bool seen = std::isfinite(recorded.x());
      out += std::to_string(s) + "," + number(static_cast<double>(s) * problem.dt) + "," + names[k] + ",";
      out += seen ? number(recorded.x()) + "," + number(recorded.y()) + "," + number(recorded.z()) : std::string(",,");
      out += "," + number(simulated.x()) + "," + number(simulated.y()) + "," + number(simulated.z()) + ",";
      if (seen) out += number(100 * (recorded - simulated).norm());
      out += "\n";
    }
  }
  return out;
}

}  // namespace tela
