#include "qp/qp_problem.h"

#include <algorithm>

namespace tela {

const char* to_string(QpStatus status) {
  switch (status) {
    case QpStatus::converged: return "converged";
    case QpStatus::max_iterations: return "max_iterations";
    case QpStatus::infeasible: return "infeasible";
    case QpStatus::non_finite: return "non_finite";
    case QpStatus::singular: return "singular";
  }
  return "unknown";
}

KktResiduals kkt_residuals(const QpProblem& problem, const QpSolution& solution) {
  const Eigen::VectorXd& x = solution.x;
  const Eigen::VectorXd& y = solution.equality_multipliers;
  const Eigen::VectorXd& z = solution.inequality_multipliers;
  KktResiduals r;
  Eigen::VectorXd gradient = problem.mass.cwiseProduct(x) - problem.linear;
  if (problem.equalities() > 0) {
    gradient -= problem.equality.transpose() * y;
    const Eigen::VectorXd e = problem.equality * x - problem.equality_rhs + problem.equality_shift * y;
    r.equality = e.lpNorm<Eigen::Infinity>();
  }
  if (problem.inequalities() > 0) {
    gradient -= problem.inequality.transpose() * z;
    const Eigen::VectorXd slack = problem.inequality * x - problem.inequality_rhs;
    for (int k = 0; k < problem.inequalities(); ++k) {
      r.primal_violation = std::max(r.primal_violation, -slack[k]);
      r.dual_violation = std::max(r.dual_violation, -z[k]);
      r.complementarity = std::max(r.complementarity, std::abs(z[k] * slack[k]));
    }
  }
  r.stationarity = gradient.lpNorm<Eigen::Infinity>();
  return r;
}

double qp_objective(const QpProblem& problem, const Eigen::VectorXd& x) {
  double value = 0.5 * x.dot(problem.mass.cwiseProduct(x)) - problem.linear.dot(x);
  if (problem.equality_shift > 0 && problem.equalities() > 0)
    value += 0.5 / problem.equality_shift * (problem.equality * x - problem.equality_rhs).squaredNorm();
  return value;
}

}  // namespace tela
