#include "cloth/step.h"

#include "cloth/shear.h"

#include <algorithm>
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

const StepSystem& system_for(const ClothModel& model, int level, StepWorkspace& workspace) {
  if (static_cast<int>(workspace.systems.size()) <= level) workspace.systems.resize(level + 1);
  if (!workspace.systems[level])
    workspace.systems[level] = std::make_unique<StepSystem>(model, model.solver.dt / (1 << level));
  return *workspace.systems[level];
}

struct SubstepReport {
  ProjectionReport projection;
  bool contact = false;  // the contact projection ran
  int contacts = 0;
  int limited = 0;
  double penetration = 0;
  int qp_iterations = 0;
  QpStatus qp_status = QpStatus::converged;
};

// The projection with contacts (thesis §3.4): the provider is asked about the prediction; if
// it reports nothing, the plain projection runs and the provider is asked again about its
// result; contacts then continue the iteration from there. accept() may send the substep back
// to the prediction (at most kMaxContactRetries times).
SubstepReport project_with_contacts(const ClothModel& model, double t0, double h, int max_iterations,
                                    double max_start_error, ContactProvider& provider,
                                    ClothState& state, StepWorkspace& workspace) {
  const double tolerance = model.solver.tolerance;
  workspace.predicted = state.positions;
  SubstepReport report;
  for (int attempt = 0;; ++attempt) {
    state.positions = workspace.predicted;
    report = SubstepReport{};
    workspace.found.clear();
    provider.contacts(ContactQuery{workspace.start, state.positions, t0, t0 + h, 0, attempt}, workspace.found);
    int plain_iterations = 0;
    if (workspace.found.empty()) {
      report.projection = workspace.projector.project(model, state.preconditioner, state.positions, tolerance,
                                                      max_iterations, max_start_error);
      if (report.projection.status != ProjectionStatus::converged) return report;
      plain_iterations = report.projection.iterations;
      provider.contacts(ContactQuery{workspace.start, state.positions, t0, t0 + h, plain_iterations, attempt},
                        workspace.found);
      if (workspace.found.empty()) return report;
    }
    // contact iterations also settle the friction: they are no sign of a hard step, so they
    // get the full iteration budget instead of the subdivision cap
    const ContactProjectionReport contact = workspace.contact_projector.project(
        model, workspace.start, t0, h, attempt, provider, workspace.found, state.positions, tolerance,
        std::max(max_iterations, model.solver.max_iterations), max_start_error, state.contact_warm_start);
    report.projection = contact.projection;
    report.projection.iterations += plain_iterations;
    report.contact = true;
    report.contacts = contact.contacts;
    report.limited = contact.limited;
    report.penetration = contact.penetration;
    report.qp_iterations = contact.qp_iterations;
    report.qp_status = contact.qp_status;
    if (contact.projection.status != ProjectionStatus::converged || attempt >= kMaxContactRetries ||
        provider.accept(ContactQuery{workspace.start, state.positions, t0, t0 + h,
                                     report.projection.iterations, attempt}))
      return report;
  }
}

// One implicit-Euler step of length h followed by the projection (thesis eq. 2.20-2.21).
SubstepReport substep(const ClothModel& model, const StepSystem& system, const Positions& targets, double t0,
                      bool at_step_start, int max_iterations, double max_start_error, ContactProvider* contacts,
                      ClothState& state, StepWorkspace& workspace) {
  const ClothMaterial& mat = model.material;
  const double h = system.step_length();
  const int n = model.node_count();
  workspace.start = state.positions;

  //   S(h) v = rho M v_n + h (f_delta - kappa K x_n + F_s(x_n)),  f_delta = -delta M g e_z
  Eigen::VectorXd& rhs = workspace.rhs;
  rhs.resize(3 * n);
  for (int k = 0; k < n; ++k) {
    const double m = model.lumped_area[k];
    rhs.segment<3>(3 * k) = mat.rho * m * state.velocities.row(k).transpose();
    rhs[3 * k + 2] -= h * mat.delta * m * kGravity;
  }
  if (mat.kappa > 0) {
    // K x_n: the first substep of every attempt starts from the step's start, so it is reused
    Eigen::Matrix<double, Eigen::Dynamic, 3>& Kx = workspace.bending_product;
    if (!(at_step_start && workspace.bending_product_at_start)) {
      Kx.noalias() = model.bending * state.positions;
      workspace.bending_product_at_start = at_step_start;
    }
    for (int k = 0; k < n; ++k) rhs.segment<3>(3 * k) -= h * mat.kappa * Kx.row(k).transpose();
  }
  if (mat.shear > 0) {
    Eigen::VectorXd force = Eigen::VectorXd::Zero(3 * n);
    add_shear_force(model, state.positions, force);
    rhs += h * force;
  }
  // controlled nodes move to their targets
  Eigen::VectorXd& v = workspace.velocity;
  v.setZero(3 * n);
  for (int k = 0; k < n; ++k)
    if (model.controlled[k]) v.segment<3>(3 * k) = (targets.row(k) - state.positions.row(k)).transpose() / h;
  system.solve(model, rhs, v);
  for (int k = 0; k < n; ++k) {
    if (model.controlled[k]) state.positions.row(k) = targets.row(k);
    else state.positions.row(k) += h * v.segment<3>(3 * k).transpose();
  }

  SubstepReport report;
  if (contacts)
    report = project_with_contacts(model, t0, h, max_iterations, max_start_error, *contacts, state, workspace);
  else
    report.projection = workspace.projector.project(model, state.preconditioner, state.positions,
                                                    model.solver.tolerance, max_iterations, max_start_error);
  // thesis §3.4: velocities from the positions
  state.velocities = (state.positions - workspace.start) / h;
  return report;
}

}  // namespace

