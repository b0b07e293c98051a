#include "qp/active_set.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace tela {

namespace {

double row_dot(const SparseRows& a, int k, const Eigen::VectorXd& v) {
  double sum = 0;
  for (SparseRows::InnerIterator it(a, k); it; ++it) sum += it.value() * v[it.col()];
  return sum;
}

// Dense kernels as plain loops: Eigen's blocked products and factorizations pick their
// blocking from the machine's cache sizes, which would break native/wasm bit-identity.

// v -= B^T y, or v += B^T y  (B: rows by cols, v: cols)
void subtract_transpose_product(const Eigen::MatrixXd& B, const Eigen::VectorXd& y, Eigen::VectorXd& v,
                                bool add = false) {
  for (Eigen::Index c = 0; c < B.cols(); ++c) {
    double sum = 0;
    for (Eigen::Index r = 0; r < B.rows(); ++r) sum += B(r, c) * y[r];
    if (add) v[c] += sum;
    else v[c] -= sum;
  }
}


// L v = v in place (L lower triangular)
void lower_solve(const Eigen::MatrixXd& L, Eigen::VectorXd& v) {
  for (Eigen::Index i = 0; i < L.rows(); ++i) {
    double sum = v[i];
    for (Eigen::Index j = 0; j < i; ++j) sum -= L(i, j) * v[j];
    v[i] = sum / L(i, i);
  }
}

// L^T v = v in place
void upper_solve(const Eigen::MatrixXd& L, Eigen::VectorXd& v) {
  for (Eigen::Index i = L.rows() - 1; i >= 0; --i) {
    double sum = v[i];
    for (Eigen::Index j = i + 1; j < L.rows(); ++j) sum -= L(j, i) * v[j];
    v[i] = sum / L(i, i);
  }
}

// L' L'^T = (L L^T) without row and column j, in place (L lower triangular): row j is
// dropped and the extra superdiagonal this leaves below it is rotated away (Givens)
void delete_factor_row(Eigen::MatrixXd& L, Eigen::Index j) {
  const Eigen::Index p = L.rows();
  for (Eigen::Index c = j; c + 1 < p; ++c) {
    const double a = L(c + 1, c), b = L(c + 1, c + 1);
    const double r = std::sqrt(a * a + b * b);
    if (r == 0) continue;
    const double cosine = a / r, sine = b / r;
    for (Eigen::Index i = c + 1; i < p; ++i) {
      const double u = L(i, c), v = L(i, c + 1);
      L(i, c) = cosine * u + sine * v;
      L(i, c + 1) = cosine * v - sine * u;
    }
  }
  for (Eigen::Index i = j; i + 1 < p; ++i) L.row(i).head(p - 1) = L.row(i + 1).head(p - 1);
  L.conservativeResize(p - 1, p - 1);
}

// the matrix without column j
void delete_column(Eigen::MatrixXd& B, Eigen::Index j) {
  for (Eigen::Index c = j; c + 1 < B.cols(); ++c) B.col(c) = B.col(c + 1);
  B.conservativeResize(B.rows(), B.cols() - 1);
}

// L L^T + v v^T = L' L'^T in place (L lower triangular; v is consumed)
void rank_one_update(Eigen::MatrixXd& L, Eigen::VectorXd v) {
  for (Eigen::Index k = 0; k < L.rows(); ++k) {
    const double r = std::sqrt(L(k, k) * L(k, k) + v[k] * v[k]);
    const double c = r / L(k, k), s = v[k] / L(k, k);
    L(k, k) = r;
    for (Eigen::Index i = k + 1; i < L.rows(); ++i) {
      L(i, k) = (L(i, k) + s * v[i]) / c;
      v[i] = c * v[i] - s * L(i, k);
    }
  }
}

// Appends the positions (a, b) of the variables rows r and c of a compressed row matrix share,
// in increasing variable order (the two rows' entries are sorted: merged)
void append_shared_terms(const int* outer, const int* inner, int r, int c, std::vector<std::pair<int, int>>& terms) {
  for (int a = outer[r], b = outer[c]; a < outer[r + 1] && b < outer[c + 1];) {
    if (inner[a] < inner[b]) ++a;
    else if (inner[b] < inner[a]) ++b;
    else terms.emplace_back(a++, b++);
  }
}

using RowRanges = std::vector<std::pair<int, int>>;

// The runs of non-zeros of v, joined across gaps of fewer than 16 zeros
RowRanges nonzero_ranges(const Eigen::VectorXd& v) {
  RowRanges ranges;
  const int n = static_cast<int>(v.size());
  for (int r = 0; r < n; ++r) {
    if (v[r] == 0) continue;
    if (!ranges.empty() && r - ranges.back().second < 16) ranges.back().second = r + 1;
    else ranges.emplace_back(r, r + 1);
  }
  return ranges;
}

// sum over r of B(r, c) v[r], in increasing r, B(r, c) zero outside `ranges`
double column_dot(const Eigen::MatrixXd& B, Eigen::Index c, const RowRanges& ranges, const Eigen::VectorXd& v) {
  const double* column = B.data() + c * B.rows();
  double sum = 0;
  for (const auto& [begin, end] : ranges)
    for (int r = begin; r < end; ++r) sum += column[r] * v[r];
  return sum;
}

// y -= B v, column by column (B zero outside each column's ranges)
void subtract_columns(const Eigen::MatrixXd& B, const std::vector<RowRanges>& ranges, const Eigen::VectorXd& v,
                      Eigen::VectorXd& y) {
  for (Eigen::Index c = 0; c < B.cols(); ++c) {
    const double* column = B.data() + c * B.rows();
    for (const auto& [begin, end] : ranges[c])
      for (int r = begin; r < end; ++r) y[r] -= column[r] * v[c];
  }
}

// v -= B^T y (B zero outside each column's ranges)
void subtract_column_dots(const Eigen::MatrixXd& B, const std::vector<RowRanges>& ranges, const Eigen::VectorXd& y,
                          Eigen::VectorXd& v) {
  for (Eigen::Index c = 0; c < B.cols(); ++c) v[c] -= column_dot(B, c, ranges[c], y);
}

}  // namespace

