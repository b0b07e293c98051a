// One time step of the inextensible cloth (thesis §2.6): the unconstrained implicit-Euler
// step, then the fast projection onto the constraints; velocities from the positions.
#pragma once

#include "cloth/model.h"
#include "cloth/projection.h"
#include "cloth/state.h"

#include <Eigen/Core>

namespace tela {

enum class StepStatus {
  converged,       // constraints met to the tolerance
  max_iterations,  // iteration cap reached with a moderate error: a warning, the run goes on
  diverged,        // the projection failed (singular system or error beyond recovery)
  non_finite,      // NaN or infinity appeared
};

const char* to_string(StepStatus status);

struct StepReport {
  StepStatus status = StepStatus::converged;
  int iterations = 0;
  double constraint_error = 0;  // max relative constraint error after the projection
};

// Reusable per-simulation work memory (factorization of the projection, buffers).
struct StepWorkspace {
  Projector projector;
  Eigen::VectorXd rhs, velocity;
  Positions start;
};

// Advances `state` by model.solver.dt. `targets` holds, in the rows of controlled nodes, their
// prescribed positions at the end of the step (other rows are ignored).
StepReport step(const ClothModel& model, ClothState& state, const Positions& targets,
                StepWorkspace& workspace);

// The relative error above which a projection that hit the iteration cap counts as diverged.
constexpr double kDivergedError = 0.05;

}  // namespace tela
