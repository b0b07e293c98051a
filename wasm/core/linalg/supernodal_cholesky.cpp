#include "linalg/supernodal_cholesky.h"

#include <Eigen/Dense>
#include <Eigen/OrderingMethods>
#include <algorithm>
#include <cmath>

namespace tela {

void SupernodalCholesky::analyze(const Eigen::SparseMatrix<double>& lower) {
  n_ = static_cast<int>(lower.rows());
  // fill-reducing ordering (approximate minimum degree on the pattern of A + A^T)
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> ordering;
  Eigen::AMDOrdering<int>()(lower, ordering);
  perm_.assign(n_, 0);
  for (int k = 0; k < n_; ++k) perm_[ordering.indices()[k]] = k;

  // the permuted lower triangle, by rows: below[i] = { j < i : A(i, j) != 0 } (compressed:
  // below[below_start[i] ..])
  const int* outer = lower.outerIndexPtr();
  const int* inner = lower.innerIndexPtr();
  std::vector<int> below_start(n_ + 1, 0);
  for (int c = 0; c < n_; ++c)
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const int i = perm_[inner[p]], j = perm_[c];
      if (i != j) ++below_start[std::max(i, j) + 1];
    }
  for (int k = 0; k < n_; ++k) below_start[k + 1] += below_start[k];
  std::vector<int> below(below_start[n_]), cursor(below_start.begin(), below_start.end() - 1);
  for (int c = 0; c < n_; ++c)
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const int i = perm_[inner[p]], j = perm_[c];
      if (i != j) below[cursor[std::max(i, j)]++] = std::min(i, j);
    }

  // elimination tree (Liu's algorithm with path compression)
  std::vector<int> parent(n_, -1), ancestor(n_, -1);
  for (int k = 0; k < n_; ++k)
    for (int e = below_start[k]; e < below_start[k + 1]; ++e)
      for (int i = below[e]; i != -1 && i < k;) {
        const int next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent[i] = k;
        i = next;
      }

  // pattern of L by columns: row k of L is the union of the tree paths from each j in
  // below[k] up to k (the row subtree); rows arrive in increasing order, so columns stay
  // sorted. Two passes over the row subtrees: the column counts, then the rows in place.
  std::vector<int> mark(n_, -1);
  auto row_subtrees = [&](auto&& visit) {
    std::fill(mark.begin(), mark.end(), -1);
    for (int k = 0; k < n_; ++k) {
      mark[k] = k;
      for (int e = below_start[k]; e < below_start[k + 1]; ++e)
        for (int i = below[e]; mark[i] != k; i = parent[i]) {
          visit(i, k);
          mark[i] = k;
        }
    }
  };
  start_.assign(n_ + 1, 0);
  row_subtrees([&](int i, int) { ++start_[i + 1]; });
  for (int k = 0; k < n_; ++k) start_[k + 1] += start_[k] + 1;  // and the diagonal
  row_.resize(start_[n_]);
  for (int k = 0; k < n_; ++k) {
    row_[start_[k]] = k;
    cursor[k] = start_[k] + 1;
  }
  row_subtrees([&](int i, int k) { row_[cursor[i]++] = k; });
  value_.assign(row_.size(), 0.0);

  // supernodes: column k+1 continues k's when pattern(k) = {k} u pattern(k+1)
  super_start_.clear();
  super_of_.assign(n_, 0);
  for (int k = 0; k < n_; ++k) {
    const bool continues = k > 0 && parent[k - 1] == k &&
                           start_[k] - start_[k - 1] == start_[k + 1] - start_[k] + 1;
    if (!continues) super_start_.push_back(k);
    super_of_[k] = static_cast<int>(super_start_.size()) - 1;
  }
  super_start_.push_back(n_);
  super_parent_.assign(supernode_count(), -1);
  for (int t = 0; t < supernode_count(); ++t) {
    const int up = parent[super_start_[t + 1] - 1];
    if (up >= 0) super_parent_[t] = super_of_[up];
  }

  // where each stored entry of A lands in L's storage: A's entries grouped by their column j
  // of L, whose rows are scattered into `position` (mark's storage) before they are looked up
  const int entries = static_cast<int>(lower.nonZeros());
  std::vector<int> entry_start(n_ + 1, 0);
  for (int c = 0; c < n_; ++c)
    for (int p = outer[c]; p < outer[c + 1]; ++p) ++entry_start[std::min(perm_[inner[p]], perm_[c]) + 1];
  for (int k = 0; k < n_; ++k) entry_start[k + 1] += entry_start[k];
  std::vector<std::pair<int, int>> by_column(entries);  // (entry, its row of L)
  std::copy(entry_start.begin(), entry_start.end() - 1, cursor.begin());
  for (int c = 0; c < n_; ++c)
    for (int p = outer[c]; p < outer[c + 1]; ++p) {
      const int i = std::max(perm_[inner[p]], perm_[c]), j = std::min(perm_[inner[p]], perm_[c]);
      by_column[cursor[j]++] = {p, i};
    }
  std::vector<int>& position = mark;
  entry_row_.resize(entries);
  for (int j = 0; j < n_; ++j) {
    for (int q = start_[j]; q < start_[j + 1]; ++q) position[row_[q]] = q;
    for (int e = entry_start[j]; e < entry_start[j + 1]; ++e) entry_row_[by_column[e].first] = position[by_column[e].second];
  }
}