void ActiveSetSolver::stack_rows(const QpProblem& problem) {
  // [E; A_S] (as a product of Eigen's would store it: the rows' entries in order) and
  // [E; A_S] M^-1 on the same pattern, S = planned_; slot_ places each inequality in it
  const int me = problem.equalities(), mi = problem.inequalities();
  const int rows = me + static_cast<int>(planned_.size());
  slot_.assign(mi, -1);
  for (std::size_t i = 0; i < planned_.size(); ++i) slot_[planned_[i]] = me + static_cast<int>(i);
  int nnz = 0;
  for (int r = 0; r < me; ++r)
    for (SparseRows::InnerIterator it(problem.equality, r); it; ++it) ++nnz;
  for (int k : planned_)
    for (SparseRows::InnerIterator it(problem.inequality, k); it; ++it) ++nnz;
  base_rows_.resize(rows, problem.variables());
  base_rows_.resizeNonZeros(nnz);
  int* outer = base_rows_.outerIndexPtr();
  int* inner = base_rows_.innerIndexPtr();
  double* value = base_rows_.valuePtr();
  int e = 0;
  outer[0] = 0;
  for (int r = 0; r < rows; ++r) {
    const SparseRows& source = r < me ? problem.equality : problem.inequality;
    for (SparseRows::InnerIterator it(source, r < me ? r : planned_[r - me]); it; ++it, ++e) {
      inner[e] = static_cast<int>(it.col());
      value[e] = it.value();
    }
    outer[r + 1] = e;
  }
  base_rows_weighted_ = base_rows_;
  double* weighted = base_rows_weighted_.valuePtr();
  for (int p = 0; p < nnz; ++p) weighted[p] = value[p] * inverse_mass_[inner[p]];
}

void ActiveSetSolver::plan_equality_columns(int me) {
  const int* outer = base_rows_.outerIndexPtr();
  const int* inner = base_rows_.innerIndexPtr();
  EqualityPlan& eq = equality_plan_;
  if (static_cast<int>(eq.outer.size()) == me + 1 && std::equal(outer, outer + me + 1, eq.outer.begin()) &&
      std::equal(inner, inner + outer[me], eq.inner.begin(), eq.inner.end()))
    return;
  eq.outer.assign(outer, outer + me + 1);
  eq.inner.assign(inner, inner + outer[me]);
  eq.column_start.assign(1, 0);
  eq.rows.clear();
  eq.term_start.assign(1, 0);
  eq.terms.clear();
  std::vector<int> rows, mark(me, -1);
  for (int c = 0; c < me; ++c) {
    rows.assign(1, c);
    rows_sharing_variables(c, c + 1, me, mark, rows);
    std::sort(rows.begin(), rows.end());
    for (int r : rows) {
      eq.rows.push_back(r);
      append_shared_terms(outer, inner, r, c, eq.terms);
      eq.term_start.push_back(static_cast<int>(eq.terms.size()));
    }
    eq.column_start.push_back(static_cast<int>(eq.rows.size()));
  }
}

void ActiveSetSolver::rows_sharing_variables(int c, int first, int end, std::vector<int>& mark,
                                             std::vector<int>& rows) const {
  const int* outer = base_rows_.outerIndexPtr();
  const int* inner = base_rows_.innerIndexPtr();
  for (int p = outer[c]; p < outer[c + 1]; ++p) {
    const int* begin = variable_rows_.data() + variable_start_[inner[p]];
    const int* stop = variable_rows_.data() + variable_start_[inner[p] + 1];
    for (const int* q = std::lower_bound(begin, stop, first); q != stop && *q < end; ++q)
      if (mark[*q] != c) {
        mark[*q] = c;
        rows.push_back(*q);
      }
  }
}

void ActiveSetSolver::make_plan() {
  const int nb = static_cast<int>(base_rows_.rows()), n = static_cast<int>(base_rows_.cols());
  const int* outer = base_rows_.outerIndexPtr();
  const int* inner = base_rows_.innerIndexPtr();
  pattern_outer_.assign(outer, outer + nb + 1);
  pattern_inner_.assign(inner, inner + outer[nb]);
  // the rows of each variable, ascending
  variable_start_.assign(n + 1, 0);
  for (int p = 0; p < outer[nb]; ++p) ++variable_start_[inner[p] + 1];
  for (int k = 0; k < n; ++k) variable_start_[k + 1] += variable_start_[k];
  variable_rows_.resize(outer[nb]);
  std::vector<int> fill(variable_start_.begin(), variable_start_.end() - 1);
  for (int r = 0; r < nb; ++r)
    for (int p = outer[r]; p < outer[r + 1]; ++p) variable_rows_[fill[inner[p]]++] = r;
  touched_mark_.assign(nb, 0);
  touched_.clear();
  weighted_ = Eigen::VectorXd::Zero(n);

  // the lower triangle by columns c: the rows r >= c sharing a variable with c, and c itself
  // in increasing order, each with the shared variables' terms (the equality columns' part
  // among the equalities comes from equality_plan_)
  const int me = nb - static_cast<int>(planned_.size());
  plan_equality_columns(me);
  std::vector<int> column_outer(nb + 1, 0), column_inner, rows;
  std::vector<int> mark(nb, -1);
  term_start_.assign(1, 0);
  terms_.clear();
  const EqualityPlan& eq = equality_plan_;
  for (int c = 0; c < nb; ++c) {
    rows.clear();
    if (c < me) {
      for (int i = eq.column_start[c]; i < eq.column_start[c + 1]; ++i) {
        column_inner.push_back(eq.rows[i]);
        terms_.insert(terms_.end(), eq.terms.begin() + eq.term_start[i], eq.terms.begin() + eq.term_start[i + 1]);
        term_start_.push_back(static_cast<int>(terms_.size()));
      }
    } else {
      rows.push_back(c);
    }
    rows_sharing_variables(c, std::max(me, c + 1), nb, mark, rows);
    std::sort(rows.begin(), rows.end());
    for (int r : rows) {
      column_inner.push_back(r);
      append_shared_terms(outer, inner, r, c, terms_);
      term_start_.push_back(static_cast<int>(terms_.size()));
    }
    column_outer[c + 1] = static_cast<int>(column_inner.size());
  }
  base_system_.resize(nb, nb);
  base_system_.resizeNonZeros(column_outer[nb]);
  std::copy(column_outer.begin(), column_outer.end(), base_system_.outerIndexPtr());
  std::copy(column_inner.begin(), column_inner.end(), base_system_.innerIndexPtr());
  std::fill(base_system_.valuePtr(), base_system_.valuePtr() + column_outer[nb], 0.0);
  if (nb > 0) base_factor_.analyze(base_system_);
  ++stats.analyses;
  has_plan_ = true;
  factor_kept_ = false;  // the factor (if any) belongs to the old pattern
}

