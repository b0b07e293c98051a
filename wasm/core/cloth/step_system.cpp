#include "cloth/step_system.h"

namespace tela {

StepSystem::StepSystem(const ClothModel& model, double h) : h_(h) {
  const int n = model.node_count();
  const Material& mat = model.material;
  const double mass_factor = mat.rho + h * mat.alpha;
  if (model.step_matrix_diagonal) {
    diagonal_.resize(3 * model.free_count);
    for (int k = 0; k < n; ++k)
      if (model.free_index[k] >= 0)
        diagonal_.segment<3>(3 * model.free_index[k]).setConstant(mass_factor * model.lumped_area[k]);
    return;
  }
  using Sparse = Eigen::SparseMatrix<double>;
  // damping = beta K (x) I3 and stiffness = kappa K (x) I3 (+ H_s with shear), model.h
  per_node_ = mat.shear == 0;
  const int block = per_node_ ? 1 : 3;  // unknowns per node
  Eigen::VectorXd mass(block * n);
  for (int k = 0; k < n; ++k) mass.segment(block * k, block).setConstant(mass_factor * model.lumped_area[k]);
  Sparse S(mass.asDiagonal());
  if (per_node_) {
    if (mat.beta > 0) S += h * (mat.beta * model.bending);
    if (mat.kappa > 0) S += (h * h) * (mat.kappa * model.bending);
  } else {
    if (model.damping.nonZeros() > 0) S += h * model.damping;
    if (model.stiffness.nonZeros() > 0) S += (h * h) * model.stiffness;
  }
  // P selects the free unknowns (rows), Q the controlled ones (columns)
  std::vector<Eigen::Triplet<double>> select, controlled;
  for (int k = 0; k < n; ++k)
    for (int c = 0; c < block; ++c) {
      if (model.free_index[k] >= 0) {
        select.emplace_back(block * model.free_index[k] + c, block * k + c, 1.0);
      } else {
        controlled.emplace_back(block * k + c, static_cast<int>(controlled_.size()), 1.0);
        controlled_.push_back(block * k + c);
      }
    }
  Sparse P(block * model.free_count, block * n);
  P.setFromTriplets(select.begin(), select.end());
  Sparse Q(block * n, static_cast<int>(controlled_.size()));
  Q.setFromTriplets(controlled.begin(), controlled.end());
  const Sparse free_rows = P * S;
  coupling_ = free_rows * Q;
  const Sparse free_block = Sparse(free_rows * P.transpose()).triangularView<Eigen::Lower>();
  factor_.analyze(free_block);
  ok_ = factor_.factorize(free_block, 0.0);
  factored_ = true;
}

void StepSystem::solve(const ClothModel& model, const Eigen::VectorXd& rhs,
                       Eigen::VectorXd& velocity) const {
  const int n = model.node_count();
  if (!factored_) {
    for (int k = 0; k < n; ++k) {
      const int f = model.free_index[k];
      if (f >= 0)
        velocity.segment<3>(3 * k) = rhs.segment<3>(3 * k).cwiseQuotient(diagonal_.segment<3>(3 * f));
    }
    return;
  }
  const int free = model.free_count;
  const int unknowns = per_node_ ? free : 3 * free;
  free_rhs_.resize(unknowns);
  prescribed_.resize(static_cast<Eigen::Index>(controlled_.size()));
  // per node: one solve per coordinate c; per dof: one solve (c = 0 covers all)
  for (int c = 0; c < (per_node_ ? 3 : 1); ++c) {
    for (int k = 0; k < n; ++k) {
      const int f = model.free_index[k];
      if (f < 0) continue;
      if (per_node_) free_rhs_[f] = rhs[3 * k + c];
      else free_rhs_.segment<3>(3 * f) = rhs.segment<3>(3 * k);
    }
    // moves the prescribed velocities to the right
    for (std::size_t j = 0; j < controlled_.size(); ++j)
      prescribed_[j] = per_node_ ? velocity[3 * controlled_[j] + c] : velocity[controlled_[j]];
    free_rhs_ -= coupling_ * prescribed_;
    factor_.solve(free_rhs_, free_velocity_);
    for (int k = 0; k < n; ++k) {
      const int f = model.free_index[k];
      if (f < 0) continue;
      if (per_node_) velocity[3 * k + c] = free_velocity_[f];
      else velocity.segment<3>(3 * k) = free_velocity_.segment<3>(3 * f);
    }
  }
}

}  // namespace tela
