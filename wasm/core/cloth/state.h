// ClothState: everything the next step depends on besides the model and the controls. Two
// equal states step to equal states, bit for bit, whatever workspace steps them: the step's
// workspace (cloth/step.h, StepWorkspace) is scratch that can be dropped at any time.
//
// Besides the positions, the velocities and the clock, the solver carries from one step to the
// next the subdivision level it starts from, the matrix whose factorization preconditions the
// projection, and the contact solver's warm start: each changes the round-off of the next
// step (the iterations stop at a tolerance, not at the exact solution), so each is state.
#pragma once

#include "geometry/mesh.h"
#include "qp/active_set.h"

#include <array>
#include <memory>
#include <utility>
#include <vector>

namespace tela {

// The matrix J W J^T of the projection as last factorized (cloth/projection.h): its
// factorization preconditions the conjugate gradients of later iterations, substeps and steps,
// and the shift sigma it was factorized with is the Levenberg-Marquardt shift of those solves.
// The values are the lower triangle in the pattern the Projector lays out for the model; they
// are shared and never changed (a new factorization makes a new array), so copying a state is
// cheap and a workspace knows its factor is this matrix's by the pointer alone.
struct Preconditioner {
  std::shared_ptr<const std::vector<double>> matrix;  // null: none yet
  double shift = 0;
};

// A contact of the contact projection (cloth/contact_projection.h) by its nodes and source.
using ContactKey = std::pair<std::array<int, 4>, int>;

// What the contact projection carries to the next one: the contacts in its last working set
// (the next QPs start from them, thesis §3.5) and the active-set solver's planned rows.
struct ContactWarmStart {
  std::vector<ContactKey> active;  // sorted
  ActiveSetPlan plan;
};

struct ClothState {
  Positions positions;   // #nodes by 3, metres
  Positions velocities;  // #nodes by 3, m/s
  double time = 0;       // s, steps * dt (step() sets it so: the clock is the step count, not a sum)
  long steps = 0;        // steps taken
  int substep_level = 0; // the adaptive subdivision level the next step starts from (cloth/step.h)
  Preconditioner preconditioner;
  ContactWarmStart contact_warm_start;
};

}  // namespace tela
