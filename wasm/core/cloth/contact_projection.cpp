#include "cloth/contact_projection.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tela {

namespace {

ContactProjectionReport finish(ContactProjectionReport report, ProjectionStatus status) {
  report.projection.status = status;
  return report;
}

}  // namespace

bool ContactProjector::merge(const std::vector<ContactConstraint>& found, int node_count) {
  // the same nodes and source: the later linearization replaces the earlier (thesis §3.4.1)
  bool added = false;
  for (const ContactConstraint& c : found) {
    // a malformed constraint (a node out of range, a non-finite or zero normal) is skipped
    bool valid = c.normal.allFinite() && c.normal.squaredNorm() > 0 && std::isfinite(c.offset) &&
                 c.surface_velocity.allFinite();
    for (int s = 0; s < 4; ++s) valid = valid && c.nodes[s] < node_count && std::isfinite(c.weights[s]);
    if (!valid) {
      ++skipped_;
      continue;
    }
    auto same = std::find_if(contacts_.begin(), contacts_.end(), [&](const ContactConstraint& o) {
      return o.nodes == c.nodes && o.source == c.source;
    });
    if (same != contacts_.end()) {
      *same = c;
      continue;
    }
    contacts_.push_back(c);
    normal_impulse_.push_back(0.0);
    friction_.push_back(Eigen::Vector3d::Zero());
    added = true;
  }
  return added;
}

void ContactProjector::build_problem(const ClothModel& model, const Positions& positions, double tolerance,
                                     double previous_error, double& error) {
  const ConstraintSet& set = model.constraints;
  const int rows = set.rows();
  const int dofs = 3 * model.free_count;

  // E = grad C / s (scaled rows, cloth/constraints.h) at the last refresh (the chord, see the
  // header), e = -C(phi_j) / s
  constraint_gradients(set, positions, gradient_);
  constraint_values(set, positions, gradient_, values_);
  error = relative_error(set, values_);
  const bool refresh = !std::isfinite(previous_error) || chord_.rows() != gradient_.rows() ||
                       (error > tolerance && error > kChordContraction * previous_error);
  if (refresh) chord_ = gradient_;
  // the pattern of E, made once per constraint set and set of free nodes
  if (set.support_start != pattern_support_start_ || set.support != pattern_support_ ||
      model.free_index != pattern_free_ || problem_.equality.rows() != rows || problem_.equality.cols() != dofs) {
    pattern_support_start_ = set.support_start;
    pattern_support_ = set.support;
    pattern_free_ = model.free_index;
    equality_entries_.clear();
    std::vector<int> outer(rows + 1, 0);
    equality_direct_ = true;
    for (int r = 0; r < rows; ++r) {
      const std::size_t first = equality_entries_.size();
      for (int e = set.support_start[r]; e < set.support_start[r + 1]; ++e)
        if (model.free_index[set.support[e]] >= 0) equality_entries_.push_back(e);
      auto free_of = [&](int e) { return model.free_index[set.support[e]]; };
      std::sort(equality_entries_.begin() + first, equality_entries_.end(),
                [&](int a, int b) { return free_of(a) < free_of(b); });
      for (std::size_t i = first + 1; i < equality_entries_.size(); ++i)
        equality_direct_ = equality_direct_ && free_of(equality_entries_[i - 1]) < free_of(equality_entries_[i]);
      outer[r + 1] = 3 * static_cast<int>(equality_entries_.size());
    }
    problem_.equality.resize(rows, dofs);
    if (equality_direct_) {
      problem_.equality.resizeNonZeros(outer[rows]);
      std::copy(outer.begin(), outer.end(), problem_.equality.outerIndexPtr());
      int* inner = problem_.equality.innerIndexPtr();
      for (std::size_t i = 0; i < equality_entries_.size(); ++i)
        for (int c = 0; c < 3; ++c) inner[3 * i + c] = 3 * model.free_index[set.support[equality_entries_[i]]] + c;
    }
  }
  std::vector<Eigen::Triplet<double>> entries;
  if (!equality_direct_) entries.reserve(3 * set.support.size());
  double* entry = equality_direct_ ? problem_.equality.valuePtr() : nullptr;
  problem_.equality_rhs.resize(rows);
  double diagonal_sum = 0;
  for (int r = 0; r < rows; ++r) {
    const double inv = 1.0 / set.scale[r];
    problem_.equality_rhs[r] = -values_[r] * inv;
    for (int e = set.support_start[r]; e < set.support_start[r + 1]; ++e) {
      const int k = set.support[e];
      const int f = model.free_index[k];
      if (f < 0) continue;
      if (!equality_direct_)
        for (int c = 0; c < 3; ++c) entries.emplace_back(r, 3 * f + c, chord_(e, c) * inv);
      diagonal_sum += chord_.row(e).squaredNorm() * inv * inv / model.lumped_area[k];
    }
    if (equality_direct_) {
      const int* outer = problem_.equality.outerIndexPtr();
      for (int i = outer[r] / 3; i < outer[r + 1] / 3; ++i)
        for (int c = 0; c < 3; ++c) entry[3 * i + c] = chord_(equality_entries_[i], c) * inv;
    }
  }
  // constraints already met to the tolerance are kept where they are (grad C D = 0) rather
  // than pushed further: the plain projection stops there too, and the Levenberg-Marquardt
  // creep towards C = 0 would otherwise keep max |D| above kContactStep for many iterations
  if (error <= tolerance) problem_.equality_rhs.setZero();
  if (!equality_direct_) {
    problem_.equality.setFromTriplets(entries.begin(), entries.end());
    problem_.equality.makeCompressed();
  }
  // the Levenberg-Marquardt shift of the projection: kShift times the mean of diag(J W J^T)
  problem_.equality_shift = rows > 0 ? Projector::kShift * diagonal_sum / rows : 0.0;

  // contact rows a D >= -gap(phi_j), over the free nodes
  entries.clear();
  row_of_contact_.assign(contacts_.size(), -1);
  contact_of_row_.clear();
  std::vector<double> rhs;
  for (std::size_t i = 0; i < contacts_.size(); ++i) {
    const ContactConstraint& c = contacts_[i];
    const int row = static_cast<int>(contact_of_row_.size());
    bool any = false;
    for (int s = 0; s < 4; ++s) {
      if (c.nodes[s] < 0 || c.weights[s] == 0) continue;
      const int f = model.free_index[c.nodes[s]];
      if (f < 0) continue;
      for (int d = 0; d < 3; ++d) entries.emplace_back(row, 3 * f + d, c.weights[s] * c.normal[d]);
      any = true;
    }
    if (!any) continue;  // only controlled nodes: nothing can enforce it
    row_of_contact_[i] = row;
    contact_of_row_.push_back(static_cast<int>(i));
    rhs.push_back(-contact_gap(c, positions));
  }
  problem_.inequality.resize(static_cast<int>(rhs.size()), dofs);
  problem_.inequality.setFromTriplets(entries.begin(), entries.end());
  problem_.inequality.makeCompressed();
  problem_.inequality_rhs = Eigen::Map<const Eigen::VectorXd>(rhs.data(), static_cast<int>(rhs.size()));
}

