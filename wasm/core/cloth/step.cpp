#include "cloth/step.h"

#include <cmath>

namespace tela {

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::converged: return "converged";
    case StepStatus::max_iterations: return "max_iterations";
    case StepStatus::diverged: return "diverged";
    case StepStatus::non_finite: return "non_finite";
  }
  return "unknown";
}

namespace {

// Shearing force F_s = -k_s grad C_F^T M C_F (thesis eq. 2.18), added to `force` (3n).
void add_shear_force(const ClothModel& model, const Positions& x, Eigen::VectorXd& force) {
  const ConstraintSet& set = model.shear_rows;
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> gradient;
  Eigen::VectorXd values;
  constraint_gradients(set, x, gradient);
  constraint_values(set, x, gradient, values);
  for (int r = 0; r < set.rows(); ++r) {
    const double w = -model.material.shear * model.lumped_area[set.node[r]] * values[r];
    for (int s = set.support_start[r]; s < set.support_start[r + 1]; ++s)
      force.segment<3>(3 * set.support[s]) += w * gradient.row(s).transpose();
  }
}

}  // namespace

StepReport step(const ClothModel& model, ClothState& state, const Positions& targets,
                StepWorkspace& workspace) {
  const Material& mat = model.material;
  const double dt = model.solver.dt;
  const int n = model.node_count();
  workspace.start = state.positions;

  // unconstrained step, velocity form of implicit Euler (MATH.md §1.10):
  //   S v = rho M v_n + dt (f_delta - kappa K x_n + F_s(x_n)),
  //   S = rho M + dt (alpha M + beta K) + dt^2 (kappa K + H_s),   f_delta = -delta M g e_z
  Eigen::VectorXd& rhs = workspace.rhs;
  rhs.resize(3 * n);
  for (int k = 0; k < n; ++k) {
    const double m = model.lumped_area[k];
    rhs.segment<3>(3 * k) = mat.rho * m * state.velocities.row(k).transpose();
    rhs[3 * k + 2] -= dt * mat.delta * m * kGravity;
  }
  if (mat.kappa > 0) {
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>> x(
        state.positions.data(), n, 3);
    const Eigen::Matrix<double, Eigen::Dynamic, 3> Kx = model.bending * x;
    for (int k = 0; k < n; ++k) rhs.segment<3>(3 * k) -= dt * mat.kappa * Kx.row(k).transpose();
  }
  if (mat.shear > 0) {
    Eigen::VectorXd force = Eigen::VectorXd::Zero(3 * n);
    add_shear_force(model, state.positions, force);
    rhs += dt * force;
  }

  // velocities of the controlled nodes are prescribed by their targets
  Eigen::VectorXd& v = workspace.velocity;
  v.setZero(3 * n);
  for (int k = 0; k < n; ++k)
    if (model.controlled[k])
      v.segment<3>(3 * k) = (targets.row(k) - state.positions.row(k)).transpose() / dt;

  Eigen::VectorXd free_velocity;
  if (model.step_matrix_diagonal) {
    free_velocity.resize(3 * model.free_count);
    for (int k = 0; k < n; ++k) {
      const int f = model.free_index[k];
      if (f >= 0)
        free_velocity.segment<3>(3 * f) =
            rhs.segment<3>(3 * k).cwiseQuotient(model.step_diagonal.segment<3>(3 * f));
    }
  } else {
    Eigen::VectorXd free_rhs(3 * model.free_count);
    for (int k = 0; k < n; ++k) {
      const int f = model.free_index[k];
      if (f >= 0) free_rhs.segment<3>(3 * f) = rhs.segment<3>(3 * k);
    }
    free_rhs -= model.step_coupling * v;  // v is zero on free dofs here
    free_velocity = model.step_factor->solve(free_rhs);
  }
  for (int k = 0; k < n; ++k) {
    const int f = model.free_index[k];
    if (f >= 0) v.segment<3>(3 * k) = free_velocity.segment<3>(3 * f);
  }
  for (int k = 0; k < n; ++k)
    state.positions.row(k) = model.controlled[k]
                                 ? Eigen::RowVector3d(targets.row(k))
                                 : Eigen::RowVector3d(state.positions.row(k) + dt * v.segment<3>(3 * k).transpose());

  // projection onto the constraints (thesis eq. 2.21)
  const ProjectionReport projection = workspace.projector.project(
      model, state.positions, model.solver.tolerance, model.solver.max_iterations);

  StepReport report;
  report.iterations = projection.iterations;
  report.constraint_error = projection.error;
  switch (projection.status) {
    case ProjectionStatus::converged: report.status = StepStatus::converged; break;
    case ProjectionStatus::max_iterations:
      report.status = projection.error > kDivergedError ? StepStatus::diverged
                                                        : StepStatus::max_iterations;
      break;
    case ProjectionStatus::singular: report.status = StepStatus::diverged; break;
    case ProjectionStatus::non_finite: report.status = StepStatus::non_finite; break;
  }
  if (!state.positions.allFinite()) report.status = StepStatus::non_finite;

  // thesis §3.4: velocities from the positions
  state.velocities = (state.positions - workspace.start) / dt;
  state.time += dt;
  return report;
}

}  // namespace tela
