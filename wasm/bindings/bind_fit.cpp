// Embind layer for the page's Fit panel, where SEVERAL workers share one fit: every worker
// holds a FitPageJob (same recording, options and settings) and evaluates the points it is
// handed; one of them (the lead) also holds the fit's bookkeeping, FitJob itself
// (fit/fit_job.h), which asks for points and is told their evaluations in its own order. So a
// fit's result depends neither on the number of workers nor on the order in which their
// answers arrive, and equals `tela fit`'s on the same settings (one FitJob, two drivers).
//
// Declarations and conversions only; nothing here throws. Errors come back as ok() == false
// plus a message. Points and evaluations travel as JSON (17 significant digits, so doubles
// round-trip).
#include "fit/fit_job.h"
#include "fit/fit_report.h"
#include "fit_options.h"
#include "mocap/parse_recording.h"
#include "base/json_text.h"
#include "js_copy.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;
using nlohmann::json;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json point_json(const FitPoint& p) {
  return {{"delta_over_rho", p.delta_ratio}, {"alpha_over_rho", p.alpha_ratio}, {"mu", number_or_null(p.mu)}};
}

double number_or_nan(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::numeric_limits<double>::quiet_NaN();
}

json evaluation_json(const Evaluation& e) {
  return {{"delta_over_rho", e.delta_ratio}, {"alpha_over_rho", e.alpha_ratio}, {"mu", number_or_null(e.mu)},
          {"mean_error_cm", number_or_null(e.mean_error_cm)}, {"mean_sd_cm", number_or_null(e.mean_sd_cm)},
          {"frames", e.frames}, {"ok", e.ok}, {"message", e.message}};
}

// null or a malformed entry: a point that was never evaluated (a batch cut short by a cancel)
std::optional<Evaluation> evaluation_from_json(const json& j) {
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean()) return std::nullopt;
  auto num = [&](const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::numeric_limits<double>::infinity();
  };
  Evaluation e;
  e.delta_ratio = j.contains("delta_over_rho") && j["delta_over_rho"].is_number() ? j["delta_over_rho"].get<double>() : 0;
  e.alpha_ratio = j.contains("alpha_over_rho") && j["alpha_over_rho"].is_number() ? j["alpha_over_rho"].get<double>() : 0;
  e.mu = number_or_nan(j, "mu");
  e.mean_error_cm = num("mean_error_cm");
  e.mean_sd_cm = num("mean_sd_cm");
  e.frames = j.contains("frames") && j["frames"].is_number_integer() ? j["frames"].get<int>() : 0;
  e.ok = j["ok"].get<bool>() && std::isfinite(e.mean_error_cm);
  if (j.contains("message") && j["message"].is_string()) e.message = j["message"].get<std::string>();
  return e;
}

class FitPageJob {
 public:
  // recording: the file's bytes as a Uint8Array (what the page passes: C3D is binary, and text in
  // a Windows code page must reach the core's decoding unchanged), or a JS string (its UTF-8)
  FitPageJob(const val& recording, const std::string& options_json) {
    std::string bytes;
    if (recording.typeOf().as<std::string>() == "string") bytes = recording.as<std::string>();
    else if (!bytes_from_js(recording, bytes)) {
      error_ = "the recording must be a Uint8Array of the file's bytes (or a string)";
      return;
    }
    problem_ = read_fit_problem(bytes, options_json, error_, &recording_summary_);
  }

  bool ok() const { return problem_ != nullptr; }
  std::string error() const { return error_; }
  // after a failed read: what was read from the file (recording_summary_json), or "null"
  std::string recording_summary() const { return recording_summary_.empty() ? "null" : recording_summary_; }
  std::string summary() const { return problem_ ? fit_summary_json(*problem_) : std::string("{}"); }

  // Fixes the settings (read_fit_settings, fit_options.h) and starts a new fit; returns {"grid",
  // "points", "mu_grid", "mu_max", "mu_fitted", "refine_evaluations", "planned", "start": [d, a],
  // "start_mu" (the mu the sweep runs at; null without obstacles),
  // "a_priori": {delta, alpha, delta_over_rho, alpha_over_rho, S, V, repetition},
  // "delta_over_rho_max", "alpha_over_rho_max", "train", "test"}, or "error: ..." naming the
  // setting that cannot be used (no fit is planned then).
  std::string plan(const std::string& settings_json) {
    job_.reset();
    if (!problem_) return "error: no recording read";
    const double duration = problem_->steps * problem_->dt;
    const std::string error = read_fit_settings(settings_json, *problem_, settings_);
    if (!error.empty()) return "error: " + error;
    job_ = std::make_unique<FitJob>(problem_, settings_);
    const FitResult& r = job_->result();
    const std::vector<FitPoint> start = job_->ask(1);  // the start point (told later)
    return json_text(json{{"grid", settings_.grid},
                {"points", settings_.grid * settings_.grid},
                {"mu_grid", r.mu_fitted ? settings_.mu_grid : 0},
                {"mu_max", settings_.mu_max},
                {"mu_fitted", r.mu_fitted},
                {"refine_evaluations", settings_.refine_evaluations},
                {"planned", job_->planned_evaluations()},
                {"start", {start[0].delta_ratio, start[0].alpha_ratio}},
                {"start_mu", number_or_null(start[0].mu)},
                {"a_priori",
                 {{"delta", r.a_priori.delta}, {"alpha", r.a_priori.alpha},
                  {"delta_over_rho", r.a_priori.delta / problem_->rho},
                  {"alpha_over_rho", r.a_priori.alpha / problem_->rho},
                  {"S", r.a_priori.size}, {"V", r.a_priori.speed},
                  {"repetition", settings_.a_priori_repetition}}},
                {"delta_over_rho_max", settings_.delta_ratio_max},
                {"alpha_over_rho_max", settings_.alpha_ratio_max},
                {"train", {settings_.train.begin, std::min(settings_.train.end, duration)}},
                {"test", {settings_.test.begin, std::min(settings_.test.end, duration)}}});
  }

