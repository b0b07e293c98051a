#include "sim/run_summary.h"

#include "base/json_text.h"
#include "cloth/metrics.h"

#include <nlohmann/json.hpp>

#include <cmath>

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

std::string run_summary_json(const Simulation& sim) {
  const Mesh& mesh = sim.mesh();
  const ClothModel& model = sim.model();
  const ClothState& state = sim.state();
  const RunStats& stats = sim.stats();
  const SceneContacts* contacts = sim.runner().contacts();
  nlohmann::json out;
  out["scenario"] = sim.scenario().name;
  out["nodes"] = mesh.node_count();
  out["constraints"] = model.constraints.rows();
  out["steps"] = stats.steps;
  out["sim_time"] = state.time;
  out["mean_iterations"] = stats.steps ? double(stats.total_iterations) / stats.steps : 0.0;
  out["max_iterations"] = stats.max_step_iterations;
  out["mean_substeps"] = stats.steps ? double(stats.total_substeps) / stats.steps : 1.0;
  out["max_substeps"] = stats.max_substeps;
  out["unconverged_steps"] = stats.unconverged_steps;
  out["max_constraint_error"] = stats.max_constraint_error;
  out["area_error"] = stats.max_area_error;
  out["final_area_error"] = stats.final_area_error;
  {  // mass-weighted RMS speed of the final state: ~0 once the cloth has settled
    double energy = 0, mass = 0;
    for (int k = 0; k < mesh.node_count(); ++k) {
      energy += model.lumped_area[k] * state.velocities.row(k).squaredNorm();
      mass += model.lumped_area[k];
    }
    out["final_rms_speed"] = std::sqrt(energy / mass);
  }
  out["max_contacts"] = stats.max_contacts;
  if (contacts && contacts->strain_limit().enabled()) {
    out["strain_limited"] = stats.max_limited;
    out["max_pair_stretch"] = stats.max_pair_stretch;
  }
  out["penetration"] = stats.max_penetration;
  out["factorizations"] = stats.projector.factorizations;
  out["inner_iterations"] = stats.projector.inner_iterations;
  if (contacts) {  // the active-set solver's work (qp/active_set.h)
    const ActiveSetStats& qp = stats.qp;
    out["qp"] = {{"solves", qp.solves},
                 {"iterations", qp.iterations},
                 {"factorizations", qp.factorizations},
                 {"reused_factors", qp.reused_factors},
                 {"reused_starts", qp.reused_starts},
                 {"masked", qp.masked},
                 {"crash_starts", qp.crash_starts},
                 {"analyses", qp.analyses}};
  }
  out["state_hash"] = sim.state_hash();
  out["status"] = sim.failed() ? "failed" : "ok";
  if (sim.failed()) out["message"] = sim.failure_message();
  for (const std::string& metric : sim.scenario().metrics) {
    if (metric == "drape_coefficient") {
      Eigen::Vector3d center;
      double radius = 0;
      if (table_of(mesh, center, radius)) out["drape_coefficient"] = drape_coefficient(mesh, state.positions, center, radius);
    } else if (metric == "free_corner") {
      // the first corner that no control holds (locking scenes have exactly one)
      for (int k : mesh.node_sets.at("corners"))
        if (!model.controlled[k]) {
          out["free_corner"] = {state.positions(k, 0), state.positions(k, 1), state.positions(k, 2)};
          out["free_corner_node"] = k;
          break;
        }
    }
  }
  return json_text(out);
}

}  // namespace tela