void ActiveSetSolver::start_signature(const QpProblem& problem, const std::vector<int>& start,
                                      std::vector<double>& signature) const {
  // each row's length, then its columns, values and the inverse masses there
  signature.clear();
  for (int k : start) {
    const std::size_t head = signature.size();
    signature.push_back(0);
    for (SparseRows::InnerIterator it(problem.inequality, k); it; ++it) {
      signature.push_back(static_cast<double>(it.col()));
      signature.push_back(it.value());
      signature.push_back(inverse_mass_[it.col()]);
    }
    signature[head] = static_cast<double>(signature.size() - head);
  }
}

void ActiveSetSolver::keep_start(const QpProblem& problem, const std::vector<int>& start) {
  if (start.empty()) return;
  kept_start_.generation = base_generation_;
  kept_start_.start = start;
  start_signature(problem, start, kept_start_.signature);
  kept_start_.appended = appended_;
  kept_start_.bordered = bordered_;
  kept_start_.bordered_ranges = bordered_ranges_;
  kept_start_.schur = schur_factor_;
}

bool ActiveSetSolver::restore_start(const QpProblem& problem, const std::vector<int>& start,
                                    std::vector<char>& working) {
  if (start.empty() || kept_start_.generation != base_generation_ || kept_start_.start != start) return false;
  start_signature(problem, start, signature_);
  if (signature_ != kept_start_.signature) return false;
  appended_ = kept_start_.appended;
  bordered_ = kept_start_.bordered;
  bordered_ranges_ = kept_start_.bordered_ranges;
  schur_factor_ = kept_start_.schur;
  bordered_masked_.resize(0, static_cast<Eigen::Index>(appended_.size()));
  // rows left out as dependent then are left out now
  for (int k : start) working[k] = 0;
  for (int k : appended_) working[k] = 1;
  ++stats.reused_starts;
  return true;
}

void ActiveSetSolver::set_plan(const ActiveSetPlan& plan) {
  // factor_base reads only which slots are set, then stacks the rows of S again
  planned_ = plan.rows;
  slot_.assign(plan.inequalities, -1);
  for (std::size_t i = 0; i < planned_.size(); ++i)
    if (planned_[i] >= 0 && planned_[i] < plan.inequalities) slot_[planned_[i]] = static_cast<int>(i);
  stacked_ = false;
}

void ActiveSetSolver::remember_inputs(double shift) {
  factored_shift_ = shift;
  const std::size_t row_entries = static_cast<std::size_t>(base_rows_.nonZeros());
  factored_values_.assign(base_rows_.valuePtr(), base_rows_.valuePtr() + row_entries);
  factored_weighted_.assign(base_rows_weighted_.valuePtr(), base_rows_weighted_.valuePtr() + row_entries);
  factored_inside_ = factored_inside_now_;
}

