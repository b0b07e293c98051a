#include "cloth/shear.h"

namespace tela {
namespace {

using RowGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

}  // namespace

double shear_energy(const ClothModel& model, const Positions& x) {
  const ConstraintSet& set = model.shear_rows;
  RowGradients gradient;
  Eigen::VectorXd values;
  constraint_gradients(set, x, gradient);
  constraint_values(set, x, gradient, values);
  double energy = 0;
  for (int r = 0; r < set.rows(); ++r) energy += model.lumped_area[set.node[r]] * values[r] * values[r];
  return 0.5 * model.material.shear * energy;
}

void add_shear_force(const ClothModel& model, const Positions& x, Eigen::VectorXd& force) {
  const ConstraintSet& set = model.shear_rows;
  RowGradients gradient;
  Eigen::VectorXd values;
  constraint_gradients(set, x, gradient);
  constraint_values(set, x, gradient, values);
  for (int r = 0; r < set.rows(); ++r) {
    const double w = -model.material.shear * model.lumped_area[set.node[r]] * values[r];
    for (int s = set.support_start[r]; s < set.support_start[r + 1]; ++s)
      force.segment<3>(3 * set.support[s]) += w * gradient.row(s).transpose();
  }
}

}  // namespace tela
