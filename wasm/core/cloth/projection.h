// Fast projection (thesis §2.6.1, Goldenthal et al.): the closest point in the mass metric
// that satisfies the inextensibility constraints,
//   min (x - x0)^T M (x - x0)  s.t.  C(x) = 0,
// by a sequence of linearized problems  (J W J^T) dlambda = C,  dx = -W J^T dlambda,
// W = M^-1 on free dofs and 0 on controlled ones (prescribed nodes do not move).
//
// Rows are scaled by 1/s_r (constraints.h) so that the system is well scaled; this does not
// change the step. The sparsity of J W J^T never changes, so its symbolic factorization and
// the assembly plan are computed once per model. Numeric factorizations are rare: they
// precondition conjugate gradients over many later iterations, substeps and steps (see
// below). The matrix factorized last is state (cloth/state.h, Preconditioner): the Projector
// only keeps its factorization, made again from the state's matrix when it has none of it.
#pragma once

#include "cloth/model.h"
#include "cloth/state.h"
#include "linalg/supernodal_cholesky.h"

#include <Eigen/SparseCore>
#include <vector>

namespace tela {

enum class ProjectionStatus {
  converged,
  max_iterations,
  too_far,  // the starting error exceeded the caller's limit; nothing was iterated
  non_finite,
  singular,
};

struct ProjectionReport {
  ProjectionStatus status = ProjectionStatus::converged;
  int iterations = 0;
  double error = 0;        // final max relative constraint error
  double start_error = 0;  // the same before the first iteration
};

// Work counters, for benchmarks and tests.
struct ProjectorStats {
  long factorizations = 0;
  long inner_iterations = 0;  // preconditioned conjugate-gradient iterations
};

class Projector {
 public:
  // Each Newton system is solved by conjugate gradients preconditioned with the last
  // factorization (of an earlier iteration or substep), until every row's linearized
  // relative error is below max(kInnerTolerance * tolerance, kInnerForcing * current error);
  // after kMaxInnerIterations the current matrix is factorized instead. Tuned on the hang
  // scenes (a factorization costs about 50 inner iterations there).
  static constexpr double kShift = 1e-3;
  static constexpr double kInnerTolerance = 0.5;
  static constexpr double kInnerForcing = 0.1;
  static constexpr int kMaxInnerIterations = 6;
  ProjectorStats stats;

  // Analyses the sparsity of J W J^T for `model` (once).
  void setup(const ClothModel& model);

  // Projects `positions` in place (rows of controlled nodes are not changed). When the
  // starting relative error exceeds `max_start_error` it returns too_far without iterating
  // (report.error is then only known to exceed it). `preconditioner` (the state's) is used and
  // replaced when the projection factorizes; one Projector serves one model.
  ProjectionReport project(const ClothModel& model, Preconditioner& preconditioner, Positions& positions,
                           double tolerance, int max_iterations, double max_start_error = 1e300);

 private:
  using RowGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
  void assemble(const ClothModel& model);
  bool factorize(Preconditioner& preconditioner);
  void adopt(const Preconditioner& preconditioner);
  void apply_system(const Eigen::VectorXd& y, Eigen::VectorXd& out) const;
  bool solve_preconditioned(double tolerance);
  void precondition(const Eigen::VectorXd& in, Eigen::VectorXd& out);

  bool ready_ = false;
  // per free node k: the gradient entries (rows of `gradient_`) that involve it, CSR
  std::vector<int> node_entry_start_;
  std::vector<int> node_entries_;
  std::vector<int> entry_row_;       // constraint row of each gradient entry
  // A = J W J^T, lower triangle, column-major; pair_value_ maps each (a, b) entry pair of a
  // node (row(a) >= row(b)) to its slot in A's value array, in assembly order
  Eigen::SparseMatrix<double> system_;
  std::vector<int> pair_value_;
  SupernodalCholesky factor_;
  std::shared_ptr<const std::vector<double>> factored_;  // the matrix factor_ factorizes, or null
  double shift_ = 0;
  Eigen::VectorXd inverse_area_;  // 1/m_k

  RowGradients gradient_;
  Eigen::VectorXd values_, rhs_, lambda_;
  Positions step_;
  Eigen::VectorXd cg_r_, cg_z_, cg_p_, cg_q_;
  std::vector<double> row_work_;
  // Where the next constraint pass starts (see constraint_gradients_values), and the same for
  // the convergence checks (constraint_error). Scratch, not state: a pass stops early only at
  // a row beyond its threshold, so where it starts changes only which such row it meets first.
  // The decisions (converged, too_far, non_finite) depend only on whether one exists, and a
  // pass that is not stopped computes every row; the one number that depends on the start,
  // the error of a too_far report, belongs to an attempt that the step rejects (cloth/step.cpp:
  // too_far never happens at the last subdivision level).
  int first_row_ = 0;
  int check_row_ = 0;
};

}  // namespace tela
