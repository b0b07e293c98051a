// A complete fit (thesis §4.2.2-4.2.3) as a resumable job: the a-priori point of Table 4.6,
// a sweep over (delta / rho, alpha / rho) in [0, 1] x [0, 4] on an N x N grid, a Nelder-Mead
// refinement from the best point so far, and a final evaluation on the testing window with
// per-frame errors. The objective is the time mean of e_i over the training window.
//
// Contact scenes (thesis §4.3: delta, alpha and mu fitted together): when the problem has
// obstacles and mu is fitted, the sweep runs at the starting mu, then a line of mu values in
// [0, mu_max] at the sweep's best (delta, alpha), and the refinement is three-dimensional.
// (Our choice: the thesis does not say how it searched; a full 3-D grid would cost N^2 M
// contact simulations.)
//
// The job asks for points and is told their evaluations (ask/tell): advance() evaluates what
// it asks on `settings.threads` threads, and the page hands the same points to several
// workers (wasm/bindings/bind_fit.cpp). The sweep's and the mu line's points are
// independent; they are considered in index order whoever evaluates them, so results depend
// neither on the number of threads or workers nor on timing. advance() does a bounded amount
// of work and returns, so callers can report progress and honour a cancel between calls. A
// cancelled job still reports the best parameters found so far.
#pragma once

#include "fit/a_priori.h"
#include "fit/fit_problem.h"
#include "fit/fit_settings.h"
#include "fit/nelder_mead.h"

#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tela {

enum class FitStage { a_priori, sweep, mu_line, refine, final_evaluation, done };
const char* to_string(FitStage stage);

struct FitResult {
  double rho = 0;
  double delta_ratio = 0, alpha_ratio = 0;   // the fit: delta / rho, alpha / rho
  double train_error_cm = 0;                 // objective at the fit
  double test_error_cm = 0, test_sd_cm = 0;  // time means of e_i, s_i on the testing window
  APrioriEstimate a_priori;                  // eq. 4.6 (absolute delta, alpha)
  Evaluation a_priori_evaluation;            // at the a-priori ratios, clamped into the box
  std::vector<Evaluation> sweep;             // grid x grid, index i * grid + j: delta_i, alpha_j
  int sweep_best = -1;                       // index of the sweep's minimum
  double mu = std::numeric_limits<double>::quiet_NaN();  // the fitted (or fixed) friction; NaN: no obstacles
  bool mu_fitted = false;
  std::vector<Evaluation> mu_line;           // mu_grid points, mu_k = mu_max k / (mu_grid - 1)
  std::vector<FrameError> test_frames;       // e_i, s_i of every testing-window step
  int evaluations = 0;                       // simulations run
  bool cancelled = false;
  bool finished = false;
};

class FitJob {
 public:
  FitJob(std::shared_ptr<const FitProblem> problem, const FitSettings& settings);

  // Runs at most `budget` evaluations (the sweep runs them `settings.threads` at a time) and
  // returns true once the job is finished or cancelled.
  bool advance(int budget);

  // The points to evaluate next on the training window: the start point, up to `max` sweep or
  // mu-line points (in index order), or one refinement point. Asking again before telling
  // returns the same points. Empty once only the final evaluation is left (finish_pending()
  // runs it) or the job is done.
  const std::vector<FitPoint>& ask(int max);
  // The evaluations of the points last asked, in their order; nullopt marks a point that was
  // not evaluated (a batch cut short by a cancel: recorded as not evaluated, not counted).
  void tell(const std::vector<std::optional<Evaluation>>& values);
  // Runs the final evaluation (on the testing window, with per-frame errors) when only that is
  // left; returns finished().
  bool finish_pending();
  const FitPoint& best_point() const { return best_; }
  double best_error_cm() const { return best_value_; }
  int refine_evaluations() const { return refine_ ? refine_->evaluations() : 0; }
  // where the next points asked start within their stage: sweep point i * grid + j, mu-line
  // point k, refinement evaluation n (0 for the start point)
  int stage_position() const;
  void cancel();
  bool finished() const { return result_.finished; }
  FitStage stage() const { return stage_; }
  double progress() const;               // 0 .. 1
  int planned_evaluations() const;       // the total advance() expects (refinement at its budget)
  const FitResult& result() const { return result_; }
  const FitProblem& problem() const { return *problem_; }

 private:
  void consider(const Evaluation& e);
  FitPoint sweep_point(int k) const;
  static Evaluation not_evaluated(const FitPoint& p);
  void end_sweep();
  void start_refinement();
  void finish();
  bool fits_mu() const;

  std::shared_ptr<const FitProblem> problem_;
  FitSettings settings_;
  FitStage stage_ = FitStage::a_priori;
  FitResult result_;
  int next_sweep_ = 0;
  int next_mu_ = 0;
  std::unique_ptr<NelderMead> refine_;
  std::vector<FitPoint> asked_;  // points asked and not yet told
  double best_value_;
  FitPoint best_;
};

// Evaluates the points on `threads` threads; results in input order.
std::vector<Evaluation> evaluate_points(const FitProblem& problem, const std::vector<FitPoint>& points,
                                        const Window& window, int threads);

// Runs a whole fit; `progress(job)` is called after each slice of work and may return false
// to cancel.
FitResult run_fit(std::shared_ptr<const FitProblem> problem, const FitSettings& settings,
                  const std::function<bool(const FitJob&)>& progress = {});

}  // namespace tela
