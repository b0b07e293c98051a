// A running simulation: the scenario, its mesh, the constant cloth model, the evolving state
// and the run statistics. This is what the CLI, the benchmarks and the page drive.
#pragma once

#include "cloth/controls.h"
#include "cloth/model.h"
#include "cloth/scene_contacts.h"
#include "cloth/state.h"
#include "cloth/step.h"
#include "geometry/mesh.h"
#include "base/result.h"
#include "scenario/scenario.h"
#include "sim/compile.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tela {

// What happened over the run so far (thesis §2.7.3 area error, projection statistics).
struct RunStats {
  long steps = 0;
  long total_iterations = 0;
  int max_step_iterations = 0;
  long unconverged_steps = 0;      // steps that hit the iteration cap (warning, not fatal)
  long total_substeps = 0;         // adaptive subdivision (cloth/step.h)
  int max_substeps = 0;
  double max_constraint_error = 0; // max over steps of the final relative constraint error
  double max_area_error = 0;       // max over steps of |A(t) - A0| / A0 (thesis eq. 2.23)
  double final_area_error = 0;
  int max_contacts = 0;            // most contacts active at the end of a step
  int max_limited = 0;             // most strain-limited pairs active at the end of a step
  double max_pair_stretch = 0;     // largest element-pair stretch over the run (with a strain limit)
  double max_penetration = 0;      // metres: deepest node inside an obstacle surface, any step
};

class Simulation {
 public:
  // Compiles the scenario (sim/compile.h), builds the model and the state; errors name the
  // scenario field (e.g. a node index out of range in controls[1].nodes).
  static Result<Simulation> create(const Scenario& scenario);

  // Advances one time step. Once a step fails (non-finite values, divergence) the
  // simulation stays failed and further calls do nothing.
  StepStatus step();
  // Advances up to n steps; stops early on failure. Returns the last status.
  StepStatus step_n(int n);

  bool failed() const { return failed_; }
  const std::string& failure_message() const { return failure_message_; }

  const Scenario& scenario() const { return scenario_; }
  const Mesh& mesh() const { return *mesh_; }
  const ClothModel& model() const { return *model_; }
  const ClothState& state() const { return state_; }
  const RunStats& stats() const { return stats_; }
  // what the most recent step reported (iterations, substeps, constraint error)
  const StepReport& last_report() const { return last_report_; }
  double time() const { return state_.time; }
  long steps_done() const { return stats_.steps; }
  // number of steps the scenario's duration asks for
  long steps_for_duration() const;

  // FNV-1a 64 of the positions (little-endian doubles), as 16 hex digits.
  std::string state_hash() const;

  // The run summary of the CLI contract (without wall_ms), as a JSON object string.
  std::string summary_json() const;
  const ProjectorStats& projector_stats() const { return workspace_.projector.stats; }
  // The nodes (ascending) of the contacts active at the end of the last step (the contact
  // solver's working set: obstacle, stick, cusp and self-contacts); empty when it had none.
  std::vector<int> contact_nodes() const;

 private:
  bool release_controls(double t0);

  Scenario scenario_;
  std::shared_ptr<const Mesh> mesh_;
  std::shared_ptr<const ClothModel> model_;
  std::vector<ControlTrack> tracks_;
  std::vector<Obstacle> obstacles_;
  ContactSettings contact_settings_;
  ClothState state_;
  StepStatus last_status_ = StepStatus::converged;
  StepReport last_report_;
  StepWorkspace workspace_;
  std::shared_ptr<SceneContacts> contacts_;  // null without obstacles and self-collisions
  RunStats stats_;
  bool failed_ = false;
  std::string failure_message_;
};

}  // namespace tela
