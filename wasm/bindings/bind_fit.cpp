// Embind layer over mocap/ and fit/: declarations and conversions only. A FitSession parses
// a recording (text bytes) and builds the fitting problem; the page's worker then runs the
// fit in slices (advance) to report progress and honour a cancel between them, or evaluates
// single points so that several workers can share a sweep. Nothing here throws: errors come
// back as ok() == false plus a message. Bulk data leaves as copies.
#include "fit/fit_job.h"
#include "fit/fit_report.h"
#include "fit_options.h"
#include "mocap/parse_recording.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

template <class T>
val copy_array_to_js(std::size_t n, const T* data) {
  return val(emscripten::typed_memory_view(n, data)).call<val>("slice");
}

// settings JSON: {"grid", "refine_evaluations", "split": "whole"|"half", "repetition",
// "start": [delta / rho, alpha / rho]}
FitSettings read_settings(const std::string& text, double duration) {
  FitSettings settings;
  settings.threads = 1;  // one thread per wasm instance; the page uses several workers instead
  const nlohmann::json j = nlohmann::json::parse(text.empty() ? "{}" : text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return settings;
  if (j.contains("grid") && j["grid"].is_number_integer()) settings.grid = std::max(0, std::min(200, j["grid"].get<int>()));
  if (j.contains("refine_evaluations") && j["refine_evaluations"].is_number_integer())
    settings.refine_evaluations = std::max(0, j["refine_evaluations"].get<int>());
  if (j.contains("repetition") && j["repetition"].is_number_integer())
    settings.a_priori_repetition = j["repetition"].get<int>() == 2 ? 2 : 1;
  if (j.contains("split") && j["split"] == "half") split_half(settings, duration);
  if (j.contains("start") && j["start"].is_array() && j["start"].size() == 2 && j["start"][0].is_number() &&
      j["start"][1].is_number()) {
    settings.has_start = true;
    settings.start_delta_ratio = j["start"][0].get<double>();
    settings.start_alpha_ratio = j["start"][1].get<double>();
  }
  return settings;
}

class FitSession {
 public:
  FitSession(const std::string& bytes, const std::string& options_json) {
    problem_ = read_fit_problem(bytes, options_json, error_);
  }

  bool ok() const { return problem_ != nullptr; }
  std::string error() const { return error_; }
  // what was detected (format, units, rate, markers, grid, held corners, missing data)
  std::string summary() const { return problem_ ? fit_summary_json(*problem_) : std::string("{}"); }

  // starts (or restarts) a fit with the settings JSON
  void start(const std::string& settings_json) {
    if (!problem_) return;
    settings_ = read_settings(settings_json, problem_->steps * problem_->dt);
    job_ = std::make_unique<FitJob>(problem_, settings_);
  }
  // runs at most `budget` simulations; true when the fit is finished (or cancelled)
  bool advance(int budget) { return job_ ? job_->advance(std::max(1, budget)) : true; }
  void cancel() {
    if (job_) job_->cancel();
  }
  double progress() const { return job_ ? job_->progress() : 0.0; }
  std::string stage() const { return job_ ? to_string(job_->stage()) : std::string("none"); }
  // the fit so far (fit_result_json with per-frame errors and the sweep points)
  std::string result() const {
    return job_ && problem_ ? fit_result_json(*problem_, settings_, job_->result(), true) : std::string("{}");
  }

  // one simulation at (delta / rho, alpha / rho) over the whole recording:
  // {"mean_error_cm", "mean_sd_cm", "ok", "message"}
  std::string evaluate_point(double delta_ratio, double alpha_ratio) const {
    if (!problem_) return "{}";
    const Evaluation e = evaluate(*problem_, delta_ratio, alpha_ratio, Window{});
    nlohmann::json out = {{"delta_over_rho", delta_ratio}, {"alpha_over_rho", alpha_ratio}, {"ok", e.ok},
                          {"message", e.message}};
    out["mean_error_cm"] = std::isfinite(e.mean_error_cm) ? nlohmann::json(e.mean_error_cm) : nlohmann::json(nullptr);
    out["mean_sd_cm"] = std::isfinite(e.mean_sd_cm) ? nlohmann::json(e.mean_sd_cm) : nlohmann::json(nullptr);
    return out.dump();
  }

  // replay: the simulated nodes at every step, #steps+1 by #nodes*3 (Float32Array, z-up metres)
  val simulate(double delta_ratio, double alpha_ratio) const {
    if (!problem_) return val::global("Float32Array").new_(0);
    std::vector<Positions> trajectory;
    evaluate(*problem_, delta_ratio, alpha_ratio, Window{}, nullptr, &trajectory);
    std::vector<float> flat;
    for (const Positions& p : trajectory)
      for (Eigen::Index i = 0; i < p.size(); ++i) flat.push_back(static_cast<float>(p.data()[i]));
    return copy_array_to_js(flat.size(), flat.data());
  }
  // the recorded markers at every step, #steps+1 by #markers*3 (Float32Array, NaN = occluded)
  val markers() const {
    if (!problem_) return val::global("Float32Array").new_(0);
    std::vector<float> flat(problem_->targets.data(), problem_->targets.data() + problem_->targets.size());
    return copy_array_to_js(flat.size(), flat.data());
  }
  // #triangles*3 node indices of the simulation mesh (Uint32Array)
  val triangles() const {
    if (!problem_) return val::global("Uint32Array").new_(0);
    const std::vector<int> tris = render_triangles(problem_->cloth.mesh);
    const std::vector<std::uint32_t> indices(tris.begin(), tris.end());
    return copy_array_to_js(indices.size(), indices.data());
  }

 private:
  std::shared_ptr<const FitProblem> problem_;
  std::unique_ptr<FitJob> job_;
  FitSettings settings_;
  std::string error_;
};

std::string sniff_format(const std::string& bytes) { return sniff_recording_format(bytes); }

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_fit) {
  using namespace emscripten;
  using tela::FitSession;

  function("sniffRecordingFormat", &tela::sniff_format);
  class_<FitSession>("FitSession")
      .constructor<const std::string&, const std::string&>()
      .function("ok", &FitSession::ok)
      .function("error", &FitSession::error)
      .function("summary", &FitSession::summary)
      .function("start", &FitSession::start)
      .function("advance", &FitSession::advance)
      .function("cancel", &FitSession::cancel)
      .function("progress", &FitSession::progress)
      .function("stage", &FitSession::stage)
      .function("result", &FitSession::result)
      .function("evaluatePoint", &FitSession::evaluate_point)
      .function("simulate", &FitSession::simulate)
      .function("markers", &FitSession::markers)
      .function("triangles", &FitSession::triangles);
}
