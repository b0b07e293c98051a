#include "sim/simulation.h"

#include "cloth/controls.h"
#include "cloth/metrics.h"
#include "base/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tela {
namespace {

// Ring meshes: centre and radius of the inner boundary (the table edge of Cusick's test).
bool table_of(const Mesh& mesh, Eigen::Vector3d& center, double& radius) {
  const auto it = mesh.node_sets.find("inner_boundary");
  if (it == mesh.node_sets.end() || it->second.empty()) return false;
  center.setZero();
  for (int k : it->second) center += mesh.positions.row(k).transpose();
  center /= static_cast<double>(it->second.size());
  radius = 0;
  for (int k : it->second) radius += (mesh.positions.row(k).transpose() - center).head<2>().norm();
  radius /= static_cast<double>(it->second.size());
  return true;
}

}  // namespace

Result<Simulation> Simulation::create(const Scenario& scenario) {
  using R = Result<Simulation>;
  Result<CompiledScenario> compiled = compile_scenario(scenario);
  if (!compiled.ok()) return R::failure(compiled.error);
  CompiledScenario& scene = *compiled.value;
  Result<std::shared_ptr<const ClothModel>> model =
      build_model(scene.mesh, scene.material, scene.solver, scene.controlled);
  if (!model.ok()) return R::failure(model.error);

  Simulation sim;
  sim.scenario_ = scenario;
  if (!scene.obstacles.empty() || scene.contact.self_collision || scene.solver.strain_limit > 0)
    sim.contacts_ = std::make_shared<SceneContacts>(scene.mesh, scene.obstacles, scene.contact,
                                                    (*model.value)->controlled, scene.solver.strain_limit);
  sim.mesh_ = std::make_shared<const Mesh>(std::move(scene.mesh));
  sim.model_ = *model.value;
  sim.tracks_ = std::move(scene.tracks);
  sim.obstacles_ = std::move(scene.obstacles);
  sim.contact_settings_ = scene.contact;
  sim.state_.positions = sim.mesh_->positions;
  sim.state_.velocities = Positions::Zero(sim.mesh_->node_count(), 3);
  return R::success(std::move(sim));
}

long Simulation::steps_for_duration() const {
  return static_cast<long>(std::ceil(scenario_.duration / scenario_.solver.dt - 1e-9));
}

// Controls released at or before t0 (the start of the coming step) stop driving their
// nodes: the model is rebuilt with the remaining controlled nodes (their constraint rows come
// back, the step matrices are factorized anew) and the nodes keep the velocity of their last
// driven step. Everything the step caches for the old model is dropped (not the counters).
bool Simulation::release_controls(double t0) {
  const auto due = [&](const ControlTrack& track) { return track.release <= t0 + 1e-9 * model_->solver.dt; };
  if (std::none_of(tracks_.begin(), tracks_.end(), due)) return true;
  tracks_.erase(std::remove_if(tracks_.begin(), tracks_.end(), due), tracks_.end());
  std::vector<int> controlled;
  for (const ControlTrack& track : tracks_) controlled.insert(controlled.end(), track.nodes.begin(), track.nodes.end());
  std::sort(controlled.begin(), controlled.end());
  Result<std::shared_ptr<const ClothModel>> model = build_model(*mesh_, model_->material, model_->solver, controlled);
  if (!model.ok()) {
    failed_ = true;
    last_status_ = StepStatus::non_finite;
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "releasing a control at t = %.3f s: ", t0);
    failure_message_ = buffer + model.error;
    return false;
  }
  model_ = *model.value;
  const ProjectorStats counted = workspace_.projector.stats;  // the run's counters go on
  workspace_ = StepWorkspace();
  workspace_.projector.stats = counted;
  if (contacts_)
    contacts_ = std::make_shared<SceneContacts>(*mesh_, obstacles_, contact_settings_, model_->controlled,
                                                model_->solver.strain_limit);
  return true;
}

