// How the time step asks for contacts (thesis §3.4.1): collision detection lives outside the
// cloth step, behind this interface.
//
// During one (sub)step from time t0 to t1 the step calls contacts() with the positions at
// t0 (`start`) and the current iterate (`current`): first with the unconstrained prediction
// (iteration 0) and then after every projection iteration, so that contacts that appear
// while the cloth is being projected are added (thesis: Collisions(phi^n -> phi_j) at every
// iteration j). Each call returns, in `out` (cleared by the caller), every constraint that may
// become active in this step: penetrating nodes and those within a proximity distance. The
// step merges the answers: a constraint with the same nodes and source as an earlier one
// replaces it (the later linearization wins, thesis §3.4.1); the others are kept until the
// end of the (sub)step. Returning no constraint at all keeps the plain projection (the step
// is then exactly the contact-free one).
//
// When the iteration has converged, accept() is asked whether the result is acceptable (e.g.
// the final omega = 0 self-collision check, thesis §3.4.1). Returning false makes the step
// redo the (sub)step from its unconstrained prediction, at most kMaxContactRetries times; the
// provider is expected to change something in between (e.g. halve omega, from the query's
// attempt). A provider must be deterministic, and its answers must depend on the query alone:
// it may keep work memory (a broad-phase grid) and counters, but nothing carried from one
// query to the next may change an answer, since a run continued from a copy of its state
// (cloth/state.h) gets a fresh provider.
#pragma once

#include "contact/contact_constraint.h"
#include "geometry/mesh.h"

#include <vector>

namespace tela {

struct ContactQuery {
  const Positions& start;    // #nodes by 3, metres, at time t0 (the start of the substep)
  const Positions& current;  // #nodes by 3, metres, the current iterate phi_j at time t1
  double t0 = 0, t1 = 0;     // s
  int iteration = 0;         // 0: the unconstrained prediction; j: after j projection iterations
  int attempt = 0;           // how many times accept() has rejected this substep
};

class ContactProvider {
 public:
  virtual ~ContactProvider() = default;
  virtual void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) = 0;
  virtual bool accept(const ContactQuery& /*query*/) { return true; }
};

}  // namespace tela
