// Sparse Cholesky factorization A + shift I = P^T L L^T P with supernodes: columns of L that
// share their pattern below a dense diagonal block are factorized together with dense
// kernels, and triangular solves walk the shared rows once per group of columns.
//
// The projection factorizes J W J^T whose pattern never changes: analyze() once (AMD
// ordering, elimination tree, pattern of L, supernodes), then factorize() whenever the values
// change. Left-looking: each supernode gathers its columns of A, subtracts the updates of the
// supernodes below it in the elimination tree, then factors its dense panel.
// All summations run in a fixed order, so native and WebAssembly results are bit-identical.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

namespace tela {

class SupernodalCholesky {
 public:
  // `lower` holds the lower triangle (with diagonal) of a symmetric matrix, column-major.
  void analyze(const Eigen::SparseMatrix<double>& lower);

  // Factorizes lower + shift I (same pattern as analyzed). False if it is not positive
  // definite, or if a pivot (before its square root) is at most `min_relative_pivot` times
  // its diagonal entry: a row that depends on the rows before it to that tolerance (the
  // active-set solver's test for dependent gradients, qp/active_set.h; 0 accepts any
  // positive pivot, round-off ones included).
  bool factorize(const Eigen::SparseMatrix<double>& lower, double shift, double min_relative_pivot = 0);

  // x = (A + shift I)^-1 b with the last successful factorization. x and b may not alias.
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) const;

  // Three right-hand sides at once: b and x are n by 3, row-major (x, y, z of one unknown
  // together); each column is solved exactly as solve() would (the same operations in the
  // same order). x and b may not alias.
  void solve3(const double* b, double* x) const;

  // The two halves of solve(), for bordered systems (qp/active_set.h): y = L^-1 P b in the
  // factor's order, and x = P^T L^-T y.
  void forward(const Eigen::VectorXd& b, Eigen::VectorXd& y) const;
  void backward(const Eigen::VectorXd& y, Eigen::VectorXd& x) const;

  int supernode_count() const { return static_cast<int>(super_start_.size()) - 1; }
  int size() const { return n_; }

 private:
  int n_ = 0;
  std::vector<int> perm_;        // perm_[i] = position of original row i in the factor
  // L, column-major, rows sorted, diagonal first in every column
  std::vector<int> start_, row_;
  std::vector<double> value_;
  std::vector<int> super_start_;  // column ranges of supernodes, plus n
  std::vector<int> super_of_;     // supernode of each column
  // position in value_ of each stored entry of the analyzed matrix (by its value index)
  std::vector<int> entry_row_;
  std::vector<int> super_parent_;  // supernode of the parent of each supernode's last column, or -1
  mutable std::vector<double> work_;
  mutable std::vector<int> reach_;  // forward(): the supernodes a sparse right-hand side reaches
  mutable std::vector<char> reach_mark_;

  // in place, factor order, K right-hand sides (n by K, row-major)
  template <int K>
  void lower_solve(double* y) const;
  template <int K>
  void upper_solve(double* y) const;
  template <int K>
  void lower_solve_supernode(int s, double* y) const;
};

}  // namespace tela
