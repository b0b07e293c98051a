#include "sim/runner.h"

#include "cloth/contact_projection.h"
#include "cloth/metrics.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tela {
namespace {

std::unique_ptr<SceneContacts> make_contacts(const RunPieces& pieces, const ClothModel& model) {
  if (pieces.obstacles.empty() && !pieces.contact.self_collision && !(model.solver.strain_limit > 0)) return nullptr;
  return std::make_unique<SceneContacts>(*pieces.mesh, pieces.obstacles, pieces.contact, model.controlled,
                                         model.solver.strain_limit);
}

}  // namespace

ClothState Runner::initial_state(const Mesh& mesh) {
  ClothState state;
  state.positions = mesh.positions;
  state.velocities = Positions::Zero(mesh.node_count(), 3);
  return state;
}

Result<Runner> Runner::create(RunPieces pieces, ClothState state, bool measure) {
  using R = Result<Runner>;
  const int n = pieces.mesh->node_count();
  const double dt = pieces.model->solver.dt;
  if (state.positions.rows() != n || state.velocities.rows() != n)
    return R::failure("state: " + std::to_string(state.positions.rows()) + " positions and " +
                      std::to_string(state.velocities.rows()) + " velocities for a mesh of " + std::to_string(n) +
                      " nodes");
  if (state.steps < 0 || state.time != static_cast<double>(state.steps) * dt)
    return R::failure("state.time: must be state.steps times the time step (" + std::to_string(state.steps) +
                      " steps of " + std::to_string(dt) + " s)");
  if (state.substep_level < 0) return R::failure("state.substep_level: must be >= 0");

  Runner runner;
  runner.pieces_ = std::move(pieces);
  runner.model_ = runner.pieces_.model;
  runner.tracks_ = runner.pieces_.tracks;
  runner.measure_ = measure;
  // the controls released at the start of the state's last step are released already
  if (state.steps > 0 && !runner.release_controls(static_cast<double>(state.steps - 1) * dt))
    return R::failure(runner.failure_message_);
  if (!runner.contacts_) runner.contacts_ = make_contacts(runner.pieces_, *runner.model_);
  runner.state_ = std::move(state);
  return R::success(std::move(runner));
}

// Controls released at or before t0 stop driving their nodes: the model and the contacts are
// made anew for the remaining controlled nodes. False (the runner failed) when the model
// cannot be built.
bool Runner::release_controls(double t0) {
  const auto due = [&](const ControlTrack& track) { return track.release <= t0 + 1e-9 * model_->solver.dt; };
  if (std::none_of(tracks_.begin(), tracks_.end(), due)) return true;
  tracks_.erase(std::remove_if(tracks_.begin(), tracks_.end(), due), tracks_.end());
  std::vector<int> controlled;
  for (const ControlTrack& track : tracks_) controlled.insert(controlled.end(), track.nodes.begin(), track.nodes.end());
  std::sort(controlled.begin(), controlled.end());
  Result<std::shared_ptr<const ClothModel>> model =
      build_model(*pieces_.mesh, model_->material, model_->solver, controlled);
  if (!model.ok()) {
    failed_ = true;
    last_status_ = StepStatus::non_finite;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "releasing a control at t = %.3f s: ", t0);
    failure_message_ = buffer + model.error;
    return false;
  }
  model_ = *model.value;
  contacts_ = make_contacts(pieces_, *model_);
  return true;
}

void Runner::drop_workspace() {
  const ProjectorStats projector = workspace_.projector.stats;  // the run's counters go on
  const ActiveSetStats qp = workspace_.contact_projector.solver.stats;
  workspace_ = StepWorkspace();
  workspace_.projector.stats = projector;
  workspace_.contact_projector.solver.stats = qp;
}

StepStatus Runner::step() {
  if (failed_) return last_status_;
  const double dt = model_->solver.dt;
  const std::shared_ptr<const ClothModel> before = model_;
  if (!release_controls(static_cast<double>(state_.steps) * dt)) return last_status_;
  if (model_ != before) {
    // what the solver carried belongs to the old model
    state_.substep_level = 0;
    state_.preconditioner = Preconditioner{};
    state_.contact_warm_start = ContactWarmStart{};
    drop_workspace();
  }
  const StepReport report = tela::step(*model_, tracks_, state_, workspace_, contacts_.get());
  const double t1 = state_.time;
  last_report_ = report;
  ++stats_.steps;
  stats_.total_iterations += report.iterations;
  stats_.total_substeps += report.substeps;
  stats_.max_substeps = std::max(stats_.max_substeps, report.substeps);
  stats_.max_step_iterations = std::max(stats_.max_step_iterations, report.iterations);
  stats_.max_constraint_error = std::max(stats_.max_constraint_error, report.constraint_error);
  stats_.projector = workspace_.projector.stats;
  stats_.qp = workspace_.contact_projector.solver.stats;
  if (report.status == StepStatus::max_iterations) ++stats_.unconverged_steps;
  last_status_ = report.status;
  if (report.status == StepStatus::diverged || report.status == StepStatus::non_finite) {
    failed_ = true;
    const char* contacts = report.qp_status == QpStatus::infeasible
                               ? "; the contact constraints had no common solution (contact QP infeasible)"
                           : report.qp_status == QpStatus::max_iterations
                               ? "; the contact QP hit its iteration cap"
                               : "";
    // controls that pull two nodes farther apart than the cloth allows: no step size helps
    const StretchedControls pulled = stretched_controls(tracks_, model_->rest_positions, t1);
    char advice[256];
    if (pulled.a >= 0)
      std::snprintf(advice, sizeof advice,
                    "the controls hold nodes %d and %d %.3g m apart, farther than they are on the cloth at rest "
                    "(%.3g m): an inextensible cloth cannot follow; change the controls",
                    pulled.a, pulled.b, pulled.distance, pulled.rest);
    else
      std::snprintf(advice, sizeof advice, "try a smaller solver.dt or more solver.max_iterations");
    char buffer[640];
    std::snprintf(buffer, sizeof buffer,
                  "the simulation %s at t = %.3f s (relative constraint error %.3g after %d "
                  "projection iterations%s); %s",
                  report.status == StepStatus::non_finite ? "produced non-finite values" : "diverged",
                  t1, report.constraint_error, report.iterations, contacts, advice);
    failure_message_ = buffer;
    return last_status_;
  }
  if (contacts_) {
    stats_.max_contacts = std::max(stats_.max_contacts, report.contacts);
    stats_.max_limited = std::max(stats_.max_limited, report.limited);
  }
  if (!measure_) return last_status_;
  if (contacts_) {
    if (contacts_->strain_limit().enabled())
      stats_.max_pair_stretch = std::max(stats_.max_pair_stretch, contacts_->strain_limit().max_stretch(state_.positions));
    stats_.max_penetration = std::max(stats_.max_penetration, contacts_->penetration(state_.positions, t1));
  }
  const double area = total_area(*pieces_.mesh, state_.positions);
  stats_.final_area_error = std::abs(area - model_->rest_area) / model_->rest_area;
  stats_.max_area_error = std::max(stats_.max_area_error, stats_.final_area_error);
  return last_status_;
}

std::vector<int> Runner::contact_nodes() const {
  if (!contacts_ || stats_.steps == 0 || last_report_.contacts == 0) return {};
  return active_contact_nodes(state_.contact_warm_start);
}

}  // namespace tela