StepStatus Simulation::step() {
  if (failed_) return last_status_;
  const double dt = model_->solver.dt;
  if (!release_controls(stats_.steps * dt)) return last_status_;
  const double t1 = (stats_.steps + 1) * dt;
  const StepReport report = tela::step(*model_, tracks_, state_, workspace_, contacts_.get());
  last_report_ = report;
  state_.time = t1;
  ++stats_.steps;
  stats_.total_iterations += report.iterations;
  stats_.total_substeps += report.substeps;
  stats_.max_substeps = std::max(stats_.max_substeps, report.substeps);
  stats_.max_step_iterations = std::max(stats_.max_step_iterations, report.iterations);
  stats_.max_constraint_error = std::max(stats_.max_constraint_error, report.constraint_error);
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
    if (contacts_->strain_limit().enabled())
      stats_.max_pair_stretch = std::max(stats_.max_pair_stretch, contacts_->strain_limit().max_stretch(state_.positions));
    stats_.max_penetration = std::max(stats_.max_penetration, contacts_->penetration(state_.positions, t1));
  }
  const double area = total_area(*mesh_, state_.positions);
  stats_.final_area_error = std::abs(area - model_->rest_area) / model_->rest_area;
  stats_.max_area_error = std::max(stats_.max_area_error, stats_.final_area_error);
  return last_status_;
}

StepStatus Simulation::step_n(int n) {
  StepStatus status = last_status_;
  for (int i = 0; i < n && !failed_; ++i) status = step();
  return status;
}

std::vector<int> Simulation::contact_nodes() const {
  if (!contacts_ || stats_.steps == 0 || last_report_.contacts == 0) return {};
  return workspace_.contact_projector.active_nodes();
}

std::string Simulation::state_hash() const { return positions_hash(state_.positions); }

std::string Simulation::summary_json() const {
  nlohmann::json out;
  out["scenario"] = scenario_.name;
  out["nodes"] = mesh_->node_count();
  out["constraints"] = model_->constraints.rows();
  out["steps"] = stats_.steps;
  out["sim_time"] = state_.time;
  out["mean_iterations"] = stats_.steps ? double(stats_.total_iterations) / stats_.steps : 0.0;
  out["max_iterations"] = stats_.max_step_iterations;
  out["mean_substeps"] = stats_.steps ? double(stats_.total_substeps) / stats_.steps : 1.0;
  out["max_substeps"] = stats_.max_substeps;
  out["unconverged_steps"] = stats_.unconverged_steps;
  out["max_constraint_error"] = stats_.max_constraint_error;
  out["area_error"] = stats_.max_area_error;
  out["final_area_error"] = stats_.final_area_error;
  {  // mass-weighted RMS speed of the final state: ~0 once the cloth has settled
    double energy = 0, mass = 0;
    for (int k = 0; k < mesh_->node_count(); ++k) {
      energy += model_->lumped_area[k] * state_.velocities.row(k).squaredNorm();
      mass += model_->lumped_area[k];
    }
    out["final_rms_speed"] = std::sqrt(energy / mass);
  }
  out["max_contacts"] = stats_.max_contacts;
  if (contacts_ && contacts_->strain_limit().enabled()) {
    out["strain_limited"] = stats_.max_limited;
    out["max_pair_stretch"] = stats_.max_pair_stretch;
  }
  out["penetration"] = stats_.max_penetration;
  out["factorizations"] = workspace_.projector.stats.factorizations;
  out["inner_iterations"] = workspace_.projector.stats.inner_iterations;
  if (contacts_) {  // the active-set solver's work (qp/active_set.h)
    const ActiveSetStats& qp = workspace_.contact_projector.solver.stats;
    out["qp"] = {{"solves", qp.solves},
                 {"iterations", qp.iterations},
                 {"factorizations", qp.factorizations},
                 {"reused_factors", qp.reused_factors},
                 {"reused_starts", qp.reused_starts},
                 {"masked", qp.masked},
                 {"crash_starts", qp.crash_starts},
                 {"analyses", qp.analyses}};
  }
  out["state_hash"] = state_hash();
  out["status"] = failed_ ? "failed" : "ok";
  if (failed_) out["message"] = failure_message_;
  for (const std::string& metric : scenario_.metrics) {
    if (metric == "drape_coefficient") {
      Eigen::Vector3d center;
      double radius = 0;
      if (table_of(*mesh_, center, radius))
        out["drape_coefficient"] =
            drape_coefficient(*mesh_, state_.positions, center, radius);
    } else if (metric == "free_corner") {
      // the first corner that no control holds (locking scenes have exactly one)
      for (int k : mesh_->node_sets.at("corners"))
        if (!model_->controlled[k]) {
          out["free_corner"] = {state_.positions(k, 0), state_.positions(k, 1), state_.positions(k, 2)};
          out["free_corner_node"] = k;
          break;
        }
    }
  }
  return json_text(out);
}

}  // namespace tela
