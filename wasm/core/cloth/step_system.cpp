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
  Eigen::VectorXd mass(3 * n);
  for (int k = 0; k < n; ++k) mass.segment<3>(3 * k).setConstant(mass_factor * model.lumped_area[k]);
  Sparse S(mass.asDiagonal());
  if (model.damping.nonZeros() > 0) S += h * model.damping;
  if (model.stiffness.nonZeros() > 0) S += (h * h) * model.stiffness;
  std::vector<Eigen::Triplet<double>> select;
  for (int k = 0; k < n; ++k)
    if (model.free_index[k] >= 0)
      for (int c = 0; c < 3; ++c) select.emplace_back(3 * model.free_index[k] + c, 3 * k + c, 1.0);
  Sparse P(3 * model.free_count, 3 * n);
  P.setFromTriplets(select.begin(), select.end());
  coupling_ = P * S;
  const Sparse free_block = coupling_ * P.transpose();
  factor_ = std::make_unique<Eigen::SimplicialLDLT<Sparse>>();
  factor_->compute(free_block);
  ok_ = factor_->info() == Eigen::Success;
}

void StepSystem::solve(const ClothModel& model, const Eigen::VectorXd& rhs,
                       Eigen::VectorXd& velocity) const {
  const int n = model.node_count();
  Eigen::VectorXd free_rhs(3 * model.free_count);
  for (int k = 0; k < n; ++k) {
    const int f = model.free_index[k];
    if (f >= 0) {
      free_rhs.segment<3>(3 * f) = rhs.segment<3>(3 * k);
      velocity.segment<3>(3 * k).setZero();
    }
  }
  Eigen::VectorXd free_velocity;
  if (factor_) {
    free_rhs -= coupling_ * velocity;  // moves the prescribed velocities to the right
    free_velocity = factor_->solve(free_rhs);
  } else {
    free_velocity = free_rhs.cwiseQuotient(diagonal_);
  }
  for (int k = 0; k < n; ++k) {
    const int f = model.free_index[k];
    if (f >= 0) velocity.segment<3>(3 * k) = free_velocity.segment<3>(3 * f);
  }
}

}  // namespace tela