bool ActiveSetSolver::factor_base(const QpProblem& problem, const std::vector<int>& base) {
  base_ = base;
  appended_.clear();
  masked_.clear();
  const int me = problem.equalities(), mi = problem.inequalities();
  is_masked_.assign(mi, 0);
  in_base_.assign(mi, 0);
  for (int k : base_) in_base_[k] = 1;
  // The planned inequalities S hold the base; the rows of S outside it are decoupled. S is
  // the base of the last analysis while that holds the new base and exceeds it by at most
  // the equalities plus twice the base (the rows outside cost as much as working rows in
  // every factorization and solve), else the base itself. S is a set of row indices, so it
  // carries over from one QP to the next; the analysis is redone when the pattern of its
  // rows has changed. (Every candidate row in S, which spared analyses when bases changed
  // within a QP, made one analysis per change of the candidates: masking (see the header)
  // leaves few refactorizations within a QP, and an equalities-only base, the usual one
  // with a small warm start, now keeps one analysis for a whole run.)
  const std::size_t allowed = static_cast<std::size_t>(me) + 2 * base_.size() + 8;
  bool holds = static_cast<int>(slot_.size()) == mi && planned_.size() <= base_.size() + allowed;
  for (int k : base_) holds = holds && slot_[k] >= 0;
  if (!holds) planned_ = base_;
  if (!holds || !stacked_) {
    stack_rows(problem);
    stacked_ = true;
    const int rows = static_cast<int>(base_rows_.rows());
    const int* outer = base_rows_.outerIndexPtr();
    const int* inner = base_rows_.innerIndexPtr();
    const bool same_pattern =
        has_plan_ && static_cast<int>(pattern_outer_.size()) == rows + 1 &&
        static_cast<int>(weighted_.size()) == problem.variables() &&
        std::equal(outer, outer + rows + 1, pattern_outer_.begin()) &&
        static_cast<int>(pattern_inner_.size()) == outer[rows] &&
        std::equal(inner, inner + outer[rows], pattern_inner_.begin());
    if (!same_pattern) make_plan();
  }
  const int nb = static_cast<int>(base_rows_.rows());
  bordered_.resize(nb, 0);
  bordered_ranges_.clear();
  schur_factor_.resize(0, 0);
  mask_columns_.resize(nb, 0);
  mask_ranges_.clear();
  mask_factor_.resize(0, 0);
  bordered_masked_.resize(0, 0);
  if (nb == 0) {
    ++base_generation_;
    return true;
  }

  // the inputs of the assembly below equal to those of the factor already made (the same rows,
  // weights, base and shift: a chord iteration's QPs, a resting cloth): the assembled matrix
  // would be equal value for value, so the factor is still exact and nothing is assembled
  auto inside = [&](int row) { return row < me || in_base_[planned_[row - me]]; };
  factored_inside_now_.resize(nb);
  for (int r = 0; r < nb; ++r) factored_inside_now_[r] = inside(r) ? 1 : 0;
  const std::size_t row_entries = static_cast<std::size_t>(base_rows_.nonZeros());
  const double* row_values = base_rows_.valuePtr();
  const double* row_weighted = base_rows_weighted_.valuePtr();
  bool unchanged = factor_kept_ && factored_shift_ == problem.equality_shift &&
                   factored_inside_ == factored_inside_now_ && factored_values_.size() == row_entries;
  const int* row_outer = base_rows_.outerIndexPtr();
  for (int r = 0; unchanged && r < nb; ++r) {
    if (!factored_inside_now_[r]) continue;  // decoupled: its values do not enter
    const int first = row_outer[r], last = row_outer[r + 1];
    unchanged = std::equal(row_values + first, row_values + last, factored_values_.begin() + first) &&
                std::equal(row_weighted + first, row_weighted + last, factored_weighted_.begin() + first);
  }
  if (unchanged) {
    ++stats.reused_factors;
    return true;
  }
  ++base_generation_;  // a new factor: a kept warm-start block no longer fits it

  // lower triangle of [E; A] M^-1 [E; A]^T with sigma on the equality diagonal; the rows of
  // inequalities outside the base are decoupled (unit diagonal, explicit zeros elsewhere), so
  // the pattern never depends on the working set and one symbolic analysis serves every QP
  // with the same rows. Each entry (r, c) is the sum over the shared variables k in
  // increasing order of (a_rk / m_k) a_ck, the first product assigned (as Eigen's sparse
  // product sums it)
  const double* value = base_rows_.valuePtr();
  const double* weighted = base_rows_weighted_.valuePtr();
  const int* outer = base_system_.outerIndexPtr();
  const int* inner = base_system_.innerIndexPtr();
  double* entry = base_system_.valuePtr();
  for (int c = 0; c < nb; ++c) {
    const bool c_inside = inside(c);
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const int r = inner[p];
      double gram = 0;
      if (c_inside && inside(r)) {
        const int first = term_start_[p], last = term_start_[p + 1];
        if (first < last) gram = weighted[terms_[first].first] * value[terms_[first].second];
        for (int t = first + 1; t < last; ++t) gram += weighted[terms_[t].first] * value[terms_[t].second];
      }
      if (r == c) gram = c < me ? gram + problem.equality_shift : (c_inside ? gram + 0.0 : 1.0);
      entry[p] = gram;
    }
  }
  ++stats.factorizations;
  stats.factored_rows += nb;
  // a pivot below dependence_tolerance of its diagonal is a dependent row, as for appended rows
  factor_kept_ = base_factor_.factorize(base_system_, 0.0, settings.dependence_tolerance);
  if (factor_kept_) remember_inputs(problem.equality_shift);
  return factor_kept_;
}

void ActiveSetSolver::mask_coordinates(const Eigen::VectorXd& l, Eigen::VectorXd& k) const {
  k.resize(mask_columns_.cols());
  for (Eigen::Index c = 0; c < mask_columns_.cols(); ++c) k[c] = column_dot(mask_columns_, c, mask_ranges_[c], l);
  lower_solve(mask_factor_, k);
}

void ActiveSetSolver::project_out_masked(Eigen::VectorXd& y) const {
  if (masked_.empty()) return;
  Eigen::VectorXd nu;
  mask_coordinates(y, nu);
  upper_solve(mask_factor_, nu);
  subtract_columns(mask_columns_, mask_ranges_, nu, y);
}

// Releases base row k without refactorizing: it stays in the sparse factor with its
// multiplier held at zero (see the header). False (nothing changed) when the masked block
// would be numerically singular.
bool ActiveSetSolver::mask(int k) {
  const int nb = static_cast<int>(base_rows_.rows()), m = static_cast<int>(masked_.size());
  const int q = static_cast<int>(appended_.size());
  Eigen::VectorXd unit = Eigen::VectorXd::Zero(nb), column, h;
  unit[slot_[k]] = 1;
  base_factor_.forward(unit, column);
  RowRanges ranges = nonzero_ranges(column);
  mask_coordinates(column, h);  // N^-1 M_R^T m_k: the new row of N
  const double gram = column.squaredNorm();
  const double eta2 = gram - h.squaredNorm();
  if (!(eta2 > settings.dependence_tolerance * gram)) return false;
  const double eta = std::sqrt(eta2);
  // every appended row's new coordinate, and the Schur factor of the appended rows
  // (D - B^T B + K^T K) gains kappa kappa^T
  Eigen::VectorXd kappa(q);
  for (int j = 0; j < q; ++j) {
    double sum = column_dot(bordered_, j, ranges, column);
    for (int i = 0; i < m; ++i) sum -= h[i] * bordered_masked_(i, j);
    kappa[j] = sum / eta;
  }
  mask_columns_.conservativeResize(nb, m + 1);
  mask_columns_.col(m) = column;
  mask_ranges_.push_back(std::move(ranges));
  mask_factor_.conservativeResize(m + 1, m + 1);
  mask_factor_.col(m).setZero();
  mask_factor_.row(m).head(m) = h.transpose();
  mask_factor_(m, m) = eta;
  bordered_masked_.conservativeResize(m + 1, q);
  if (q > 0) bordered_masked_.row(m) = kappa.transpose();  // (no row view of an empty matrix: null + offset)
  rank_one_update(schur_factor_, kappa);
  masked_.push_back(k);
  is_masked_[k] = 1;
  base_.erase(std::find(base_.begin(), base_.end(), k));
  ++stats.masked;
  return true;
}

