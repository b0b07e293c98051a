// The unconstrained implicit-Euler system of a step of length h (MATH.md §1.10, velocity form)
//   S(h) v = rho M v_n + h (f_delta - kappa K x_n + F_s(x_n)),
//   S(h) = (rho + h alpha) M + h beta K + h^2 (kappa K + H_s),
// restricted to the free dofs (controlled nodes have prescribed velocities). S(h) is constant
// for a given h, so it is factorized once; a diagonal S needs no factorization.
#pragma once

#include "cloth/model.h"

#include <Eigen/SparseCholesky>
#include <memory>

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
  Eigen::VectorXd diagonal_;                 // 3 * free_count, diagonal case
  Eigen::SparseMatrix<double> coupling_;     // free rows, all 3n columns (S restricted)
  std::unique_ptr<Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>> factor_;
};

}  // namespace tela
