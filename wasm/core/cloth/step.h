// One time step of the inextensible cloth (thesis §2.6): the unconstrained implicit-Euler
// step, then the fast projection onto the constraints; velocities from the positions.
//
// Adaptive subdivision (our addition; the thesis uses a fixed step): when the unconstrained
// step lands farther than kSplitStartError tolerances from the constraints, or the projection
// does not converge within kSplitIterations, the step is redone as 2, 4, ... 2^kMaxLevel
// substeps of implicit Euler + projection (the predictor's error shrinks like h^2). Hard phases (a fast whip, a taut edge pulled
// sideways) then cost a few cheap substeps instead of dozens of slowly converging Newton
// iterations; the constraints are always met to the same tolerance. After an easy step the
// next step tries one level coarser again (the level is state: ClothState::substep_level).
#pragma once

#include "cloth/contact_projection.h"
#include "contact/contact_provider.h"
#include "cloth/controls.h"
#include "cloth/model.h"
#include "cloth/projection.h"
#include "cloth/state.h"
#include "cloth/step_system.h"

#include <Eigen/Core>
#include <memory>
#include <vector>

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
  int iterations = 0;           // projection (Newton) iterations, summed over substeps
  int substeps = 1;             // substeps of the accepted attempt
  double constraint_error = 0;  // max relative constraint error after the projections
  // contacts (only with a ContactProvider; see cloth/contact_projection.h)
  int contacts = 0;             // contacts in the solver's active set at the end of the step
  int limited = 0;              // strain-limited pairs in it (cloth/strain_limit.h)
  double penetration = 0;       // max over the step's contact constraints of -gap at the end, metres
  int qp_iterations = 0;        // active-set iterations, summed over the step
  QpStatus qp_status = QpStatus::converged;  // the worst QP status of the step (infeasible, ...)
};

// At most 2^2 = 4 substeps per step (StepSettings::max_substeps may lower it; 1 is the
// thesis' fixed step). The projection stops anywhere inside the tolerance band
// and that position noise, divided by the substep, becomes velocity: with 16 substeps a
// strongly damped sheet kept an RMS speed of 0.09 m/s instead of settling (0.0015 m/s with 4).
constexpr int kMaxLevel = 2;
constexpr int kSplitIterations = 4;   // a projection needing more splits the step
constexpr double kSplitStartError = 10;  // so does a starting error above 10 tolerances
// The relative error above which a projection that hit the iteration cap counts as diverged.
constexpr double kDivergedError = 0.05;
// How often ContactProvider::accept() may send a substep back (contact/contact_provider.h).
constexpr int kMaxContactRetries = 3;

// Work memory of the steps of one model: scratch, which can be dropped (replaced by a fresh
// one) between any two steps without changing a bit of what they compute; everything carried
// from one step to the next is in ClothState. What it keeps between steps are caches:
//  - the projector's factorization of the state's preconditioner matrix, its sparsity
//    analysis and assembly plan (made from the model), its constraint-pass start rows (see
//    cloth/projection.h why they are not state);
//  - the contact projector's buffers and patterns and the active-set solver's caches
//    (cloth/contact_projection.h);
//  - the step systems S(h) of each substep length, factorized from the model alone;
//  - buffers overwritten before they are read (the targets are reset to the rest positions at
//    every step and the tracks write their nodes; K x is computed at the step's start).
// A workspace serves one model: a new model (released controls) needs a new workspace.
struct StepWorkspace {
  Projector projector;
  ContactProjector contact_projector;  // used only with a ContactProvider
  std::vector<ContactConstraint> found;
  Positions predicted;
  std::vector<std::unique_ptr<StepSystem>> systems;  // by level
  Eigen::VectorXd rhs, velocity;
  Positions start, targets;
  Positions saved_positions, saved_velocities;  // the step's start, for a redone attempt
  Eigen::Matrix<double, Eigen::Dynamic, 3> bending_product;  // K x at a substep's start
  bool bending_product_at_start = false;  // it is K x_n of the current step's start
};

// Advances `state` by model.solver.dt (state.steps + 1, state.time = steps * dt), driving the
// controlled nodes along `tracks` (controlled nodes without a track hold their rest
// positions). With a `contacts` provider (not owned; may be null) the projection also
// enforces the contacts it reports, with Coulomb friction (thesis §3.4,
// cloth/contact_projection.h); a step in which the provider reports nothing is exactly the
// contact-free step.
StepReport step(const ClothModel& model, const std::vector<ControlTrack>& tracks, ClothState& state,
                StepWorkspace& workspace, ContactProvider* contacts = nullptr);

}  // namespace tela