void ActiveSetSolver::solve_kkt(const Eigen::VectorXd& rhs_base, const Eigen::VectorXd& rhs_appended,
                                Eigen::VectorXd& zeta_base, Eigen::VectorXd& zeta_appended) const {
  // [L 0; l^T L_S] [L^T l; 0 L_S^T] zeta = rhs, with the sparse part permuted (eq. 3.11); the
  // masked rows' coordinates enter the Schur complement with the opposite sign and are
  // projected out of the base part (P = L^-T (I - M_R G^-1 M_R^T) L^-1, see the header)
  Eigen::VectorXd y_base, k_base;
  if (rhs_base.size() > 0) base_factor_.forward(rhs_base, y_base);
  zeta_appended = rhs_appended;
  if (zeta_appended.size() > 0) {
    if (y_base.size() > 0) subtract_column_dots(bordered_, bordered_ranges_, y_base, zeta_appended);
    if (!masked_.empty()) {
      mask_coordinates(y_base, k_base);
      subtract_transpose_product(bordered_masked_, k_base, zeta_appended, /*add=*/true);
    }
    lower_solve(schur_factor_, zeta_appended);
    upper_solve(schur_factor_, zeta_appended);
    if (y_base.size() > 0) subtract_columns(bordered_, bordered_ranges_, zeta_appended, y_base);
  }
  if (y_base.size() > 0) {
    project_out_masked(y_base);
    base_factor_.backward(y_base, zeta_base);
    for (int k : masked_) zeta_base[slot_[k]] = 0;
  } else {
    zeta_base.resize(0);
  }
}

void ActiveSetSolver::push_appended(int k, const Eigen::VectorXd& l, const Eigen::VectorXd& k_masked,
                                    const Eigen::VectorXd& t, double pivot2) {
  const int q = static_cast<int>(appended_.size());
  bordered_.conservativeResize(l.size(), q + 1);
  if (l.size() > 0) bordered_.col(q) = l;
  bordered_ranges_.push_back(nonzero_ranges(l));
  bordered_masked_.conservativeResize(static_cast<Eigen::Index>(masked_.size()), q + 1);
  if (!masked_.empty()) bordered_masked_.col(q) = k_masked;
  schur_factor_.conservativeResize(q + 1, q + 1);
  schur_factor_.col(q).setZero();
  schur_factor_.row(q).head(q) = t.transpose();
  schur_factor_(q, q) = std::sqrt(pivot2);
  appended_.push_back(k);
  ++stats.appended;
}

void ActiveSetSolver::bordered_row(const Eigen::VectorXd& l, const Eigen::VectorXd& u_appended,
                                   Eigen::VectorXd& k_masked, Eigen::VectorXd& t) const {
  if (masked_.empty()) k_masked.resize(0);
  else mask_coordinates(l, k_masked);
  t = u_appended;
  if (appended_.empty()) return;
  if (l.size() > 0) subtract_column_dots(bordered_, bordered_ranges_, l, t);
  if (k_masked.size() > 0) subtract_transpose_product(bordered_masked_, k_masked, t, /*add=*/true);
  lower_solve(schur_factor_, t);
}

// Appends working inequality k as a bordered row (eq. 3.12); false (nothing changed) when
// its gradient depends on the working rows.
bool ActiveSetSolver::append(const QpProblem& problem, int k) {
  Eigen::VectorXd u_base, u_appended, l, k_masked, t;
  row_products(problem, k, u_base, u_appended);
  if (base_rows_.rows() > 0) base_factor_.forward(u_base, l);
  bordered_row(l, u_appended, k_masked, t);
  const double diagonal = row_norm_[k] * row_norm_[k];
  const double pivot2 = diagonal - l.squaredNorm() + k_masked.squaredNorm() - t.squaredNorm();
  if (!(pivot2 > settings.dependence_tolerance * diagonal)) return false;
  push_appended(k, l, k_masked, t, pivot2);
  return true;
}

void ActiveSetSolver::row_products(const QpProblem& problem, int k, Eigen::VectorXd& base_part,
                                   Eigen::VectorXd& appended_part) {
  // G_B M^-1 a_k^T and A_P M^-1 a_k^T; only the rows sharing a variable with a_k can be
  // non-zero, each summed over its entries in order (as Eigen's sparse product would)
  const int me = problem.equalities();
  for (SparseRows::InnerIterator it(problem.inequality, k); it; ++it) {
    weighted_[it.col()] = it.value() * inverse_mass_[it.col()];
    for (int q = variable_start_[it.col()]; q < variable_start_[it.col() + 1]; ++q)
      if (!touched_mark_[variable_rows_[q]]) {
        touched_mark_[variable_rows_[q]] = 1;
        touched_.push_back(variable_rows_[q]);
      }
  }
  base_part.setZero(base_rows_.rows());
  const int* outer = base_rows_.outerIndexPtr();
  const int* inner = base_rows_.innerIndexPtr();
  const double* value = base_rows_.valuePtr();
  for (int r : touched_) {
    touched_mark_[r] = 0;
    if (r >= me && !in_base_[planned_[r - me]]) continue;  // decoupled rows
    double sum = 0;
    for (int p = outer[r]; p < outer[r + 1]; ++p) sum += value[p] * weighted_[inner[p]];
    base_part[r] += sum;
  }
  touched_.clear();
  appended_part.resize(static_cast<int>(appended_.size()));
  for (std::size_t j = 0; j < appended_.size(); ++j)
    appended_part[j] = row_dot(problem.inequality, appended_[j], weighted_);
  for (SparseRows::InnerIterator it(problem.inequality, k); it; ++it) weighted_[it.col()] = 0;
}

