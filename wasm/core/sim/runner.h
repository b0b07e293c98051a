// The runner of one cloth: the model, the control tracks, the contact provider, the state and
// the step's scratch workspace, stepped together, with the run's statistics. The Simulation
// (sim/simulation.h), the fit (fit/fit_problem.h) and the synthetic recordings
// (generators/synthetic_recording.h) all step through it.
//
// Released controls (ControlTrack::release): a control released at or before the start of a
// step stops driving its nodes from that step on. The model is rebuilt with the remaining
// controlled nodes (their constraint rows come back, the step matrices are factorized anew),
// the nodes keep the velocity of their last driven step, and what the solver carried for the
// old model (ClothState's subdivision level, preconditioner and contact warm start) starts
// anew. Which controls are released follows from the state's step count, so a runner made
// with a state of another run steps on with the model that run had.
#pragma once

#include "base/result.h"
#include "cloth/controls.h"
#include "cloth/model.h"
#include "cloth/state.h"
#include "cloth/scene_contacts.h"
#include "cloth/step.h"
#include "contact/contact_settings.h"
#include "contact/obstacles/obstacle.h"
#include "geometry/mesh.h"

#include <memory>
#include <string>
#include <vector>

namespace tela {

// What a run is made of, in runtime types (sim/simulation.cpp makes them from a compiled
// scenario, sim/compile.h; the fit and the synthetic recordings from the compile step's pieces).
struct RunPieces {
  std::shared_ptr<const Mesh> mesh;
  std::shared_ptr<const ClothModel> model;  // its controlled nodes are those of `tracks`
  std::vector<ControlTrack> tracks;
  // contacts (cloth/scene_contacts.h), with the model's solver.strain_limit; without
  // obstacles, self-collisions and strain limit the run has no contact provider
  std::vector<Obstacle> obstacles;
  ContactSettings contact;
};

// What happened over the run so far (thesis §2.7.3 area error, projection statistics).
struct RunStats {
  long steps = 0;
  long total_iterations = 0;
  int max_step_iterations = 0;
  long unconverged_steps = 0;      // steps that hit the iteration cap (warning, not fatal)
  long total_substeps = 0;         // adaptive subdivision (cloth/step.h)
  int max_substeps = 0;
  double max_constraint_error = 0; // max over steps of the final relative constraint error
  int max_contacts = 0;            // most contacts active at the end of a step
  int max_limited = 0;             // most strain-limited pairs active at the end of a step
  // measured on the positions after every step (Runner's `measure`)
  double max_area_error = 0;       // max over steps of |A(t) - A0| / A0 (thesis eq. 2.23)
  double final_area_error = 0;
  double max_pair_stretch = 0;     // largest element-pair stretch over the run (with a strain limit)
  double max_penetration = 0;      // metres: deepest node inside an obstacle surface, any step
  // the solvers' work (summed over the run, across released controls)
  ProjectorStats projector;
  ActiveSetStats qp;
};

class Runner {
 public:
  // The state a run starts from: the mesh's positions, at rest, at t = 0.
  static ClothState initial_state(const Mesh& mesh);

  // A runner stepping `state` on (initial_state, or the state of another runner of the same
  // pieces: it then steps exactly as that one would). `measure`: also measure the area error,
  // penetration and pair stretch after every step (RunStats). Errors name the state's field.
  static Result<Runner> create(RunPieces pieces, ClothState state, bool measure = true);

  // Advances one time step. Once a step fails (non-finite values, divergence) the runner
  // stays failed and further calls do nothing.
  StepStatus step();

  bool failed() const { return failed_; }
  const std::string& failure_message() const { return failure_message_; }
  const ClothState& state() const { return state_; }
  const RunPieces& pieces() const { return pieces_; }  // as given to create()
  const Mesh& mesh() const { return *pieces_.mesh; }
  const ClothModel& model() const { return *model_; }  // without the released controls
  const std::vector<ControlTrack>& tracks() const { return tracks_; }  // the controls still driving
  const SceneContacts* contacts() const { return contacts_.get(); }
  const RunStats& stats() const { return stats_; }
  // what the most recent step reported (iterations, substeps, constraint error)
  const StepReport& last_report() const { return last_report_; }
  // the status of the most recent step (non_finite when releasing a control failed)
  StepStatus last_status() const { return last_status_; }
  // The nodes (ascending) of the contacts active at the end of the last step (the contact
  // solver's working set: obstacle, stick, cusp and self-contacts); empty when it had none.
  std::vector<int> contact_nodes() const;

 private:
  Runner() = default;
  bool release_controls(double t0);
  void drop_workspace();

  RunPieces pieces_;
  std::shared_ptr<const ClothModel> model_;
  std::vector<ControlTrack> tracks_;
  std::unique_ptr<SceneContacts> contacts_;
  ClothState state_;
  StepWorkspace workspace_;
  RunStats stats_;
  StepReport last_report_;
  StepStatus last_status_ = StepStatus::converged;
  bool measure_ = true;
  bool failed_ = false;
  std::string failure_message_;
};

}  // namespace tela
