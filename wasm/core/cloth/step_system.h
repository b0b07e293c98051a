// The unconstrained implicit-Euler system of a step of length h, velocity form (docs/math.md §1.10)
//   S(h) v = rho M v_n + h (f_delta - kappa K x_n + F_s(x_n)),
//   S(h) = (rho + h alpha) M + h beta K + h^2 (kappa K + H_s),
// restricted to the free dofs (controlled nodes have prescribed velocities). S(h) is constant
// for a given h, so it is factorized once; a diagonal S needs no factorization. Without the
// shear term, S(h) = A (x) I3 acts on x, y and z alike: the node matrix A (a third of the
// size) is factorized and solved for the three coordinates.
#pragma once

#include "cloth/model.h"
#include "linalg/supernodal_cholesky.h"

#include <Eigen/SparseCore>
#include <vector>

namespace tela {

class StepSystem {
 public:
  StepSystem(const ClothModel& model, double h);
  double step_length() const { return h_; }
  bool ok() const { return ok_; }

  // Solves for the velocities at the end of the step. `rhs` (3n) is the right-hand side;
  // `velocity` (3n) holds the prescribed velocities of controlled dofs on entry and all
  // velocities on return.
  void solve(const ClothModel& model, const Eigen::VectorXd& rhs, Eigen::VectorXd& velocity) const;

 private:
  double h_ = 0;
  bool ok_ = true;
  Eigen::VectorXd diagonal_;  // 3 * free_count, diagonal case
  // unknowns: nodes (S = A (x) I3, `per_node_` = true) or dofs (interleaved, with shear)
  bool per_node_ = false;
  bool factored_ = false;
  // the matrix restricted to free rows and to the columns of controlled unknowns (the only
  // ones with a prescribed, non-zero velocity): column c is unknown controlled_[c]
  Eigen::SparseMatrix<double> coupling_;
  std::vector<int> controlled_;
  SupernodalCholesky factor_;  // of the free block
  mutable Eigen::VectorXd free_rhs_, free_velocity_;  // work memory (one StepSystem per workspace)
};

}  // namespace tela