bool ActiveSetSolver::prepare(const QpProblem& problem, SolveState& s) {
  const int me = problem.equalities(), mi = problem.inequalities();
  const Eigen::VectorXd& b = problem.inequality_rhs;
  QpSolution& solution = s.solution;
  solution.equality_multipliers = Eigen::VectorXd::Zero(me);
  solution.inequality_multipliers = Eigen::VectorXd::Zero(mi);
  inverse_mass_ = problem.mass.cwiseInverse();
  s.free_step = inverse_mass_.cwiseProduct(problem.linear);  // M^-1 f
  solution.x = s.free_step;
  if (!inverse_mass_.allFinite() || !s.free_step.allFinite()) {
    solution.status = QpStatus::non_finite;
    return false;
  }

  row_norm_.resize(mi);
  for (int k = 0; k < mi; ++k) {
    double sum = 0;
    for (SparseRows::InnerIterator it(problem.inequality, k); it; ++it)
      sum += it.value() * it.value() * inverse_mass_[it.col()];
    row_norm_[k] = std::sqrt(sum);
    // a row without variables: 0 >= b_k holds or never will
    if (row_norm_[k] == 0 && b[k] > settings.feasibility_tolerance) {
      solution.status = QpStatus::infeasible;
      return false;
    }
  }

  stacked_ = false;  // the rows of the last problem are stale
  return true;
}

bool ActiveSetSolver::start_working_set(const QpProblem& problem, const std::vector<int>& warm_start,
                                        SolveState& s) {
  // the warm start: valid, distinct, non-zero rows; should they make the base singular
  // (dependent rows), start from the equalities alone
  const int mi = problem.inequalities();
  std::vector<char>& working = s.working;
  working.assign(mi, 0);
  std::vector<int> start;
  for (int k : warm_start)
    if (k >= 0 && k < mi && row_norm_[k] > 0 && !working[k]) {
      working[k] = 1;
      start.push_back(k);
    }
  std::sort(start.begin(), start.end());
  s.crash = start.empty() && settings.crash_start;
  if (static_cast<int>(start.size()) <= settings.max_bordered_start) {
    // a small warm start is appended (bordered rows): those that leave then cost a small dense
    // refactorization instead of a second sparse one; dependent rows are left out
    if (!factor_base(problem, {})) {
      s.solution.status = QpStatus::singular;
      return false;
    }
    if (!restore_start(problem, start, working)) {
      for (int k : start)
        if (!append(problem, k)) working[k] = 0;
      keep_start(problem, start);
    }
  } else if (!factor_base(problem, start)) {
    std::fill(working.begin(), working.end(), 0);
    if (!factor_base(problem, {})) {
      s.solution.status = QpStatus::singular;
      return false;
    }
  }
  return true;
}

void ActiveSetSolver::working_rhs(const QpProblem& problem, const Eigen::VectorXd& equality_values,
                                  const Eigen::VectorXd& v, Eigen::VectorXd& on_base,
                                  Eigen::VectorXd& on_appended) const {
  const int me = problem.equalities();
  const int nb = static_cast<int>(base_rows_.rows()), p = static_cast<int>(appended_.size());
  const Eigen::VectorXd& b = problem.inequality_rhs;
  on_base.resize(nb);
  if (nb > 0) {
    on_base.head(me) = equality_values;
    for (int i = me; i < nb; ++i) on_base[i] = b[planned_[i - me]];
    on_base -= base_rows_ * v;
    for (int i = me; i < nb; ++i)
      if (!in_base_[planned_[i - me]]) on_base[i] = 0;
  }
  on_appended.resize(p);
  for (int j = 0; j < p; ++j) on_appended[j] = b[appended_[j]] - row_dot(problem.inequality, appended_[j], v);
}

void ActiveSetSolver::primal(const QpProblem& problem, SolveState& s) const {
  const int nb = static_cast<int>(base_rows_.rows()), p = static_cast<int>(appended_.size());
  s.x = s.free_step;
  if (nb > 0) s.x += base_rows_weighted_.transpose() * s.zeta_base;
  for (int j = 0; j < p; ++j)
    for (SparseRows::InnerIterator it(problem.inequality, appended_[j]); it; ++it)
      s.x[it.col()] += inverse_mass_[it.col()] * it.value() * s.zeta_appended[j];
}

bool ActiveSetSolver::solve_working_set(const QpProblem& problem, SolveState& s) {
  const int me = problem.equalities(), p = static_cast<int>(appended_.size());
  working_rhs(problem, problem.equality_rhs, s.free_step, s.rhs_base, s.rhs_appended);
  solve_kkt(s.rhs_base, s.rhs_appended, s.zeta_base, s.zeta_appended);
  primal(problem, s);
  if (s.refine && !masked_.empty()) {
    // the masked rows' block costs digits (P is a difference): the returned solution gets
    // one step of iterative refinement on the residual g_W - G_W x - sigma zeta_E
    Eigen::VectorXd residual_base, residual_appended, correction_base, correction_appended;
    working_rhs(problem, problem.equality_rhs - problem.equality_shift * s.zeta_base.head(me), s.x, residual_base,
                residual_appended);
    solve_kkt(residual_base, residual_appended, correction_base, correction_appended);
    s.zeta_base += correction_base;
    s.zeta_appended += correction_appended;
    primal(problem, s);
  }
  QpSolution& solution = s.solution;
  solution.x = s.x;
  solution.iterations = s.iteration;
  solution.equality_multipliers = s.zeta_base.head(me);
  solution.inequality_multipliers.setZero();
  for (int k : base_) solution.inequality_multipliers[k] = s.zeta_base[slot_[k]];
  for (int j = 0; j < p; ++j) solution.inequality_multipliers[appended_[j]] = s.zeta_appended[j];
  if (!s.x.allFinite() || !solution.inequality_multipliers.allFinite()) {
    solution.status = QpStatus::non_finite;
    return false;
  }
  s.current = s.solved = true;
  return true;
}

std::vector<int> ActiveSetSolver::negative_multipliers(const SolveState& s) const {
  const int mi = static_cast<int>(s.working.size());
  const Eigen::VectorXd& z = s.solution.inequality_multipliers;
  double largest = 0;
  for (int k = 0; k < mi; ++k)
    if (s.working[k]) largest = std::max(largest, std::abs(z[k]) * row_norm_[k]);
  const double negative = -settings.multiplier_tolerance * (1 + largest);
  std::vector<int> leaving;
  for (int k = 0; k < mi; ++k)
    if (s.working[k] && z[k] * row_norm_[k] < negative) leaving.push_back(k);
  return leaving;
}