bool SupernodalCholesky::factorize(const Eigen::SparseMatrix<double>& lower, double shift, double min_relative_pivot) {
  std::fill(value_.begin(), value_.end(), 0.0);
  const double* a = lower.valuePtr();
  for (std::size_t p = 0; p < entry_row_.size(); ++p) value_[entry_row_[p]] += a[p];
  for (int k = 0; k < n_; ++k) value_[start_[k]] += shift;

  const int supernodes = supernode_count();
  // supernodes waiting to update supernode s form a linked list: head[s], next[d]; next_row[d]
  // is the index (within d's row list) of the first row d has not yet updated
  std::vector<int> head(supernodes, -1), next(supernodes, -1), next_row(supernodes, 0);
  std::vector<int> local(n_, -1);  // row -> index within the current supernode's rows
  std::vector<double> panel_storage, sum_storage;

  for (int s = 0; s < supernodes; ++s) {
    const int first = super_start_[s], last = super_start_[s + 1] - 1;
    const int width = last - first + 1;
    const int* rows = row_.data() + start_[first];  // the supernode's rows, first .. last, shared
    const int m = start_[first + 1] - start_[first];
    for (int i = 0; i < m; ++i) local[rows[i]] = i;

    // dense panel (m by width, column-major) holding the supernode's columns of A
    panel_storage.assign(static_cast<std::size_t>(m) * width, 0.0);
    Eigen::Map<Eigen::MatrixXd> panel(panel_storage.data(), m, width);
    for (int c = 0; c < width; ++c)
      for (int t = 0; t < m - c; ++t) panel(c + t, c) = value_[start_[first + c] + t];

    // updates from the supernodes below: panel -= L_d(rows >= first) L_d(rows in s)^T
    for (int d = head[s]; d != -1;) {
      const int following = next[d];
      const int dfirst = super_start_[d], dwidth = super_start_[d + 1] - dfirst;
      const int* drows = row_.data() + start_[dfirst];
      const int dm = start_[dfirst + 1] - start_[dfirst];
      const int p = next_row[d];
      int q = p;
      while (q < dm && drows[q] <= last) ++q;
      const int k = q - p, rows_below = dm - p;
      // L_d's rows p.. in place: column c of d stores rows drows[c..], so its rows p.. start
      // at start_[dfirst + c] + p - c
      auto block_column = [&](int c) { return value_.data() + start_[dfirst + c] + (p - c); };
      // panel -= block * block.topRows(k)^T, lower part only, in a fixed summation order:
      // every entry is 0 + the products over c in increasing order, then subtracted. The
      // entries of one column j are summed side by side (independent sums, contiguous rows),
      // four columns c per pass (each sum still adds its products in increasing c)
      for (int j = 0; j < k; ++j) {
        const int column = drows[p + j] - first;
        const int count = rows_below - j;
        sum_storage.assign(count, 0.0);
        double* sum = sum_storage.data();
        int c = 0;
        for (; c + 4 <= dwidth; c += 4) {
          const double* b0 = block_column(c) + j;  // rows j.. of column c
          const double* b1 = block_column(c + 1) + j;
          const double* b2 = block_column(c + 2) + j;
          const double* b3 = block_column(c + 3) + j;
          const double f0 = b0[0], f1 = b1[0], f2 = b2[0], f3 = b3[0];
          for (int i = 0; i < count; ++i) {
            double t = sum[i] + b0[i] * f0;
            t += b1[i] * f1;
            t += b2[i] * f2;
            sum[i] = t + b3[i] * f3;
          }
        }
        for (; c < dwidth; ++c) {
          const double* bc = block_column(c) + j;
          const double bjc = bc[0];
          for (int i = 0; i < count; ++i) sum[i] += bc[i] * bjc;
        }
        // the rows usually land on consecutive rows of the panel
        const int* target = drows + p + j;
        const int top = local[target[0]];
        if (local[target[count - 1]] - top == count - 1) {
          double* out = &panel(top, column);
          for (int i = 0; i < count; ++i) out[i] -= sum[i];
        } else {
          for (int i = 0; i < count; ++i) panel(local[target[i]], column) -= sum[i];
        }
      }
      next_row[d] = q;
      if (q < dm) {  // d next updates the supernode of its next row
        const int target = super_of_[drows[q]];
        next[d] = head[target];
        head[target] = d;
      }
      d = following;
    }

    // dense factorization of the panel, column by column: L11 L11^T = A11 and L21 = A21
    // L11^-T. Plain loops rather than Eigen's blocked kernels, whose blocking depends on the
    // cache sizes of the machine: the same summation order natively and in WebAssembly keeps
    // both builds bit-identical.
    // Every entry (i, c), i >= c, is A(i, c) minus the products over t < c in increasing
    // order; the rows are updated side by side (column-major: contiguous).
    for (int c = 0; c < width; ++c) {
      double* pc = &panel(0, c);
      int t = 0;
      for (; t + 4 <= c; t += 4) {  // four t per pass, each entry still in increasing t
        const double* p0 = &panel(0, t);
        const double* p1 = &panel(0, t + 1);
        const double* p2 = &panel(0, t + 2);
        const double* p3 = &panel(0, t + 3);
        const double c0 = p0[c], c1 = p1[c], c2 = p2[c], c3 = p3[c];
        for (int i = c; i < m; ++i) {
          double v = pc[i] - p0[i] * c0;
          v -= p1[i] * c1;
          v -= p2[i] * c2;
          pc[i] = v - p3[i] * c3;
        }
      }
      for (; t < c; ++t) {
        const double* pt = &panel(0, t);
        const double ct = pt[c];
        for (int i = c; i < m; ++i) pc[i] -= pt[i] * ct;
      }
      double diagonal = pc[c];
      if (!(diagonal > 0) || !(diagonal > min_relative_pivot * value_[start_[first + c]])) return false;
      diagonal = std::sqrt(diagonal);
      pc[c] = diagonal;
      for (int i = c + 1; i < m; ++i) pc[i] /= diagonal;
    }
    for (int c = 0; c < width; ++c)
      for (int t = 0; t < m - c; ++t) value_[start_[first + c] + t] = panel(c + t, c);

    next_row[s] = width;
    if (m > width) {
      const int target = super_of_[rows[width]];
      next[s] = head[target];
      head[target] = s;
    }
  }
  return true;
}

