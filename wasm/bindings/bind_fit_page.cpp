// Embind layer for the page's Fit panel, where SEVERAL workers share one sweep: each worker
// holds its own FitPageJob (same recording, same options, same settings), evaluates the
// sweep points it is handed by index, and one of them then runs the Nelder-Mead refinement
// and the final evaluation from the collected points. The bookkeeping follows FitJob
// (fit/fit_job.cpp) step by step — the start point first, then the sweep in index order,
// strict improvement only, the same refinement simplex — so a fit's result depends neither
// on the number of workers nor on the order in which their answers arrive, and equals the
// single-threaded FitJob's (and `tela fit`'s) on the same settings.
//
// Declarations and conversions only; nothing here throws. Errors come back as ok() == false
// plus a message. Evaluations travel as JSON (17 significant digits, so doubles round-trip).
#include "fit/fit_job.h"
#include "fit/fit_report.h"
#include "fit/nelder_mead.h"
#include "fit_options.h"
#include "mocap/parse_recording.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;
using nlohmann::json;

template <class T>
val copy_to_js(std::size_t n, const T* data) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// settings JSON: {"grid", "refine_evaluations", "split": "whole"|"half"|[train_end_s],
// "repetition", "start": [delta / rho, alpha / rho]}
FitSettings read_settings(const std::string& text, double duration) {
  FitSettings s;
  s.threads = 1;
  const json j = json::parse(text.empty() ? "{}" : text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return s;
  if (j.contains("grid") && j["grid"].is_number_integer()) s.grid = std::max(0, std::min(200, j["grid"].get<int>()));
  if (s.grid == 1) s.grid = 2;  // as FitJob
  if (j.contains("refine_evaluations") && j["refine_evaluations"].is_number_integer())
    s.refine_evaluations = std::max(0, std::min(1000, j["refine_evaluations"].get<int>()));
  if (j.contains("repetition") && j["repetition"].is_number_integer())
    s.a_priori_repetition = j["repetition"].get<int>() == 2 ? 2 : 1;
  if (j.contains("split") && j["split"] == "half") split_half(s, duration);
  if (j.contains("start") && j["start"].is_array() && j["start"].size() == 2 && j["start"][0].is_number() &&
      j["start"][1].is_number()) {
    s.has_start = true;
    s.start_delta_ratio = j["start"][0].get<double>();
    s.start_alpha_ratio = j["start"][1].get<double>();
  }
  return s;
}

json evaluation_json(const Evaluation& e) {
  return {{"delta_over_rho", e.delta_ratio}, {"alpha_over_rho", e.alpha_ratio},
          {"mean_error_cm", number_or_null(e.mean_error_cm)}, {"mean_sd_cm", number_or_null(e.mean_sd_cm)},
          {"frames", e.frames}, {"ok", e.ok}, {"message", e.message}};
}

// null or a malformed entry: a point that was never evaluated (a cancelled sweep)
bool evaluation_from_json(const json& j, Evaluation& e) {
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean()) return false;
  auto num = [&](const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<double>() : std::numeric_limits<double>::infinity();
  };
  e.delta_ratio = j.contains("delta_over_rho") && j["delta_over_rho"].is_number() ? j["delta_over_rho"].get<double>() : 0;
  e.alpha_ratio = j.contains("alpha_over_rho") && j["alpha_over_rho"].is_number() ? j["alpha_over_rho"].get<double>() : 0;
  e.mean_error_cm = num("mean_error_cm");
  e.mean_sd_cm = num("mean_sd_cm");
  e.frames = j.contains("frames") && j["frames"].is_number_integer() ? j["frames"].get<int>() : 0;
  e.ok = j["ok"].get<bool>() && std::isfinite(e.mean_error_cm);
  if (j.contains("message") && j["message"].is_string()) e.message = j["message"].get<std::string>();
  return true;
}

class FitPageJob {
 public:
  FitPageJob(const std::string& bytes, const std::string& options_json) {
    problem_ = read_fit_problem(bytes, options_json, error_);
  }

  bool ok() const { return problem_ != nullptr; }
  std::string error() const { return error_; }
  std::string summary() const { return problem_ ? fit_summary_json(*problem_) : std::string("{}"); }