bool ActiveSetSolver::refactor(const QpProblem& problem, std::vector<char>& working) {
  std::vector<int> kept;
  for (int k : base_) if (working[k]) kept.push_back(k);
  for (int k : appended_) if (working[k]) kept.push_back(k);
  std::sort(kept.begin(), kept.end());
  if (factor_base(problem, kept)) return true;
  for (int k : kept) working[k] = 0;
  return factor_base(problem, {});
}

bool ActiveSetSolver::drop_rows(const QpProblem& problem, const std::vector<int>& leaving,
                                std::vector<char>& working) {
  stats.removed += static_cast<long>(leaving.size());
  std::vector<int> from_base;  // working rows of the base (the rest are bordered rows)
  for (int k : leaving) {
    working[k] = 0;
    if (in_base_[k] && !is_masked_[k]) from_base.push_back(k);
  }
  if (masked_.size() + from_base.size() > static_cast<std::size_t>(settings.max_masked))
    return refactor(problem, working);
  // the bordered rows that leave: their columns go, and their rows of the Schur factor
  // (the l and k of the others do not depend on them)
  for (int j = static_cast<int>(appended_.size()) - 1; j >= 0; --j) {
    if (working[appended_[j]]) continue;
    appended_.erase(appended_.begin() + j);
    delete_column(bordered_, j);
    bordered_ranges_.erase(bordered_ranges_.begin() + j);
    delete_column(bordered_masked_, j);
    delete_factor_row(schur_factor_, j);
  }
  // the base rows that leave are masked
  for (int k : from_base)
    if (!mask(k)) return refactor(problem, working);
  return true;
}

int ActiveSetSolver::most_violated(const QpProblem& problem, SolveState& s) const {
  const int mi = problem.inequalities();
  s.slack = problem.inequality * s.x - problem.inequality_rhs;
  int entering = -1;
  double worst = -settings.feasibility_tolerance;
  for (int k = 0; k < mi; ++k) {
    if (s.working[k] || row_norm_[k] == 0) continue;
    const double distance = s.slack[k] / row_norm_[k];
    if (distance < worst) {
      worst = distance;
      entering = k;
    }
  }
  return entering;
}

// Crash start (a solve given no warm start): every inequality the equality-constrained
// minimizer violates enters at once, as a warm start would; those with negative multipliers
// then leave together and dual steps finish. One factorization instead of one dual step per
// row: a cloth landing flat makes most of its violated rows active.
ActiveSetSolver::CrashStart ActiveSetSolver::crash_start(const QpProblem& problem, SolveState& s) {
  const int mi = problem.inequalities();
  std::vector<char>& working = s.working;
  std::vector<int> entering_rows;
  for (int k = 0; k < mi; ++k)
    if (!working[k] && row_norm_[k] > 0 && s.slack[k] / row_norm_[k] < -settings.feasibility_tolerance)
      entering_rows.push_back(k);
  if (static_cast<int>(entering_rows.size()) <= 1) return CrashStart::not_taken;
  ++stats.iterations;
  ++stats.crash_starts;
  s.current = false;
  if (static_cast<int>(entering_rows.size()) <= settings.max_bordered_start) {
    for (int k : entering_rows)
      if (append(problem, k)) working[k] = 1;
    return CrashStart::taken;
  }
  // dependent rows fail the factorization: then they are appended one by one, which leaves out
  // each that depends on those before it (its pivot), and folded into the base
  for (int k : entering_rows) working[k] = 1;
  if (factor_base(problem, entering_rows)) return CrashStart::taken;
  for (int k : entering_rows) working[k] = 0;
  if (!factor_base(problem, {})) return CrashStart::singular;
  for (int k : entering_rows)
    if (append(problem, k)) working[k] = 1;
  if (static_cast<int>(appended_.size()) > settings.max_appended && !refactor(problem, working))
    return CrashStart::singular;
  return CrashStart::taken;
}

QpStatus ActiveSetSolver::final_status(const QpProblem& problem, const SolveState& s) const {
  // dependent equality rows without regularization can pass the factorization with a
  // round-off pivot; their residual then gives them away
  const int me = problem.equalities();
  const Eigen::VectorXd residual =
      problem.equality * s.x - problem.equality_rhs + problem.equality_shift * s.solution.equality_multipliers;
  const bool consistent = me == 0 || residual.lpNorm<Eigen::Infinity>() <=
                                         1e-8 * (1 + problem.equality_rhs.lpNorm<Eigen::Infinity>());
  return consistent ? QpStatus::converged : QpStatus::singular;
}

void ActiveSetSolver::dual_direction(const QpProblem& problem, int entering, SolveState& s, DualDirection& d) {
  const int nb = static_cast<int>(base_rows_.rows()), q = static_cast<int>(appended_.size());
  row_products(problem, entering, s.u_base, s.u_appended);
  if (nb > 0) base_factor_.forward(s.u_base, s.l);
  else s.l.resize(0);
  bordered_row(s.l, s.u_appended, s.k_masked, s.t);
  const double diagonal = row_norm_[entering] * row_norm_[entering];
  d.pivot2 = diagonal - s.l.squaredNorm() + s.k_masked.squaredNorm() - s.t.squaredNorm();
  d.independent = d.pivot2 > settings.dependence_tolerance * diagonal;
  d.alpha_appended = s.t;
  if (q > 0) upper_solve(schur_factor_, d.alpha_appended);
  if (s.l.size() > 0) {
    Eigen::VectorXd y = s.l;
    if (q > 0) subtract_columns(bordered_, bordered_ranges_, d.alpha_appended, y);
    project_out_masked(y);
    base_factor_.backward(y, d.alpha_base);
  }
}