// The QP's warm start: the rows of `warm_contact` (the last working set; at the first
// iteration the previous step's) plus the contacts violated at the current iterate (a D >= b > 0
// cannot hold at D = 0): a sheet settling onto a table brings its nodes back into contact at
// every step, and starting with them spares the solver as many one-row dual steps (napkin-fold:
// 3.7x fewer working-set changes). At most one violated row per cloth node, the most violated
// first (a row takes the nodes it moves; rows of the last working set take theirs first): where
// layers of cloth are stacked, a node has rows against several faces and edges below it, nearly
// dependent, and all but one of them would leave again one by one (napkin-fold, warm-started
// with them all: 900 warm rows, 300 in the solution, 750 working-set changes in the first QP of
// a step). The others enter by dual steps if they are needed. The solver takes any working set
// (thesis §3.5); the solution does not depend on it, its round-off does (the warm start is
// state, cloth/state.h).
std::vector<int> ContactProjector::warm_rows(const std::vector<int>& warm_contact, int node_count) const {
  std::vector<int> warm;
  std::vector<char> warm_row(problem_.inequalities(), 0);
  std::vector<char> taken(node_count, 0);  // nodes of the rows in `warm`
  auto moves = [&](int row, int s) {
    const ContactConstraint& c = contacts_[contact_of_row_[row]];
    return c.nodes[s] >= 0 && c.weights[s] != 0;
  };
  auto take = [&](int row) {
    for (int s = 0; s < 4; ++s)
      if (moves(row, s)) taken[contacts_[contact_of_row_[row]].nodes[s]] = 1;
  };
  auto is_free = [&](int row) {
    for (int s = 0; s < 4; ++s)
      if (moves(row, s) && taken[contacts_[contact_of_row_[row]].nodes[s]]) return false;
    return true;
  };
  for (int i : warm_contact)
    if (row_of_contact_[i] >= 0) {
      warm.push_back(row_of_contact_[i]);
      warm_row[row_of_contact_[i]] = 1;
      take(row_of_contact_[i]);
    }
  std::vector<std::pair<double, int>> violated;  // (b, row), the most violated first
  for (int r = 0; r < problem_.inequalities(); ++r)
    if (!warm_row[r] && problem_.inequality_rhs[r] > 0) violated.emplace_back(problem_.inequality_rhs[r], r);
  std::sort(violated.begin(), violated.end(),
            [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
  for (const auto& entry : violated)
    if (is_free(entry.second)) {
      take(entry.second);
      warm.push_back(entry.second);
    }
  return warm;
}

ContactProjectionReport ContactProjector::project(const ClothModel& model, const Positions& start, double t0,
                                                  double h, int attempt, ContactProvider& provider,
                                                  const std::vector<ContactConstraint>& found,
                                                  Positions& positions, double tolerance, int max_iterations,
                                                  double max_start_error, ContactWarmStart& warm) {
  ContactProjectionReport report;
  solver.set_plan(warm.plan);
  contacts_.clear();
  normal_impulse_.clear();
  friction_.clear();
  skipped_ = 0;
  const int n = model.node_count();
  merge(found, n);
  const int dofs = 3 * model.free_count;
  problem_.mass.resize(dofs);
  for (int k = 0; k < n; ++k)
    if (model.free_index[k] >= 0) problem_.mass.segment<3>(3 * model.free_index[k]).setConstant(model.lumped_area[k]);
  Eigen::VectorXd friction_force = Eigen::VectorXd::Zero(dofs);

  // warm start: the contacts active at the end of the previous projection
  auto warm_contacts = [&]() {
    std::vector<int> indices;
    for (std::size_t i = 0; i < contacts_.size(); ++i)
      if (std::binary_search(warm.active.begin(), warm.active.end(), Key{contacts_[i].nodes, contacts_[i].source}))
        indices.push_back(static_cast<int>(i));
    return indices;
  };
  std::vector<int> warm_contact = warm_contacts();  // contact indices
  std::vector<int> active_contact;
  double last_step = std::numeric_limits<double>::infinity();
  double previous_error = std::numeric_limits<double>::infinity();
  bool added = false;

  for (int iteration = 0;; ++iteration) {
    double error = 0;
    build_problem(model, positions, tolerance, previous_error, error);
    previous_error = error;
    double penetration = 0;
    for (const ContactConstraint& c : contacts_) penetration = std::max(penetration, -contact_gap(c, positions));
    report.projection.iterations = iteration;
    report.projection.error = error;
    report.penetration = penetration;
    report.constraints = static_cast<int>(contacts_.size());
    if (!std::isfinite(error) || !std::isfinite(penetration)) return finish(report, ProjectionStatus::non_finite);
    if (iteration == 0) {
      report.projection.start_error = error;
      if (error > max_start_error) return finish(report, ProjectionStatus::too_far);
    }
    // the displacement the next QP would make is known without solving it when the
    // constraints are met, every contact holds and only the friction term f is left: then
    // D = 0 is feasible, and g(D*) <= g(0) for g(D) = 1/2 |D - M^-1 f|_M^2 + (penalty >= 0)
    // gives |D*|_M <= 2 |M^-1 f|_M, hence max |D*| <= 2 |M^-1 f|_M / sqrt(min m)
    const double next_step =
        dofs == 0 ? 0.0
                  : 2 * std::sqrt(friction_force.dot(friction_force.cwiseQuotient(problem_.mass)) /
                                  problem_.mass.minCoeff());
    const bool settled = last_step <= kContactStep || (penetration <= kContactHeld && next_step <= kContactStep);
    if (iteration > 0 && error <= tolerance && penetration <= kContactPenetration && settled && !added) {
      report.projection.status = ProjectionStatus::converged;
      break;
    }
    if (iteration == max_iterations) {
      report.projection.status = ProjectionStatus::max_iterations;
      break;
    }

    // the QP of this iteration (eq. 3.4), warm-started (see warm_rows)
    problem_.linear = friction_force;
    const std::vector<int> warm_start = warm_rows(warm_contact, n);
    if (record) record->push_back(RecordedQp{problem_, warm_start});
    const QpSolution solution = solver.solve(problem_, warm_start);
    warm.plan = solver.plan();
    report.qp_iterations += solution.iterations;
    if (solution.status == QpStatus::non_finite) return finish(report, ProjectionStatus::non_finite);
    if (solution.status == QpStatus::singular) return finish(report, ProjectionStatus::singular);
    if (solution.status != QpStatus::converged) report.qp_status = solution.status;
    // no displacement meets the linearized constraints (or none was found within the
    // solver's iteration cap): going on from a partial iterate only piles up contacts (on a
    // crumpled napkin, thousands of candidates and minutes per step), so the attempt ends
    // unconverged and the step is retried shorter
    if (solution.status == QpStatus::infeasible || solution.status == QpStatus::max_iterations)
      return finish(report, ProjectionStatus::max_iterations);

    last_step = 0;
    for (int k = 0; k < n; ++k) {
      const int f = model.free_index[k];
      if (f < 0) continue;
      const Eigen::Vector3d step = solution.x.segment<3>(3 * f);
      positions.row(k) += step.transpose();
      last_step = std::max(last_step, step.norm());
    }
    active_contact.clear();
    for (int row : solution.active) active_contact.push_back(contact_of_row_[row]);
    warm_contact = active_contact;
    // the cloth's own rows (source < 0, contact/contact_constraint.h) are not contacts
    report.contacts = report.limited = 0;
    for (int i : active_contact) ++(contacts_[i].source < 0 ? report.limited : report.contacts);

    // friction impulses (see the header) and the force term of the next QP
    friction_force.setZero();
    for (std::size_t i = 0; i < contacts_.size(); ++i) {
      const int row = row_of_contact_[i];
      if (row < 0) continue;
      normal_impulse_[i] += std::max(0.0, solution.inequality_multipliers[row]);
      const ContactConstraint& c = contacts_[i];
      if (!(c.mu > 0) || normal_impulse_[i] <= 0) continue;
      Eigen::Vector3d displacement = Eigen::Vector3d::Zero();
      double inverse_mass = 0;
      for (int s = 0; s < 4; ++s) {
        if (c.nodes[s] < 0) continue;
        displacement += c.weights[s] * (positions.row(c.nodes[s]) - start.row(c.nodes[s])).transpose();
        if (model.free_index[c.nodes[s]] >= 0) inverse_mass += c.weights[s] * c.weights[s] / model.lumped_area[c.nodes[s]];
      }
      if (inverse_mass <= 0) continue;
      Eigen::Vector3d velocity = displacement / h - c.surface_velocity;
      velocity -= velocity.dot(c.normal) * c.normal;
      Eigen::Vector3d trial = friction_[i] - velocity * (h / inverse_mass);
      trial -= trial.dot(c.normal) * c.normal;
      const double limit = c.mu * normal_impulse_[i];
      const double size = trial.norm();
      if (size > limit) trial *= limit / size;
      const Eigen::Vector3d change = trial - friction_[i];
      friction_[i] = trial;
      for (int s = 0; s < 4; ++s) {
        if (c.nodes[s] < 0) continue;
        const int f = model.free_index[c.nodes[s]];
        if (f >= 0) friction_force.segment<3>(3 * f) += c.weights[s] * change;
      }
    }

    // contacts that appeared on the way (thesis §3.4.1)
    found_.clear();
    const ContactQuery query{start, positions, t0, t0 + h, iteration + 1, attempt};
    provider.contacts(query, found_);
    added = merge(found_, n);
  }

  report.skipped = skipped_;
  warm.active.clear();
  for (int i : active_contact) warm.active.emplace_back(contacts_[i].nodes, contacts_[i].source);
  std::sort(warm.active.begin(), warm.active.end());
  return report;
}

std::vector<int> active_contact_nodes(const ContactWarmStart& warm) {
  std::vector<int> nodes;
  for (const ContactKey& key : warm.active)
    if (key.second >= 0)
      for (int k : key.first)
        if (k >= 0) nodes.push_back(k);
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

}  // namespace tela