  // Fixes the settings; returns {"grid", "points", "refine_evaluations", "start": [d, a],
  // "a_priori": {delta, alpha, delta_over_rho, alpha_over_rho, S, V}, "train", "test"}.
  std::string plan(const std::string& settings_json) {
    if (!problem_) return "{}";
    const double duration = problem_->steps * problem_->dt;
    settings_ = read_settings(settings_json, duration);
    // FitJob's constructor computes the a-priori estimate exactly as a whole fit does
    const FitJob reference(problem_, settings_);
    result_ = FitResult{};
    result_.rho = problem_->rho;
    result_.a_priori = reference.result().a_priori;
    result_.sweep.assign(static_cast<std::size_t>(settings_.grid) * settings_.grid, Evaluation{});
    refine_.reset();
    best_value_ = std::numeric_limits<double>::infinity();
    best_delta_ = best_alpha_ = 0;
    const Eigen::Vector2d start = point(-1);
    return json{{"grid", settings_.grid},
                {"points", settings_.grid * settings_.grid},
                {"refine_evaluations", settings_.refine_evaluations},
                {"start", {start[0], start[1]}},
                {"a_priori",
                 {{"delta", result_.a_priori.delta}, {"alpha", result_.a_priori.alpha},
                  {"delta_over_rho", result_.a_priori.delta / problem_->rho},
                  {"alpha_over_rho", result_.a_priori.alpha / problem_->rho},
                  {"S", result_.a_priori.size}, {"V", result_.a_priori.speed},
                  {"repetition", settings_.a_priori_repetition}}},
                {"delta_over_rho_max", settings_.delta_ratio_max},
                {"alpha_over_rho_max", settings_.alpha_ratio_max},
                {"train", {settings_.train.begin, std::min(settings_.train.end, duration)}},
                {"test", {settings_.test.begin, std::min(settings_.test.end, duration)}}}
        .dump();
  }

  // Evaluates the points first .. first + count - 1 on the training window; index -1 is the
  // start point (a-priori or the user's), 0 .. grid^2 - 1 the sweep (i * grid + j: delta_i,
  // alpha_j). Returns a JSON array of evaluations with their "index".
  std::string evaluate_range(int first, int count) const {
    json out = json::array();
    if (!problem_) return out.dump();
    const int total = settings_.grid * settings_.grid;
    for (int k = std::max(-1, first); k < std::min(total, first + std::max(0, count)); ++k) {
      const Eigen::Vector2d p = point(k);
      json e = evaluation_json(evaluate(*problem_, p[0], p[1], settings_.train));
      e["index"] = k;
      out.push_back(e);
    }
    return out.dump();
  }