int ActiveSetSolver::blocking_row(int entering, const DualDirection& d, const Eigen::VectorXd& z,
                                  double& partial) const {
  const int q = static_cast<int>(appended_.size());
  int blocking = -1;
  partial = std::numeric_limits<double>::infinity();
  auto ratio = [&](int k, double a) {
    if (a * row_norm_[k] > 1e-14 * row_norm_[entering] && z[k] / a < partial) {
      partial = std::max(0.0, z[k] / a);
      blocking = k;
    }
  };
  for (int k : base_) ratio(k, d.alpha_base[slot_[k]]);
  for (int j = 0; j < q; ++j) ratio(appended_[j], d.alpha_appended[j]);
  return blocking;
}

void ActiveSetSolver::take_step(const QpProblem& problem, int entering, const DualDirection& d, double step,
                                SolveState& s) const {
  const int me = problem.equalities();
  const int nb = static_cast<int>(base_rows_.rows()), q = static_cast<int>(appended_.size());
  Eigen::VectorXd& z = s.solution.inequality_multipliers;
  Eigen::VectorXd direction = Eigen::VectorXd::Zero(problem.variables());
  for (SparseRows::InnerIterator it(problem.inequality, entering); it; ++it) direction[it.col()] = it.value();
  if (nb > 0) direction -= base_rows_.transpose() * d.alpha_base;
  for (int j = 0; j < q; ++j)
    for (SparseRows::InnerIterator it(problem.inequality, appended_[j]); it; ++it)
      direction[it.col()] -= it.value() * d.alpha_appended[j];
  s.x += step * inverse_mass_.cwiseProduct(direction);
  s.solved = false;
  if (me > 0) s.solution.equality_multipliers -= step * d.alpha_base.head(me);
  for (int k : base_) z[k] -= step * d.alpha_base[slot_[k]];
  for (int j = 0; j < q; ++j) z[appended_[j]] -= step * d.alpha_appended[j];
  z[entering] += step;
  s.solution.x = s.x;
}

ActiveSetSolver::DualStep ActiveSetSolver::dual_step(const QpProblem& problem, int entering, SolveState& s) {
  DualDirection d;
  dual_direction(problem, entering, s, d);
  double partial = 0;
  const int blocking = blocking_row(entering, d, s.solution.inequality_multipliers, partial);
  const double violation = problem.inequality_rhs[entering] - problem.inequality.row(entering).dot(s.x);
  const double full = d.independent ? std::max(0.0, violation) / d.pivot2 : std::numeric_limits<double>::infinity();
  if (blocking < 0 && !d.independent) {
    s.solution.status = QpStatus::infeasible;
    return DualStep::stopped;
  }
  take_step(problem, entering, d, std::min(full, partial), s);
  if (full <= partial) {  // the entering row becomes tight: it is added
    push_appended(entering, s.l, s.k_masked, s.t, d.pivot2);
    s.working[entering] = 1;
    return DualStep::entered;
  }
  // a working multiplier reached zero first: that row is dropped
  s.solution.inequality_multipliers[blocking] = 0;
  if (!d.independent) ++stats.dependent_swaps;
  return drop_rows(problem, {blocking}, s.working) ? DualStep::exchanged : DualStep::stopped;
}

// Brings `entering` in (eq. 3.12-3.14) by a dual step (Goldfarb-Idnani): while its multiplier
// t grows, x moves along dx = M^-1 (a^T - G_W^T alpha) (which keeps the working rows tight)
// and the working multipliers change by -t alpha, alpha = A_W^-1 u. Should a working
// multiplier reach zero first, that constraint leaves and the step goes on; with a dependent
// gradient (pivot ~ 0, Remark 3.5.3) this is the exchange of Remark 3.5.2, the leaving row
// picked by the ratio test. No positive alpha and no pivot: infeasible.
bool ActiveSetSolver::bring_in(const QpProblem& problem, int entering, SolveState& s) {
  while (s.iteration < settings.max_iterations) {
    ++s.iteration;
    ++stats.iterations;
    const DualStep step = dual_step(problem, entering, s);
    if (step == DualStep::entered) return true;
    if (step == DualStep::stopped) break;
  }
  // infeasible, the iteration cap, or a failed refactorization
  if (s.solution.status == QpStatus::converged)
    s.solution.status = s.iteration >= settings.max_iterations ? QpStatus::max_iterations : QpStatus::singular;
  return false;
}

QpSolution ActiveSetSolver::solve(const QpProblem& problem, const std::vector<int>& warm_start) {
  ++stats.solves;
  SolveState s;
  if (!prepare(problem, s) || !start_working_set(problem, warm_start, s)) return std::move(s.solution);
  for (;; ++s.iteration) {
    if (!s.current && !solve_working_set(problem, s)) break;

    // release every working inequality with a negative multiplier (Remark 3.5.4)
    const std::vector<int> leaving = negative_multipliers(s);
    if (!leaving.empty()) {
      if (s.iteration >= settings.max_iterations) {
        s.solution.status = QpStatus::max_iterations;
        break;
      }
      ++stats.iterations;
      s.current = false;
      if (!drop_rows(problem, leaving, s.working)) {
        s.solution.status = QpStatus::singular;
        break;
      }
      continue;
    }

    const int entering = most_violated(problem, s);
    if (entering < 0 && (!s.solved || (!s.refine && !masked_.empty()))) {  // solve for the final working set
      s.refine = true;
      s.current = false;
      continue;
    }
    if (s.crash && entering >= 0) {
      s.crash = false;
      const CrashStart crash = crash_start(problem, s);
      if (crash == CrashStart::singular) {
        s.solution.status = QpStatus::singular;
        break;
      }
      if (crash == CrashStart::taken) continue;
    }
    if (entering < 0) {
      s.solution.status = final_status(problem, s);
      break;
    }
    if (!bring_in(problem, entering, s)) break;
    if (static_cast<int>(appended_.size()) > settings.max_appended && !refactor(problem, s.working)) {
      s.solution.status = QpStatus::singular;
      break;
    }
  }
  for (int k = 0; k < problem.inequalities(); ++k)
    if (s.working[k]) s.solution.active.push_back(k);
  return std::move(s.solution);
}

}  // namespace tela
