// A running simulation of a scenario: its runner (sim/runner.h: mesh, model, controls,
// contacts, the evolving state and the run statistics). This is what the CLI, the benchmarks
// and the page drive; the run summary the CLI prints is sim/run_summary.h.
#pragma once

#include "base/result.h"
#include "cloth/state.h"
#include "scenario/scenario.h"
#include "sim/compile.h"
#include "sim/runner.h"

#include <string>
#include <utility>
#include <vector>

namespace tela {

class Simulation {
 public:
  // Compiles the scenario (sim/compile.h), builds the model and the state; errors name the
  // scenario field (e.g. a node index out of range in controls[1].nodes).
  static Result<Simulation> create(const Scenario& scenario);
  // The same, stepping on from `state`: the state() of a simulation of the same scenario, which
  // this one then continues bit for bit (a fresh workspace and contact provider change
  // nothing). Errors also name the state's field.
  static Result<Simulation> create(const Scenario& scenario, ClothState state);

  // Advances one time step. Once a step fails (non-finite values, divergence) the
  // simulation stays failed and further calls do nothing.
  StepStatus step() { return runner_.step(); }
  // Advances up to n steps; stops early on failure. Returns the last status.
  StepStatus step_n(int n);

  bool failed() const { return runner_.failed(); }
  const std::string& failure_message() const { return runner_.failure_message(); }

  const Scenario& scenario() const { return scenario_; }
  const Runner& runner() const { return runner_; }
  const Mesh& mesh() const { return runner_.mesh(); }
  const ClothModel& model() const { return runner_.model(); }
  const ClothState& state() const { return runner_.state(); }
  const RunStats& stats() const { return runner_.stats(); }
  // what the most recent step reported (iterations, substeps, constraint error)
  const StepReport& last_report() const { return runner_.last_report(); }
  double time() const { return state().time; }
  long steps_done() const { return state().steps; }
  // number of steps the scenario's duration asks for
  long steps_for_duration() const;

  // FNV-1a 64 of the positions (little-endian doubles), as 16 hex digits.
  std::string state_hash() const;

  // The nodes (ascending) of the contacts active at the end of the last step (the contact
  // solver's working set: obstacle, stick, cusp and self-contacts); empty when it had none.
  std::vector<int> contact_nodes() const { return runner_.contact_nodes(); }

 private:
  Simulation(Scenario scenario, Runner runner) : scenario_(std::move(scenario)), runner_(std::move(runner)) {}
  static Result<Simulation> start(const Scenario& scenario, RunPieces pieces, ClothState state);

  Scenario scenario_;
  Runner runner_;
};

}  // namespace tela