  // Takes the collected points {"start": evaluation, "sweep": [evaluation or null, ...]} and
  // starts the refinement from the best of them (FitJob's order). Returns "" or an error.
  std::string begin_refinement(const std::string& points_json) {
    if (!problem_) return "no recording";
    const json j = json::parse(points_json, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return "points: not a JSON object";
    result_.evaluations = 0;
    best_value_ = std::numeric_limits<double>::infinity();
    Evaluation start;
    if (j.contains("start") && evaluation_from_json(j["start"], start)) {
      result_.a_priori_evaluation = start;
      consider(start);
    } else {
      result_.a_priori_evaluation.mean_error_cm = std::numeric_limits<double>::infinity();
      result_.a_priori_evaluation.ok = false;
    }
    result_.sweep_best = -1;
    const std::size_t total = result_.sweep.size();
    const bool listed = j.contains("sweep") && j["sweep"].is_array();
    bool complete = true;
    for (std::size_t k = 0; k < total; ++k) {
      Evaluation e;
      if (!listed || k >= j["sweep"].size() || !evaluation_from_json(j["sweep"][k], e)) {
        complete = false;
        e.mean_error_cm = std::numeric_limits<double>::infinity();
        e.ok = false;
        e.message = "not evaluated";
        const Eigen::Vector2d p = point(static_cast<int>(k));
        e.delta_ratio = p[0];
        e.alpha_ratio = p[1];
        result_.sweep[k] = e;
        continue;
      }
      result_.sweep[k] = e;
      consider(e);
      const Evaluation& best = result_.sweep_best >= 0 ? result_.sweep[result_.sweep_best] : e;
      if (result_.sweep_best < 0 || (e.ok && e.mean_error_cm < best.mean_error_cm))
        result_.sweep_best = static_cast<int>(k);
    }
    refine_.reset();
    if (!complete || settings_.refine_evaluations <= 0 || !std::isfinite(best_value_)) return {};
    const int cells = std::max(settings_.grid - 1, 4);
    NelderMeadSettings nm;
    nm.max_evaluations = settings_.refine_evaluations;
    refine_ = std::make_unique<NelderMead>(
        Eigen::Vector2d(best_delta_, best_alpha_),
        Eigen::Vector2d(settings_.delta_ratio_max / cells, settings_.alpha_ratio_max / cells), Eigen::Vector2d(0, 0),
        Eigen::Vector2d(settings_.delta_ratio_max, settings_.alpha_ratio_max), nm);
    return {};
  }

  // at most `budget` refinement evaluations; true when the refinement is over
  bool refine(int budget) {
    for (int n = 0; n < std::max(1, budget); ++n) {
      if (!refine_ || refine_->done()) return true;
      const Eigen::VectorXd x = refine_->ask();
      const Evaluation e = evaluate(*problem_, x[0], x[1], settings_.train);
      consider(e);
      refine_->tell(e.ok ? e.mean_error_cm : std::numeric_limits<double>::infinity());
    }
    return !refine_ || refine_->done();
  }

  // {"evaluations", "best": [d, a], "best_error_cm", "refine_evaluations"}
  std::string state() const {
    return json{{"evaluations", result_.evaluations},
                {"refine_evaluations", refine_ ? refine_->evaluations() : 0},
                {"best", {best_delta_, best_alpha_}},
                {"best_error_cm", number_or_null(best_value_)}}
        .dump();
  }

  // The fit as fit_result_json (with per-frame errors and the sweep points). Unless
  // cancelled, the fit is evaluated on the testing window first (as FitJob::finish).
  std::string finish(bool cancelled) {
    if (!problem_) return "{}";
    result_.cancelled = cancelled;
    result_.delta_ratio = best_delta_;
    result_.alpha_ratio = best_alpha_;
    result_.train_error_cm = best_value_;
    result_.test_frames.clear();
    if (!cancelled && std::isfinite(best_value_)) {
      const Evaluation test = evaluate(*problem_, best_delta_, best_alpha_, settings_.test, &result_.test_frames);
      ++result_.evaluations;
      result_.test_error_cm = test.mean_error_cm;
      result_.test_sd_cm = test.mean_sd_cm;
    } else {
      result_.test_error_cm = result_.test_sd_cm = std::numeric_limits<double>::infinity();
    }
    result_.finished = true;
    return fit_result_json(*problem_, settings_, result_, true);
  }

  // replay: the simulated nodes at every step, #steps+1 by #nodes*3 (Float32Array, z-up m)
  val simulate(double delta_ratio, double alpha_ratio) const {
    if (!problem_) return val::global("Float32Array").new_(0);
    std::vector<Positions> trajectory;
    evaluate(*problem_, delta_ratio, alpha_ratio, Window{}, nullptr, &trajectory);
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
  // index -1: the start point, clamped into the box; k >= 0: sweep point k
  Eigen::Vector2d point(int k) const {
    if (k < 0) {
      double d = settings_.has_start ? settings_.start_delta_ratio : result_.a_priori.delta / problem_->rho;
      double a = settings_.has_start ? settings_.start_alpha_ratio : result_.a_priori.alpha / problem_->rho;
      return {std::clamp(d, 0.0, settings_.delta_ratio_max), std::clamp(a, 0.0, settings_.alpha_ratio_max)};
    }
    const int i = k / settings_.grid, j = k % settings_.grid;
    return {settings_.delta_ratio_max * i / (settings_.grid - 1), settings_.alpha_ratio_max * j / (settings_.grid - 1)};
  }

  void consider(const Evaluation& e) {
    ++result_.evaluations;
    if (e.ok && e.mean_error_cm < best_value_) {
      best_value_ = e.mean_error_cm;
      best_delta_ = e.delta_ratio;
      best_alpha_ = e.alpha_ratio;
    }
  }

  std::shared_ptr<const FitProblem> problem_;
  FitSettings settings_;
  FitResult result_;
  std::unique_ptr<NelderMead> refine_;
  double best_value_ = std::numeric_limits<double>::infinity();
  double best_delta_ = 0, best_alpha_ = 0;
  std::string error_;
};

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_fit_page) {
  using namespace emscripten;
  using tela::FitPageJob;

  class_<FitPageJob>("FitPageJob")
      .constructor<const std::string&, const std::string&>()
      .function("ok", &FitPageJob::ok)
      .function("error", &FitPageJob::error)
      .function("summary", &FitPageJob::summary)
      .function("plan", &FitPageJob::plan)
      .function("evaluateRange", &FitPageJob::evaluate_range)
      .function("beginRefinement", &FitPageJob::begin_refinement)
      .function("refine", &FitPageJob::refine)
      .function("state", &FitPageJob::state)
      .function("finish", &FitPageJob::finish)
      .function("simulate", &FitPageJob::simulate)
      .function("markers", &FitPageJob::markers)
      .function("triangles", &FitPageJob::triangles);
}
