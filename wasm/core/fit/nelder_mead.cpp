#include "fit/nelder_mead.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tela {

NelderMead::NelderMead(const Eigen::VectorXd& start, const Eigen::VectorXd& step, const Eigen::VectorXd& lower,
                       const Eigen::VectorXd& upper, const NelderMeadSettings& settings)
    : lower_(lower), upper_(upper), settings_(settings), best_value_(std::numeric_limits<double>::infinity()) {
  const Eigen::Index n = start.size();
  const Eigen::VectorXd range = upper - lower;
  const Eigen::VectorXd u0 = clamp((start - lower).cwiseQuotient(range));
  simplex_.push_back(u0);
  for (Eigen::Index d = 0; d < n; ++d) {
    Eigen::VectorXd u = u0;
    const double h = step[d] / range[d];
    // step towards the inside of the box
    u[d] = u0[d] + h <= 1.0 ? u0[d] + h : u0[d] - h;
    simplex_.push_back(clamp(u));
  }
  values_.assign(simplex_.size(), 0.0);
  best_u_ = u0;
  trial_ = simplex_[0];
}

Eigen::VectorXd NelderMead::clamp(const Eigen::VectorXd& u) const { return u.cwiseMax(0.0).cwiseMin(1.0); }

Eigen::VectorXd NelderMead::to_problem(const Eigen::VectorXd& u) const {
  return lower_ + u.cwiseProduct(upper_ - lower_);
}

bool NelderMead::done() const { return converged_ || evaluations_ >= settings_.max_evaluations; }

Eigen::VectorXd NelderMead::ask() const { return to_problem(trial_); }

Eigen::VectorXd NelderMead::best_point() const { return to_problem(best_u_); }

void NelderMead::order() {
  std::vector<int> idx(simplex_.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return values_[a] < values_[b]; });
  std::vector<Eigen::VectorXd> s;
  std::vector<double> v;
  for (int i : idx) {
    s.push_back(simplex_[i]);
    v.push_back(values_[i]);
  }
  simplex_ = std::move(s);
  values_ = std::move(v);
}

void NelderMead::start_iteration() {
  order();
  const std::size_t n = simplex_.size() - 1;
  double diameter = 0;
  for (std::size_t i = 1; i <= n; ++i) diameter = std::max(diameter, (simplex_[i] - simplex_[0]).cwiseAbs().maxCoeff());
  if (diameter < settings_.x_tolerance && values_[n] - values_[0] < settings_.f_tolerance) {
    converged_ = true;
    return;
  }
  centroid_ = Eigen::VectorXd::Zero(simplex_[0].size());
  for (std::size_t i = 0; i < n; ++i) centroid_ += simplex_[i];
  centroid_ /= static_cast<double>(n);
  phase_ = Phase::reflect;
  trial_ = clamp(centroid_ + (centroid_ - simplex_[n]));
}

void NelderMead::accept(const Eigen::VectorXd& u, double f) {
  simplex_.back() = u;
  values_.back() = f;
  start_iteration();
}

void NelderMead::tell(double f) {
  if (!(f == f)) f = std::numeric_limits<double>::infinity();
  ++evaluations_;
  if (f < best_value_) {
    best_value_ = f;
    best_u_ = trial_;
  }
  const std::size_t n = simplex_.size() - 1;
  switch (phase_) {
    case Phase::initial:
      values_[pending_] = f;
      if (++pending_ <= static_cast<int>(n)) {
        trial_ = simplex_[pending_];
      } else {
        start_iteration();
      }
      return;
    case Phase::reflect:
      if (f < values_[0]) {
        reflected_ = trial_;
        reflected_value_ = f;
        phase_ = Phase::expand;
        trial_ = clamp(centroid_ + 2.0 * (centroid_ - simplex_[n]));
      } else if (f < values_[n - 1]) {
        accept(trial_, f);
      } else {
        reflected_ = trial_;
        reflected_value_ = f;
        if (f < values_[n]) {
          phase_ = Phase::contract_outside;
          trial_ = clamp(centroid_ + 0.5 * (reflected_ - centroid_));
        } else {
          phase_ = Phase::contract_inside;
          trial_ = clamp(centroid_ + 0.5 * (simplex_[n] - centroid_));
        }
      }
      return;
    case Phase::expand:
      if (f < reflected_value_) accept(trial_, f);
      else accept(reflected_, reflected_value_);
      return;
    case Phase::contract_outside:
    case Phase::contract_inside: {
      const double bar = phase_ == Phase::contract_outside ? reflected_value_ : values_[n];
      if (f <= bar && f < values_[n]) {
        accept(trial_, f);
      } else {
        phase_ = Phase::shrink;
        for (std::size_t i = 1; i <= n; ++i) simplex_[i] = simplex_[0] + 0.5 * (simplex_[i] - simplex_[0]);
        pending_ = 1;
        trial_ = simplex_[1];
      }
      return;
    }
    case Phase::shrink:
      values_[pending_] = f;
      if (++pending_ <= static_cast<int>(n)) trial_ = simplex_[pending_];
      else start_iteration();
      return;
  }
}

}  // namespace tela
