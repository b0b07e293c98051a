#include "cloth/step_system.h"

namespace tela {

StepSystem::StepSystem(const ClothModel& model, double h) : h_(h) {
  const int n = model.node_count();
  const ClothMaterial& mat = model.material;
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
  free_rhs_.resize(3 * free);
  for (int k = 0; k < n; ++k) {
    const int f = model.free_index[k];
    if (f >= 0) free_rhs_.segment<3>(3 * f) = rhs.segment<3>(3 * k);
  }
  // moves the prescribed velocities to the right: free_rhs -= coupling * prescribed, for
  // each coordinate (per node) or dof (per dof), column by column
  const int* outer = coupling_.outerIndexPtr();
  const int* inner = coupling_.innerIndexPtr();
  const double* value = coupling_.valuePtr();
  for (std::size_t j = 0; j < controlled_.size(); ++j) {
    if (per_node_) {
      const double v0 = -velocity[3 * controlled_[j]], v1 = -velocity[3 * controlled_[j] + 1],
                   v2 = -velocity[3 * controlled_[j] + 2];
      for (int p = outer[j]; p < outer[j + 1]; ++p) {
        double* r = free_rhs_.data() + 3 * inner[p];
        r[0] += value[p] * v0;
        r[1] += value[p] * v1;
        r[2] += value[p] * v2;
      }
    } else {
      const double v = -velocity[controlled_[j]];
      for (int p = outer[j]; p < outer[j + 1]; ++p) free_rhs_[inner[p]] += value[p] * v;
    }
  }
  free_velocity_.resize(3 * free);
  // per node: free_rhs_ is free_count by 3, row-major (the interleaved dof order)
  if (per_node_) factor_.solve3(free_rhs_.data(), free_velocity_.data());
  else factor_.solve(free_rhs_, free_velocity_);
  for (int k = 0; k < n; ++k) {
    const int f = model.free_index[k];
    if (f >= 0) velocity.segment<3>(3 * k) = free_velocity_.segment<3>(3 * f);
  }
}

}  // namespace tela