StepReport step(const ClothModel& model, const std::vector<ControlTrack>& tracks, ClothState& state,
                StepWorkspace& workspace, ContactProvider* contacts) {
  const double dt = model.solver.dt;
  const double t0 = state.time;
  workspace.saved_positions = state.positions;
  workspace.saved_velocities = state.velocities;
  workspace.bending_product_at_start = false;
  workspace.targets = model.rest_positions;

  StepReport report;
  const int max_level = model.solver.max_substeps >= 4 ? kMaxLevel : model.solver.max_substeps >= 2 ? 1 : 0;
  int level = std::min(state.substep_level, max_level);
  int spent = 0;  // iterations of rejected attempts count too: they were work
  int hardest = 0;
  for (;;) {
    const int substeps = 1 << level;
    const bool last_resort = level >= max_level;
    const int cap = last_resort ? model.solver.max_iterations
                                : std::min(model.solver.max_iterations, kSplitIterations);
    const StepSystem& system = system_for(model, level, workspace);
    report = StepReport{};
    report.substeps = substeps;
    if (!system.ok()) {  // S(h) is SPD by construction; this only guards numerical breakdown
      report.status = StepStatus::diverged;
      break;
    }
    hardest = 0;
    bool accepted = true;
    for (int s = 0; s < substeps; ++s) {
      const double t1 = t0 + dt * (s + 1) / substeps;
      control_targets(tracks, model.rest_positions, t1, workspace.targets);
      const double max_start = last_resort ? 1e300 : kSplitStartError * model.solver.tolerance;
      const SubstepReport sub = substep(model, system, workspace.targets, t0 + dt * s / substeps, s == 0, cap,
                                        max_start, contacts, state, workspace);
      const ProjectionReport& p = sub.projection;
      report.iterations += p.iterations;
      hardest = std::max(hardest, sub.contact ? 1 : p.iterations);
      report.constraint_error = std::max(report.constraint_error, p.error);
      report.contacts = sub.contacts;
      report.limited = sub.limited;
      report.penetration = std::max(report.penetration, sub.penetration);
      report.qp_iterations += sub.qp_iterations;
      if (sub.qp_status != QpStatus::converged) report.qp_status = sub.qp_status;
      StepStatus status = StepStatus::converged;
      if (p.status == ProjectionStatus::non_finite || !state.positions.allFinite()) {
        status = StepStatus::non_finite;
      } else if (p.status == ProjectionStatus::singular) {
        status = StepStatus::diverged;
      } else if (p.status == ProjectionStatus::too_far) {
        status = StepStatus::max_iterations;
      } else if (p.status == ProjectionStatus::max_iterations) {
        status = p.error > kDivergedError ? StepStatus::diverged : StepStatus::max_iterations;
      }
      if (status == StepStatus::converged) continue;
      report.status = status;
      // a shorter substep may converge: the step is redone at the next level
      if (!last_resort) {
        accepted = false;
        break;
      }
      // at the last level an iteration cap with a moderate error is a warning: the remaining
      // substeps still run, so that the step covers its whole dt; a divergence or non-finite
      // values end the step (and the run)
      if (status != StepStatus::max_iterations) break;
    }
    if (accepted) break;
    spent += report.iterations;
    // the positions and velocities go back to the step's start; what the solver carries
    // (preconditioner, contact warm start) goes on from the rejected attempt
    state.positions = workspace.saved_positions;
    state.velocities = workspace.saved_velocities;
    ++level;
  }
  report.iterations += spent;
  // start the next step one level coarser when every substep converged in one iteration
  state.substep_level = (hardest <= 1 && level > 0) ? level - 1 : level;
  ++state.steps;
  state.time = static_cast<double>(state.steps) * dt;
  return report;
}

}  // namespace tela