void SupernodalCholesky::solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const {
  work_.resize(n_);
  double* y = work_.data();
  for (int i = 0; i < n_; ++i) y[perm_[i]] = b[i];
  lower_solve<1>(y);
  upper_solve<1>(y);
  x.resize(n_);
  for (int i = 0; i < n_; ++i) x[i] = y[perm_[i]];
}

void SupernodalCholesky::solve3(const double* b, double* x) const {
  work_.resize(3 * static_cast<std::size_t>(n_));
  double* y = work_.data();
  for (int i = 0; i < n_; ++i)
    for (int c = 0; c < 3; ++c) y[3 * perm_[i] + c] = b[3 * i + c];
  lower_solve<3>(y);
  upper_solve<3>(y);
  for (int i = 0; i < n_; ++i)
    for (int c = 0; c < 3; ++c) x[3 * i + c] = y[3 * perm_[i] + c];
}

void SupernodalCholesky::forward(const Eigen::VectorXd& b, Eigen::VectorXd& y) const {
  y.resize(n_);
  for (int i = 0; i < n_; ++i) y[perm_[i]] = b[i];
  // a sparse b (a contact row's couplings, a unit vector) only reaches the supernodes on the
  // tree paths from its non-zeros to the root; the others hold zeros throughout, and their
  // operations would leave every entry as it is, so they are skipped (same results)
  const int supernodes = supernode_count();
  reach_.clear();
  if (reach_mark_.size() != static_cast<std::size_t>(supernodes)) reach_mark_.assign(supernodes, 0);
  for (int i = 0; i < n_ && static_cast<int>(reach_.size()) * 4 <= supernodes; ++i)
    if (b[i] != 0)
      for (int t = super_of_[perm_[i]]; t >= 0 && !reach_mark_[t]; t = super_parent_[t]) {
        reach_mark_[t] = 1;
        reach_.push_back(t);
      }
  for (int t : reach_) reach_mark_[t] = 0;
  if (static_cast<int>(reach_.size()) * 4 > supernodes) {
    lower_solve<1>(y.data());
    return;
  }
  std::sort(reach_.begin(), reach_.end());
  for (int t : reach_) lower_solve_supernode<1>(t, y.data());
}

void SupernodalCholesky::backward(const Eigen::VectorXd& y, Eigen::VectorXd& x) const {
  work_.assign(y.data(), y.data() + n_);
  upper_solve<1>(work_.data());
  x.resize(n_);
  for (int i = 0; i < n_; ++i) x[i] = work_[perm_[i]];
}

