// The supernodal Cholesky against dense solves: random sparse SPD matrices, a 2-D grid
// Laplacian (wide supernodes), the shift, and refactorization with new values.
#include <doctest/doctest.h>

#include "linalg/supernodal_cholesky.h"

#include <Eigen/Dense>
#include <random>

using namespace tela;

namespace {

// lower triangle of a sparse matrix given densely
Eigen::SparseMatrix<double> lower_of(const Eigen::MatrixXd& dense) {
  std::vector<Eigen::Triplet<double>> t;
  for (int c = 0; c < dense.cols(); ++c)
    for (int r = c; r < dense.rows(); ++r)
      if (dense(r, c) != 0) t.emplace_back(r, c, dense(r, c));
  Eigen::SparseMatrix<double> m(dense.rows(), dense.cols());
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

double solve_error(const Eigen::MatrixXd& A, double shift, std::mt19937_64& rng) {
  SupernodalCholesky chol;
  const Eigen::SparseMatrix<double> lower = lower_of(A);
  chol.analyze(lower);
  REQUIRE(chol.factorize(lower, shift));
  Eigen::VectorXd b(A.rows());
  for (Eigen::Index i = 0; i < b.size(); ++i) b[i] = double(rng() % 1000) / 500.0 - 1.0;
  Eigen::VectorXd x;
  chol.solve(b, x);
  const Eigen::MatrixXd shifted = A + shift * Eigen::MatrixXd::Identity(A.rows(), A.cols());
  const Eigen::VectorXd expected = shifted.llt().solve(b);
  return (x - expected).norm() / expected.norm();
}

}  // namespace

TEST_CASE("supernodal Cholesky solves random sparse SPD systems") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 5 + static_cast<int>(rng() % 60);
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
    for (int e = 0; e < 3 * n; ++e) B(rng() % n, rng() % n) = double(rng() % 1000) / 1000.0 - 0.5;
    const Eigen::MatrixXd A = B * B.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    CAPTURE(trial);
    CHECK(solve_error(A, 0.0, rng) < 1e-10);
    CHECK(solve_error(A, 0.7, rng) < 1e-10);
  }
}

TEST_CASE("supernodal Cholesky on a grid Laplacian with wide supernodes, refactorized") {
  const int side = 14, n = side * side;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (int j = 0; j < side; ++j)
    for (int i = 0; i < side; ++i) {
      const int k = j * side + i;
      A(k, k) = 4.01;
      if (i + 1 < side) A(k, k + 1) = A(k + 1, k) = -1;
      if (j + 1 < side) A(k, k + side) = A(k + side, k) = -1;
    }
  std::mt19937_64 rng(5);
  SupernodalCholesky chol;
  const Eigen::SparseMatrix<double> lower = lower_of(A);
  chol.analyze(lower);
  CHECK(chol.supernode_count() < n);  // some columns were merged
  CHECK(solve_error(A, 0.0, rng) < 1e-10);
  // same pattern, new values: scale the off-diagonal coupling
  Eigen::MatrixXd A2 = A;
  for (int k = 0; k < n; ++k) A2(k, k) = 5.0;
  Eigen::SparseMatrix<double> lower2 = lower_of(A2);
  REQUIRE(chol.factorize(lower2, 0.0));
  Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(n, -1, 1), x;
  chol.solve(b, x);
  CHECK((A2 * x - b).norm() < 1e-10 * b.norm());
}

TEST_CASE("supernodal Cholesky reports an indefinite matrix") {
  Eigen::MatrixXd A(3, 3);
  A << 1, 2, 0, 2, 1, 0, 0, 0, 1;
  SupernodalCholesky chol;
  const Eigen::SparseMatrix<double> lower = lower_of(A);
  chol.analyze(lower);
  CHECK_FALSE(chol.factorize(lower, 0.0));
  CHECK(chol.factorize(lower, 2.0));  // A + 2 I is positive definite
}

TEST_CASE("supernodal Cholesky: three right-hand sides at once give the one-vector solves bit for bit") {
  std::mt19937_64 rng(5);
  for (int n : {7, 40, 150}) {
    Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
    for (int e = 0; e < 4 * n; ++e) B(rng() % n, rng() % n) = double(rng() % 1000) / 1000.0 - 0.5;
    const Eigen::MatrixXd A = B * B.transpose() + 0.1 * Eigen::MatrixXd::Identity(n, n);
    SupernodalCholesky chol;
    const Eigen::SparseMatrix<double> lower = lower_of(A);
    chol.analyze(lower);
    REQUIRE(chol.factorize(lower, 0.0));
    Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> b(n, 3), x(n, 3);
    for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = double(rng() % 1000) / 500.0 - 1.0;
    chol.solve3(b.data(), x.data());
    int mismatches = 0;
    for (int c = 0; c < 3; ++c) {
      Eigen::VectorXd one;
      chol.solve(b.col(c), one);
      for (int i = 0; i < n; ++i) mismatches += one[i] != x(i, c);
    }
    CAPTURE(n);
    CHECK(mismatches == 0);
  }
}
