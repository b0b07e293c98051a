#include "fit/fit_job.h"

#include "base/integer_cast.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <limits>
#include <thread>

namespace tela {

const char* to_string(FitStage stage) {
  switch (stage) {
    case FitStage::a_priori: return "a_priori";
    case FitStage::sweep: return "sweep";
    case FitStage::mu_line: return "mu_line";
    case FitStage::refine: return "refine";
    case FitStage::final_evaluation: return "final_evaluation";
    case FitStage::done: return "done";
  }
  return "done";
}

std::vector<Evaluation> evaluate_points(const FitProblem& problem, const std::vector<FitPoint>& points,
                                        const Window& window, int threads) {
  std::vector<Evaluation> out(points.size());
  const int count = static_cast<int>(points.size());
  const int workers = std::max(1, std::min(threads, count));
  if (workers == 1) {
    for (int i = 0; i < count; ++i) out[i] = evaluate(problem, points[i], window);
    return out;
  }
  std::atomic<int> next{0};
  auto work = [&]() {
    for (int i = next++; i < count; i = next++) out[i] = evaluate(problem, points[i], window);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return out;
}

FitJob::FitJob(std::shared_ptr<const FitProblem> problem, const FitSettings& settings)
    : problem_(std::move(problem)), settings_(settings), best_value_(std::numeric_limits<double>::infinity()) {
  result_.rho = problem_->rho;
  // make_fit_settings (fit/fit_settings.h) refuses other values with a message
  assert(settings_.grid == 0 || (settings_.grid >= 2 && settings_.grid <= kMaxFitGrid));
  assert(settings_.mu_grid == 0 || (settings_.mu_grid >= 2 && settings_.mu_grid <= kMaxFitGrid));
  settings_.threads = std::max(1, settings_.threads);
  // a-priori estimate from the recording's speeds (central differences over 0.1 s)
  Eigen::MatrixXd markers = problem_->targets;
  const int half_span = clamped_floor(0.05 / problem_->dt + 0.5, 1, 1 << 20);  // round(0.1 s / 2 / dt), defined for any dt
  const double speed = speed_measure(markers, problem_->dt, half_span);
  result_.a_priori = a_priori_parameters(problem_->cloth.width * problem_->cloth.height, speed, problem_->rho,
                                         table_4_6(settings_.a_priori_repetition));
  result_.sweep.resize(static_cast<std::size_t>(settings_.grid) * settings_.grid);
  if (!problem_->obstacles.empty()) {
    best_.mu = starting_mu(settings_, problem_->obstacles);
    result_.mu_fitted = fits_mu();
    result_.mu_line.resize(settings_.mu_grid);
  }
}

bool FitJob::fits_mu() const { return tela::fits_mu(settings_, problem_->obstacles); }

int FitJob::planned_evaluations() const {
  return 1 + settings_.grid * settings_.grid + (fits_mu() ? settings_.mu_grid : 0) + settings_.refine_evaluations + 1;
}

double FitJob::progress() const {
  if (result_.finished) return 1.0;
  return std::min(1.0, static_cast<double>(result_.evaluations) / planned_evaluations());
}

void FitJob::cancel() {
  if (result_.finished) return;
  result_.cancelled = true;
  finish();
}

void FitJob::consider(const Evaluation& e) {
  ++result_.evaluations;
  if (e.ok && e.mean_error_cm < best_value_) {
    best_value_ = e.mean_error_cm;
    best_ = FitPoint{e.delta_ratio, e.alpha_ratio, e.mu};
  }
}

void FitJob::end_sweep() {
  if (fits_mu()) stage_ = FitStage::mu_line;
  else start_refinement();
}

void FitJob::start_refinement() {
  stage_ = FitStage::refine;
  if (settings_.refine_evaluations <= 0 || !std::isfinite(best_value_)) {
    stage_ = FitStage::final_evaluation;
    return;
  }
  const int cells = std::max(settings_.grid - 1, 4);
  NelderMeadSettings nm;
  nm.max_evaluations = settings_.refine_evaluations;
  if (fits_mu()) {
    const int mu_cells = std::max(settings_.mu_grid - 1, 4);
    refine_ = std::make_unique<NelderMead>(
        Eigen::Vector3d(best_.delta_ratio, best_.alpha_ratio, best_.mu),
        Eigen::Vector3d(settings_.delta_ratio_max / cells, settings_.alpha_ratio_max / cells, settings_.mu_max / mu_cells),
        Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(settings_.delta_ratio_max, settings_.alpha_ratio_max, settings_.mu_max), nm);
    return;
  }
  refine_ = std::make_unique<NelderMead>(Eigen::Vector2d(best_.delta_ratio, best_.alpha_ratio),
                                         Eigen::Vector2d(settings_.delta_ratio_max / cells, settings_.alpha_ratio_max / cells),
                                         Eigen::Vector2d(0, 0),
                                         Eigen::Vector2d(settings_.delta_ratio_max, settings_.alpha_ratio_max), nm);
}

void FitJob::finish() {
  result_.delta_ratio = best_.delta_ratio;
  result_.alpha_ratio = best_.alpha_ratio;
  result_.mu = best_.mu;
  result_.train_error_cm = best_value_;
  if (!result_.cancelled && std::isfinite(best_value_)) {
    const Evaluation test = evaluate(*problem_, best_, settings_.test, &result_.test_frames);
    ++result_.evaluations;
    result_.test_error_cm = test.mean_error_cm;
    result_.test_sd_cm = test.mean_sd_cm;
  } else {
    result_.test_error_cm = result_.test_sd_cm = std::numeric_limits<double>::infinity();
  }
  stage_ = FitStage::done;
  result_.finished = true;
}

FitPoint FitJob::sweep_point(int k) const {
  // at the starting mu (the a-priori evaluation's)
  const int i = k / settings_.grid, j = k % settings_.grid;
  return FitPoint{settings_.delta_ratio_max * i / (settings_.grid - 1),
                  settings_.alpha_ratio_max * j / (settings_.grid - 1), result_.a_priori_evaluation.mu};
}

Evaluation FitJob::not_evaluated(const FitPoint& p) {
  Evaluation e;
  e.delta_ratio = p.delta_ratio;
  e.alpha_ratio = p.alpha_ratio;
  e.mu = p.mu;
  e.mean_error_cm = e.mean_sd_cm = std::numeric_limits<double>::infinity();
  e.ok = false;
  e.message = "not evaluated";
  return e;
}

const std::vector<FitPoint>& FitJob::ask(int max) {
  if (!asked_.empty() || result_.finished) return asked_;
  max = std::max(1, max);
  switch (stage_) {
    case FitStage::a_priori: {
      double d = settings_.has_start ? settings_.start_delta_ratio : result_.a_priori.delta / problem_->rho;
      double a = settings_.has_start ? settings_.start_alpha_ratio : result_.a_priori.alpha / problem_->rho;
      asked_.push_back(FitPoint{std::clamp(d, 0.0, settings_.delta_ratio_max),
                                std::clamp(a, 0.0, settings_.alpha_ratio_max), best_.mu});
      break;
    }
    case FitStage::sweep:
      for (int k = next_sweep_; k < std::min(settings_.grid * settings_.grid, next_sweep_ + max); ++k)
        asked_.push_back(sweep_point(k));
      break;
    case FitStage::mu_line: {
      // at the best (delta, alpha) so far: the sweep's, or the a-priori point's
      for (int k = next_mu_; k < std::min(settings_.mu_grid, next_mu_ + max); ++k)
        asked_.push_back(FitPoint{best_.delta_ratio, best_.alpha_ratio, settings_.mu_max * k / (settings_.mu_grid - 1)});
      break;
    }
    case FitStage::refine: {
      if (refine_->done()) {
        stage_ = FitStage::final_evaluation;
        break;
      }
      const Eigen::VectorXd x = refine_->ask();
      asked_.push_back(FitPoint{x[0], x[1], x.size() > 2 ? x[2] : best_.mu});
      break;
    }
    case FitStage::final_evaluation:
    case FitStage::done:
      break;
  }
  return asked_;
}

void FitJob::tell(const std::vector<std::optional<Evaluation>>& values) {
  const std::size_t count = std::min(values.size(), asked_.size());
  auto value = [&](std::size_t k) { return k < count && values[k] ? *values[k] : not_evaluated(asked_[k]); };
  auto evaluated = [&](std::size_t k) { return k < count && values[k].has_value(); };
  switch (stage_) {
    case FitStage::a_priori:
      result_.a_priori_evaluation = value(0);
      if (evaluated(0)) consider(result_.a_priori_evaluation);
      if (settings_.grid > 0) stage_ = FitStage::sweep;
      else end_sweep();
      break;
    case FitStage::sweep:
      for (std::size_t k = 0; k < asked_.size(); ++k, ++next_sweep_) {
        const Evaluation e = value(k);
        result_.sweep[next_sweep_] = e;
        if (!evaluated(k)) continue;
        consider(e);
        const Evaluation& best = result_.sweep_best >= 0 ? result_.sweep[result_.sweep_best] : e;
        if (result_.sweep_best < 0 || (e.ok && e.mean_error_cm < best.mean_error_cm)) result_.sweep_best = next_sweep_;
      }
      if (next_sweep_ == settings_.grid * settings_.grid) end_sweep();
      break;
    case FitStage::mu_line:
      for (std::size_t k = 0; k < asked_.size(); ++k, ++next_mu_) {
        result_.mu_line[next_mu_] = value(k);
        if (evaluated(k)) consider(result_.mu_line[next_mu_]);
      }
      if (next_mu_ == settings_.mu_grid) start_refinement();
      break;
    case FitStage::refine:
      if (!asked_.empty() && evaluated(0)) {
        const Evaluation e = value(0);
        consider(e);
        refine_->tell(e.ok ? e.mean_error_cm : std::numeric_limits<double>::infinity());
      }
      break;
    case FitStage::final_evaluation:
    case FitStage::done:
      break;
  }
  asked_.clear();
}

int FitJob::stage_position() const {
  switch (stage_) {
    case FitStage::sweep: return next_sweep_;
    case FitStage::mu_line: return next_mu_;
    case FitStage::refine: return refine_evaluations();
    default: return 0;
  }
}

bool FitJob::finish_pending() {
  if (stage_ == FitStage::final_evaluation && !result_.finished) finish();
  return result_.finished;
}

bool FitJob::advance(int budget) {
  while (budget > 0 && !result_.finished) {
    const bool batch = stage_ == FitStage::sweep || stage_ == FitStage::mu_line;
    const std::vector<FitPoint> points = ask(batch ? budget : 1);
    if (points.empty()) {
      finish_pending();
      break;
    }
    const std::vector<Evaluation> values = evaluate_points(*problem_, points, settings_.train, settings_.threads);
    tell(std::vector<std::optional<Evaluation>>(values.begin(), values.end()));
    budget -= static_cast<int>(points.size());
  }
  return result_.finished;
}

FitResult run_fit(std::shared_ptr<const FitProblem> problem, const FitSettings& settings,
                  const std::function<bool(const FitJob&)>& progress) {
  FitJob job(std::move(problem), settings);
  const int slice = std::max(1, settings.threads) * 4;
  while (!job.advance(job.stage() == FitStage::sweep || job.stage() == FitStage::mu_line ? slice : 1)) {
    if (progress && !progress(job)) job.cancel();
  }
  if (progress) progress(job);
  return job.result();
}

}  // namespace tela