// Triangular solves in place, in factor order, for K right-hand sides (y row-major, n by K:
// the K values of one unknown together). Every entry of L is loaded once for the K sides, and
// each side sees exactly the operations of the one-side solve. The rows below a supernode's
// diagonal block are shared by its columns, so one pass over them serves up to four columns.
template <int K>
void SupernodalCholesky::lower_solve(double* y) const {
  // L y = b
  for (int s = 0; s < supernode_count(); ++s) lower_solve_supernode<K>(s, y);
}

template <int K>
void SupernodalCholesky::lower_solve_supernode(int s, double* y) const {
  const int* start = start_.data();
  const int* row = row_.data();
  const double* value = value_.data();
  {
    const int first = super_start_[s], last = super_start_[s + 1] - 1;
    for (int c = first; c <= last; ++c) {  // dense lower-triangular block
      double* yc = y + K * c;
      const double d = value[start[c]];
      for (int i = 0; i < K; ++i) yc[i] /= d;
      for (int c2 = c + 1; c2 <= last; ++c2) {
        const double v = value[start[c] + (c2 - c)];
        for (int i = 0; i < K; ++i) y[K * c2 + i] -= v * yc[i];
      }
    }
    const int shared = start[last + 1] - start[last] - 1;
    const int* rows = row + start[last] + 1;
    // values of column c on the shared rows (they follow its part of the diagonal block)
    auto below = [&](int c) { return value + start[c] + (last - c + 1); };
    int c = first;
    for (; c + 3 <= last; c += 4) {
      const double *v0 = below(c), *v1 = below(c + 1), *v2 = below(c + 2), *v3 = below(c + 3);
      double a[4][K];  // the four columns' values, held while the shared rows are updated
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < K; ++i) a[j][i] = y[K * (c + j) + i];
      for (int k = 0; k < shared; ++k) {
        double* yr = y + K * rows[k];
        for (int i = 0; i < K; ++i) yr[i] -= v0[k] * a[0][i] + v1[k] * a[1][i] + v2[k] * a[2][i] + v3[k] * a[3][i];
      }
    }
    for (; c <= last; ++c) {
      const double* v = below(c);
      double a[K];
      for (int i = 0; i < K; ++i) a[i] = y[K * c + i];
      for (int k = 0; k < shared; ++k) {
        double* yr = y + K * rows[k];
        for (int i = 0; i < K; ++i) yr[i] -= v[k] * a[i];
      }
    }
  }
}

template <int K>
void SupernodalCholesky::upper_solve(double* y) const {
  const int* start = start_.data();
  const int* row = row_.data();
  const double* value = value_.data();
  const int supernodes = supernode_count();
  // L^T x = y
  for (int s = supernodes - 1; s >= 0; --s) {
    const int first = super_start_[s], last = super_start_[s + 1] - 1;
    const int shared = start[last + 1] - start[last] - 1;
    const int* rows = row + start[last] + 1;
    auto below = [&](int c) { return value + start[c] + (last - c + 1); };
    int c = first;
    for (; c + 3 <= last; c += 4) {
      const double *v0 = below(c), *v1 = below(c + 1), *v2 = below(c + 2), *v3 = below(c + 3);
      double t[4][K] = {};
      for (int k = 0; k < shared; ++k) {
        const double* yr = y + K * rows[k];
        for (int i = 0; i < K; ++i) {
          t[0][i] += v0[k] * yr[i];
          t[1][i] += v1[k] * yr[i];
          t[2][i] += v2[k] * yr[i];
          t[3][i] += v3[k] * yr[i];
        }
      }
      for (int j = 0; j < 4; ++j)
        for (int i = 0; i < K; ++i) y[K * (c + j) + i] -= t[j][i];
    }
    for (; c <= last; ++c) {
      const double* v = below(c);
      double t[K] = {};
      for (int k = 0; k < shared; ++k)
        for (int i = 0; i < K; ++i) t[i] += v[k] * y[K * rows[k] + i];
      for (int i = 0; i < K; ++i) y[K * c + i] -= t[i];
    }
    for (int c2 = last; c2 >= first; --c2) {  // dense block, transposed
      double sum[K];
      for (int i = 0; i < K; ++i) sum[i] = y[K * c2 + i];
      for (int c3 = c2 + 1; c3 <= last; ++c3) {
        const double v = value[start[c2] + (c3 - c2)];
        for (int i = 0; i < K; ++i) sum[i] -= v * y[K * c3 + i];
      }
      const double d = value[start[c2]];
      for (int i = 0; i < K; ++i) y[K * c2 + i] = sum[i] / d;
    }
  }
}

}  // namespace tela
