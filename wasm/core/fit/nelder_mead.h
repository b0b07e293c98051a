// Nelder-Mead simplex minimization in a box, in ask/tell form so that a driver can evaluate
// the points wherever it likes (a thread, a worker, one per call of a stepping API).
// Standard coefficients: reflection 1, expansion 2, contraction 1/2, shrink 1/2; points are
// clamped into the box. Works in coordinates scaled to the unit box.
#pragma once

#include <Eigen/Core>
#include <vector>

namespace tela {

struct NelderMeadSettings {
  int max_evaluations = 40;
  double x_tolerance = 2e-3;   // simplex diameter in unit-box coordinates
  double f_tolerance = 1e-4;   // spread of the simplex values
};

class NelderMead {
 public:
  // start and initial step in the problem's coordinates; lower < upper per dimension
  NelderMead(const Eigen::VectorXd& start, const Eigen::VectorXd& step, const Eigen::VectorXd& lower,
             const Eigen::VectorXd& upper, const NelderMeadSettings& settings = {});

  bool done() const;
  Eigen::VectorXd ask() const;   // the point to evaluate next (precondition: !done())
  void tell(double value);       // its value (+infinity for a failed evaluation)

  int evaluations() const { return evaluations_; }
  Eigen::VectorXd best_point() const;
  double best_value() const { return best_value_; }

 private:
  enum class Phase { initial, reflect, expand, contract_outside, contract_inside, shrink };
  Eigen::VectorXd to_problem(const Eigen::VectorXd& u) const;
  Eigen::VectorXd clamp(const Eigen::VectorXd& u) const;
  void order();
  void start_iteration();
  void accept(const Eigen::VectorXd& u, double f);

  Eigen::VectorXd lower_, upper_;
  NelderMeadSettings settings_;
  std::vector<Eigen::VectorXd> simplex_;  // unit-box coordinates, sorted by value once initialized
  std::vector<double> values_;
  Phase phase_ = Phase::initial;
  int pending_ = 0;                 // index of the vertex being evaluated (initial, shrink)
  Eigen::VectorXd centroid_, trial_, reflected_;
  double reflected_value_ = 0;
  int evaluations_ = 0;
  bool converged_ = false;
  Eigen::VectorXd best_u_;
  double best_value_;
};

}  // namespace tela
