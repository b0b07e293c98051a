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
  factor_ = std::make_unique<Eigen::SimplicialLLT<Eigen::SparseMatrix<double>, Eigen::Lower>>();
  factor_->analyzePattern(system_);
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

ProjectionReport Projector::project(const ClothModel& model, Positions& positions, double tolerance,
                                    int max_iterations) {
  if (!ready_) setup(model);
  const ConstraintSet& set = model.constraints;
  const int rows = set.rows();
  const int n = model.node_count();
  ProjectionReport report;
  if (rows == 0) return report;

  for (int iteration = 0;; ++iteration) {
    constraint_gradients(set, positions, gradient_);
    constraint_values(set, positions, gradient_, values_);
    report.iterations = iteration;
    report.error = relative_error(set, values_);
    if (!std::isfinite(report.error)) {
      report.status = ProjectionStatus::non_finite;
      return report;
    }
    if (report.error <= tolerance) {
      report.status = ProjectionStatus::converged;
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
    assemble(model);

    // J W J^T is singular on exactly flat states (MATH.md §8); a tiny diagonal shift is added
    // only when the factorization fails, and raised until it succeeds. The converged result
    // still satisfies the constraints to the tolerance.
    factor_->setShift(regularization_);
    factor_->factorize(system_);
    double diagonal_mean = system_.diagonal().mean();
    while (factor_->info() != Eigen::Success) {
      regularization_ = regularization_ == 0 ? 1e-12 * diagonal_mean : regularization_ * 100;
      if (regularization_ > 1e-2 * diagonal_mean) {
        report.status = ProjectionStatus::singular;
        return report;
      }
      factor_->setShift(regularization_);
      factor_->factorize(system_);
    }
    lambda_ = factor_->solve(rhs_);

    // dx_k = -(1/m_k) sum over rows r touching k of grad~_r,k dlambda_r
    for (int k = 0; k < n; ++k) {
      if (node_entry_start_[k] == node_entry_start_[k + 1]) continue;
      Eigen::RowVector3d step = Eigen::RowVector3d::Zero();
      for (int a = node_entry_start_[k]; a < node_entry_start_[k + 1]; ++a) {
        const int e = node_entries_[a];
        step += gradient_.row(e) * lambda_[entry_row_[e]];
      }
      positions.row(k) -= step / model.lumped_area[k];
    }
  }
}

}  // namespace tela
