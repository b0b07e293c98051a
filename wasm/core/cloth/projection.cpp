#include "cloth/projection.h"

#include <algorithm>
#include <cmath>

namespace tela {

void Projector::setup(const ClothModel& model) {
  const ConstraintSet& set = model.constraints;
  const int rows = set.rows();
  const int entries = static_cast<int>(set.support.size());
  const int n = model.node_count();

  entry_row_.resize(entries);
  for (int r = 0; r < rows; ++r)
    for (int e = set.support_start[r]; e < set.support_start[r + 1]; ++e) entry_row_[e] = r;

  // gradient entries grouped by free node
  node_entry_start_.assign(n + 1, 0);
  for (int e = 0; e < entries; ++e)
    if (!model.controlled[set.support[e]]) ++node_entry_start_[set.support[e] + 1];
  for (int k = 0; k < n; ++k) node_entry_start_[k + 1] += node_entry_start_[k];
  node_entries_.resize(node_entry_start_[n]);
  std::vector<int> fill(node_entry_start_.begin(), node_entry_start_.end() - 1);
  for (int e = 0; e < entries; ++e)
    if (!model.controlled[set.support[e]]) node_entries_[fill[set.support[e]]++] = e;

  // sparsity of A = J W J^T (lower triangle): rows coupled through a shared free node
  std::vector<Eigen::Triplet<double>> pattern;
  for (int k = 0; k < n; ++k)
    for (int a = node_entry_start_[k]; a < node_entry_start_[k + 1]; ++a)
      for (int b = node_entry_start_[k]; b < node_entry_start_[k + 1]; ++b) {
        const int ra = entry_row_[node_entries_[a]], rb = entry_row_[node_entries_[b]];
        if (ra >= rb) pattern.emplace_back(ra, rb, 0.0);
      }
  system_.resize(rows, rows);
  system_.setFromTriplets(pattern.begin(), pattern.end());
  system_.makeCompressed();

  // the slot of every pair, in the order assemble() visits them
  pair_value_.clear();
  pair_value_.reserve(pattern.size());
  const int* outer = system_.outerIndexPtr();
  const int* inner = system_.innerIndexPtr();
  for (const auto& t : pattern) {
    const int* begin = inner + outer[t.col()];
    const int* end = inner + outer[t.col() + 1];
    pair_value_.push_back(static_cast<int>(std::lower_bound(begin, end, t.row()) - inner));
  }
  factor_.analyze(system_);
  inverse_area_.resize(n);
  for (int k = 0; k < n; ++k) inverse_area_[k] = 1.0 / model.lumped_area[k];
  ready_ = true;
}

void Projector::assemble(const ClothModel& model) {
  double* value = system_.valuePtr();
  std::fill(value, value + system_.nonZeros(), 0.0);
  const int n = model.node_count();
  std::size_t p = 0;
  for (int k = 0; k < n; ++k) {
    const double w = 1.0 / model.lumped_area[k];
    for (int a = node_entry_start_[k]; a < node_entry_start_[k + 1]; ++a) {
      const int ea = node_entries_[a];
      const double* ga = gradient_.data() + 3 * ea;
      const int ra = entry_row_[ea];
      for (int b = node_entry_start_[k]; b < node_entry_start_[k + 1]; ++b) {
        const int eb = node_entries_[b];
        if (ra < entry_row_[eb]) continue;
        const double* gb = gradient_.data() + 3 * eb;
        value[pair_value_[p++]] += w * (ga[0] * gb[0] + ga[1] * gb[1] + ga[2] * gb[2]);
      }
    }
  }
}

bool Projector::factorize(Preconditioner& preconditioner) {
  // Levenberg-Marquardt shift: (A + mu I) dlambda = C with mu = kShift * mean diag(A). A is
  // nearly singular wherever the cloth is flat or an edge is taut (more metric constraints
  // than in-plane freedoms, docs/math.md §8); the shift bounds the step in those directions and
  // keeps the factorization a good preconditioner over many later solves. It changes the
  // path of the iteration, never the constraints it converges to. Should the factorization
  // still fail, the shift grows tenfold, at most kShiftIncreases times (to 10 mean diag(A)).
  // A counted loop: a shift compared with a cap would never end when the mean is NaN, 0 or
  // infinite.
  // The matrix factorized (with its shift) becomes the state's preconditioner; a failed
  // factorization leaves none.
  ++stats.factorizations;
  constexpr int kShiftIncreases = 4;
  shift_ = kShift * system_.diagonal().mean();
  for (int increase = 0; !factor_.factorize(system_, shift_); ++increase) {
    if (increase == kShiftIncreases) {
      factored_.reset();
      preconditioner = Preconditioner{};
      return false;
    }
    shift_ *= 10;
  }
  factored_ = std::make_shared<const std::vector<double>>(system_.valuePtr(), system_.valuePtr() + system_.nonZeros());
  preconditioner = Preconditioner{factored_, shift_};
  return true;
}

void Projector::adopt(const Preconditioner& preconditioner) {
  // the factorization of the same matrix with the same shift is the same, bit for bit
  if (factored_ == preconditioner.matrix) return;
  factored_.reset();
  if (!preconditioner.matrix || static_cast<Eigen::Index>(preconditioner.matrix->size()) != system_.nonZeros())
    return;
  std::copy(preconditioner.matrix->begin(), preconditioner.matrix->end(), system_.valuePtr());
  shift_ = preconditioner.shift;
  ++stats.factorizations;
  if (factor_.factorize(system_, shift_)) factored_ = preconditioner.matrix;
}

void Projector::apply_system(const Eigen::VectorXd& y, Eigen::VectorXd& out) const {
  // (J~ W J~^T) y without forming the matrix: u_k = (1/m_k) sum_e g~_e y_row(e), then
  // out_r = sum_e g~_e . u_node(e)
  out.setZero(y.size());
  const int n = static_cast<int>(node_entry_start_.size()) - 1;
  for (int k = 0; k < n; ++k) {
    const int begin = node_entry_start_[k], end = node_entry_start_[k + 1];
    if (begin == end) continue;
    Eigen::RowVector3d u = Eigen::RowVector3d::Zero();
    for (int a = begin; a < end; ++a) u += gradient_.row(node_entries_[a]) * y[entry_row_[node_entries_[a]]];
    u *= inverse_area_[k];
    for (int a = begin; a < end; ++a)
      out[entry_row_[node_entries_[a]]] += gradient_.row(node_entries_[a]).dot(u);
  }
}

void Projector::precondition(const Eigen::VectorXd& in, Eigen::VectorXd& out) {
  factor_.solve(in, out);
}

bool Projector::solve_preconditioned(double tolerance) {
  // the scaled residual of row r is that row's relative constraint error after the
  // linearized step, so the inner solve only needs it well below the outer tolerance
  // Inexact Newton (Eisenstat-Walker style): early iterations far from the tolerance only
  // need a rough step.
  const double target =
      std::max(kInnerTolerance * tolerance, kInnerForcing * rhs_.lpNorm<Eigen::Infinity>());
  lambda_.setZero(rhs_.size());
  cg_r_ = rhs_;
  precondition(cg_r_, cg_z_);
  cg_p_ = cg_z_;
  double rz = cg_r_.dot(cg_z_);
  for (int i = 0; i < kMaxInnerIterations; ++i) {
    ++stats.inner_iterations;
    apply_system(cg_p_, cg_q_);
    cg_q_ += shift_ * cg_p_;
    const double step = rz / cg_p_.dot(cg_q_);
    lambda_ += step * cg_p_;
    cg_r_ -= step * cg_q_;
    if (cg_r_.lpNorm<Eigen::Infinity>() <= target) return true;
    precondition(cg_r_, cg_z_);
    const double rz_next = cg_r_.dot(cg_z_);
    cg_p_ = cg_z_ + (rz_next / rz) * cg_p_;
    rz = rz_next;
  }
  return false;
}

ProjectionReport Projector::project(const ClothModel& model, Preconditioner& preconditioner, Positions& positions,
                                    double tolerance, int max_iterations, double max_start_error) {
  if (!ready_) setup(model);
  const ConstraintSet& set = model.constraints;
  const int rows = set.rows();
  const int n = model.node_count();
  ProjectionReport report;
  if (rows == 0) return report;
  adopt(preconditioner);

  for (int iteration = 0;; ++iteration) {
    report.iterations = iteration;
    // after a Newton step the projection has usually converged: the constraint values alone
    // (without gradients, about half the work) show it; the pass stops at the first row
    // beyond the tolerance (starting with the row that stopped the last one)
    if (iteration > 0) {
      const double error = constraint_error(set, positions, row_work_, tolerance, &check_row_);
      if (error <= tolerance) {
        report.error = error;
        report.status = ProjectionStatus::converged;
        return report;
      }
    }
    // the starting error is only compared with max_start_error: this pass may stop at the
    // first row beyond it too
    report.error = constraint_gradients_values(set, positions, gradient_, values_, row_work_,
                                               iteration == 0 ? max_start_error : 1e300, &first_row_);
    if (!std::isfinite(report.error)) {
      report.status = ProjectionStatus::non_finite;
      return report;
    }
    if (report.error <= tolerance) {
      report.status = ProjectionStatus::converged;
      return report;
    }
    if (iteration == 0) report.start_error = report.error;
    if (iteration == 0 && report.error > max_start_error) {
      report.status = ProjectionStatus::too_far;
      return report;
    }
    if (iteration == max_iterations) {
      report.status = ProjectionStatus::max_iterations;
      return report;
    }

    // scaled rows: J~ = J / s, c~ = C / s
    rhs_.resize(rows);
    for (int r = 0; r < rows; ++r) {
      const double inv = 1.0 / set.scale[r];
      rhs_[r] = values_[r] * inv;
      for (int e = set.support_start[r]; e < set.support_start[r + 1]; ++e) gradient_.row(e) *= inv;
    }

    // Newton step: (J W J^T) dlambda = C. The factorization of an earlier J W J^T (an
    // earlier iteration or substep) preconditions conjugate gradients on the current system;
    // when they do not converge quickly the current matrix is factorized.
    if (!(factored_ && solve_preconditioned(tolerance))) {
      assemble(model);
      if (!factorize(preconditioner)) {
        report.status = ProjectionStatus::singular;
        return report;
      }
      if (!solve_preconditioned(tolerance)) precondition(rhs_, lambda_);
    }

    // dx_k = -(1/m_k) sum over rows r touching k of grad~_r,k dlambda_r
    step_.setZero(n, 3);
    for (int k = 0; k < n; ++k) {
      for (int a = node_entry_start_[k]; a < node_entry_start_[k + 1]; ++a) {
        const int e = node_entries_[a];
        step_.row(k) -= gradient_.row(e) * lambda_[entry_row_[e]];
      }
      step_.row(k) /= model.lumped_area[k];
    }
    positions += step_;
  }
}

}  // namespace tela
