// A convex quadratic program with a diagonal metric, the form of every per-iteration problem
// of the contact step (thesis eq. 3.4):
//
//   minimize    1/2 x^T M x - f^T x  +  1/(2 sigma) |E x - e|^2
//   subject to  E x = e        (when sigma = 0; else the term above relaxes it)
//               A x >= b
//
// M is diagonal and positive. With sigma > 0 the equalities are regularized (the
// Levenberg-Marquardt shift of the cloth projection, cloth/projection.h): the multipliers
// then satisfy E x - e = -sigma y. Both solvers (qp/active_set.h, qp/interior_point.h) solve
// exactly this problem, so they can be compared.
//
// Optimality (KKT) with multipliers y (equalities, free sign) and z (inequalities):
//   M x - f - E^T y - A^T z = 0,   E x - e + sigma y = 0,   A x - b >= 0,   z >= 0,
//   z_k (A x - b)_k = 0.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <vector>

namespace tela {

using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor>;

struct QpProblem {
  Eigen::VectorXd mass;        // n, diagonal of M, > 0
  Eigen::VectorXd linear;      // n, f
  SparseRows equality;         // m_e by n, E
  Eigen::VectorXd equality_rhs;  // m_e, e
  double equality_shift = 0;   // sigma >= 0
  SparseRows inequality;       // m_i by n, A
  Eigen::VectorXd inequality_rhs;  // m_i, b

  int variables() const { return static_cast<int>(mass.size()); }
  int equalities() const { return static_cast<int>(equality.rows()); }
  int inequalities() const { return static_cast<int>(inequality.rows()); }
};

enum class QpStatus {
  converged,       // KKT conditions hold to the solver's tolerances
  max_iterations,  // the iteration cap was reached; the last iterate is returned
  infeasible,      // no point satisfies the constraints (detected, not guessed)
  non_finite,      // NaN or infinity appeared
  singular,        // the equality rows are linearly dependent (sigma = 0) or the data is degenerate
};

const char* to_string(QpStatus status);

struct QpSolution {
  QpStatus status = QpStatus::converged;
  Eigen::VectorXd x;                     // n
  Eigen::VectorXd equality_multipliers;  // m_e, y
  Eigen::VectorXd inequality_multipliers;  // m_i, z (0 off the active set)
  std::vector<int> active;               // indices of the inequalities in the final working set
  int iterations = 0;
};

// The four KKT residuals of `solution` for `problem`, in absolute terms (max norms).
struct KktResiduals {
  double stationarity = 0;       // |M x - f - E^T y - A^T z|
  double equality = 0;           // |E x - e + sigma y|
  double primal_violation = 0;   // max(0, max_k (b - A x)_k)
  double dual_violation = 0;     // max(0, max_k -z_k)
  double complementarity = 0;    // max_k |z_k (A x - b)_k|
};

KktResiduals kkt_residuals(const QpProblem& problem, const QpSolution& solution);

// 1/2 x^T M x - f^T x + 1/(2 sigma) |E x - e|^2 (the last term only when sigma > 0).
double qp_objective(const QpProblem& problem, const Eigen::VectorXd& x);

}  // namespace tela
