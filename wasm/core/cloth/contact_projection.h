// The projection with contacts and friction (thesis §3.4, eq. 3.4-3.6): from the current
// iterate phi_j, a sequence of QPs
//
//   min 1/2 D^T M D - D^T f_mu   s.t.  C(phi_j) + grad C(phi_j) D = 0,   H(phi_j) + grad H D >= 0,
//   phi_{j+1} = phi_j + D,
//
// each solved by the active-set solver (qp/active_set.h) warm-started with the previous
// iteration's (and, at the first iteration, the previous projection's: the state's
// ContactWarmStart, cloth/state.h) working set and the contacts violated at phi_j. The rows of C
// are the scaled inextensibility rows of cloth/projection.h, with the same Levenberg-Marquardt
// shift sigma (the QP then relaxes C by 1/(2 sigma)|C + grad C D|^2; the sequence still
// converges to C = 0). Contact rows H are ContactConstraints (contact/contact_constraint.h):
// affine in the positions, so after each QP they hold exactly at phi_{j+1}.
//
// Friction (thesis eq. 3.4: lagged, f_mu(phi_dot_j) ~ f_mu(phi_dot_{j+1}), Remark 3.4.1). Per
// contact the normal impulse of the step is accumulated from the QP multipliers, N = sum_j
// gamma_j, and a friction impulse F (tangential, in the same units as M D) is carried over the
// iterations: with u_t the relative tangential velocity of the contact at phi_{j+1} and m the
// effective mass of the contact point (1/m = sum_i w_i^2 / m_i),
//   F <- clamp_{|F| <= mu N}( F - m u_t h ),
// and the change of F is the force term f_mu of the next QP. Sliding (|F| = mu N) gives the
// thesis' f_mu = -mu V^T beta (opposite to the tangential velocity, magnitude mu times the
// normal force); below the cone the contact sticks (u_t -> 0), which the thesis' formula
// leaves open (its direction is undefined at zero velocity): this is our choice.
//
// The chord (our choice; the thesis linearizes at every phi_j): the rows of C use grad C from
// the last refresh, not from phi_j, while C itself is evaluated at phi_j, a chord (simplified
// Newton) iteration. The QPs of one projection then often share their equality rows, so the
// active-set solver's base factor is exactly the one it already has (qp/active_set.h,
// reused_factors). The Jacobian is refreshed at the first iteration and whenever the error is
// above the tolerance and did not shrink by kChordContraction since the last QP; the stopping
// test is on the true C(phi_j). Measured against a Jacobian refreshed at every QP:
// docs/validation.md, "Contact speed".
//
// Stopping (thesis eq. 3.5): relative constraint error <= tolerance, penetration
// (max -gap) <= kContactPenetration, the last displacement max |D| <= kContactStep (the
// friction has settled), and no new contact reported by the provider in the last iteration.
// Constraints met to the tolerance get grad C D = 0 in later QPs (not pushed further, as the
// plain projection stops there). When they are met and every contact holds, the next QP's
// displacement is bounded by its friction term alone (see project()); if that bound is below
// kContactStep the next QP is not solved: a resting contact then costs one QP per step.
#pragma once

#include "contact/contact_provider.h"
#include "cloth/model.h"
#include "cloth/projection.h"
#include "cloth/state.h"
#include "qp/active_set.h"

#include <array>
#include <utility>
#include <vector>

namespace tela {

constexpr double kContactPenetration = 1e-4;  // m, epsilon_1 of eq. 3.5
constexpr double kContactStep = 1e-5;         // m, epsilon_2 of eq. 3.5
// the inextensibility Jacobian is refreshed when the error did not shrink by this factor (see
// the header comment on the chord)
constexpr double kChordContraction = 0.25;
constexpr double kContactHeld = 1e-8;         // m, penetration below which a contact counts as holding

struct ContactProjectionReport {
  ProjectionReport projection;       // status, iterations, constraint error as in cloth/projection.h
  int contacts = 0;                  // contacts in the last QP's working set
  int limited = 0;                   // strain-limit rows in it (cloth/strain_limit.h; not contacts)
  int constraints = 0;               // contact constraints known at the end (merged)
  double penetration = 0;            // max(0, max -gap) at the end, metres
  int qp_iterations = 0;             // active-set iterations, summed
  QpStatus qp_status = QpStatus::converged;  // the worst status of the QPs (converged if all were)
  int skipped = 0;                   // malformed constraints ignored (node out of range, non-finite)
};

// One QP of the sequence with the working set it was warm-started from (for benchmarks).
struct RecordedQp {
  QpProblem problem;
  std::vector<int> warm_start;
};

// Scratch between projections (cloth/step.h, StepWorkspace): the contacts, impulses and chord
// start anew with every projection, the equality pattern is remade when the model's differs,
// and the solver keeps, besides its plan (state), only caches of exactly equal inputs.
class ContactProjector {
 public:
  ActiveSetSolver solver;
  // When set (not owned), every QP solved is appended here: bench/bench_qp.cpp replays the
  // sequence with the reference solver.
  std::vector<RecordedQp>* record = nullptr;

  // Projects `positions` (the iterate at t1 = t0 + h; rows of controlled nodes are kept)
  // onto inextensibility and contacts with friction. `start` is phi^n (#nodes by 3) at t0;
  // `found` the contacts the provider reported for `positions`; the provider is asked again
  // after every iteration. too_far (nothing iterated) when the starting constraint error
  // exceeds max_start_error. The projection starts from `warm` (the state's) and leaves its
  // own there: the solver's plan after every QP, the working set's contacts when it ends
  // without an error.
  ContactProjectionReport project(const ClothModel& model, const Positions& start, double t0, double h,
                                  int attempt, ContactProvider& provider,
                                  const std::vector<ContactConstraint>& found, Positions& positions,
                                  double tolerance, int max_iterations, double max_start_error,
                                  ContactWarmStart& warm);

 private:
  using Key = ContactKey;
  bool merge(const std::vector<ContactConstraint>& found, int node_count);
  void build_problem(const ClothModel& model, const Positions& positions, double tolerance, double previous_error,
                     double& error);
  std::vector<int> warm_rows(const std::vector<int>& warm_contact, int node_count) const;

  std::vector<ContactConstraint> contacts_;
  std::vector<double> normal_impulse_;          // N per contact
  std::vector<Eigen::Vector3d> friction_;       // F per contact
  std::vector<int> row_of_contact_;             // QP row of each contact, -1 when it has no free node
  std::vector<int> contact_of_row_;

  // the pattern of the equality rows (problem_.equality) for one constraint set and set of
  // free nodes: per row, the support entries with a free node by increasing free index
  std::vector<int> pattern_support_start_, pattern_support_, pattern_free_;
  std::vector<int> equality_entries_;
  bool equality_direct_ = false;  // false: rows with a repeated free node, assembled from triplets

  QpProblem problem_;
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> gradient_;  // grad C at phi_j
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> chord_;     // grad C at the last refresh
  Eigen::VectorXd values_;
  std::vector<ContactConstraint> found_;
  int skipped_ = 0;
};

// The cloth nodes (ascending, once each) of the contacts in `warm`'s working set (strain-limit
// rows are not contacts).
std::vector<int> active_contact_nodes(const ContactWarmStart& warm);

}  // namespace tela