  // The lead's next points: {"stage", "first" (stage index of the first point: sweep point
  // i * grid + j, mu-line point k, refinement evaluation n; 0 for the start point), "points":
  // [{delta_over_rho, alpha_over_rho, mu}]}. No points: only the final evaluation is left.
  std::string ask(int max) {
    if (!job_) return R"({"stage":"done","first":0,"points":[]})";
    const std::vector<FitPoint>& points = job_->ask(max);
    const int first = job_->stage_position();
    json list = json::array();
    for (const FitPoint& p : points) list.push_back(point_json(p));
    return json_text(json{{"stage", to_string(job_->stage())}, {"first", first}, {"points", list}});
  }

  // Evaluates a JSON array of points on the training window (any worker); returns the array
  // of evaluations in the same order.
  std::string evaluate(const std::string& points_json) const {
    json out = json::array();
    const json j = json::parse(points_json, nullptr, false);
    if (!problem_ || !job_ || !j.is_array()) return json_text(out);
    for (const json& p : j) {
      if (!p.is_object()) return json_text(json::array());
      const FitPoint point{number_or_nan(p, "delta_over_rho"), number_or_nan(p, "alpha_over_rho"), number_or_nan(p, "mu")};
      out.push_back(evaluation_json(tela::evaluate(*problem_, point, settings_.train)));
    }
    return json_text(out);
  }

  // The evaluations of the lead's last points, in their order (null: not evaluated, after a
  // cancel); returns state() or "error: ...".
  std::string tell(const std::string& values_json) {
    if (!job_) return "error: no fit planned";
    const json j = json::parse(values_json, nullptr, false);
    if (j.is_discarded() || !j.is_array()) return "error: evaluations: not a JSON array";
    std::vector<std::optional<Evaluation>> values;
    for (const json& e : j) values.push_back(evaluation_from_json(e));
    job_->tell(values);
    return state();
  }

  // {"evaluations", "stage", "best": [d, a, mu], "best_error_cm", "refine_evaluations"}
  std::string state() const {
    if (!job_) return "{}";
    const FitPoint& b = job_->best_point();
    return json_text(json{{"evaluations", job_->result().evaluations},
                {"stage", to_string(job_->stage())},
                {"refine_evaluations", job_->refine_evaluations()},
                {"best", {b.delta_ratio, b.alpha_ratio, number_or_null(b.mu)}},
                {"best_error_cm", number_or_null(job_->best_error_cm())}});
  }

  // The fit as fit_result_json (with per-frame errors and the sweep points): cancelled, the
  // best point so far; otherwise once every point was told, after the evaluation on the
  // testing window.
  std::string finish(bool cancelled) {
    if (!job_) return "{}";
    if (cancelled) job_->cancel();
    else if (!job_->finish_pending()) return "{}";
    return fit_result_json(*problem_, settings_, job_->result(), true);
  }

  // replay: the simulated nodes at every step, #steps+1 by #nodes*3 (Float32Array, z-up m);
  // mu NaN: the obstacles' own
  val simulate(double delta_ratio, double alpha_ratio, double mu) const {
    if (!problem_) return val::global("Float32Array").new_(0);
    std::vector<Positions> trajectory;
    tela::evaluate(*problem_, FitPoint{delta_ratio, alpha_ratio, mu}, Window{}, nullptr, &trajectory);
    std::vector<float> flat;
    for (const Positions& p : trajectory)
      for (Eigen::Index i = 0; i < p.size(); ++i) flat.push_back(static_cast<float>(p.data()[i]));
    return copy_to_js(flat.size(), flat.data());
  }
  // the recorded markers in grid order at every step, #steps+1 by #markers*3 (NaN = occluded)
  val markers() const {
    if (!problem_) return val::global("Float32Array").new_(0);
    const std::vector<float> flat(problem_->targets.data(), problem_->targets.data() + problem_->targets.size());
    return copy_to_js(flat.size(), flat.data());
  }
  // #triangles*3 node indices of the simulation mesh
  val triangles() const {
    if (!problem_) return val::global("Uint32Array").new_(0);
    const std::vector<int> tris = render_triangles(problem_->cloth.mesh);
    const std::vector<std::uint32_t> indices(tris.begin(), tris.end());
    return copy_to_js(indices.size(), indices.data());
  }

 private:
  std::shared_ptr<const FitProblem> problem_;
  FitSettings settings_;
  std::unique_ptr<FitJob> job_;
  std::string error_;
  std::string recording_summary_;
};

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_fit) {
  using namespace emscripten;
  using tela::FitPageJob;

  class_<FitPageJob>("FitPageJob")
      .constructor<emscripten::val, const std::string&>()
      .function("ok", &FitPageJob::ok)
      .function("error", &FitPageJob::error)
      .function("recordingSummary", &FitPageJob::recording_summary)
      .function("summary", &FitPageJob::summary)
      .function("plan", &FitPageJob::plan)
      .function("ask", &FitPageJob::ask)
      .function("evaluate", &FitPageJob::evaluate)
      .function("tell", &FitPageJob::tell)
      .function("state", &FitPageJob::state)
      .function("finish", &FitPageJob::finish)
      .function("simulate", &FitPageJob::simulate)
      .function("markers", &FitPageJob::markers)
      .function("triangles", &FitPageJob::triangles);
}
