#include "sim/simulation.h"

#include "cloth/metrics.h"
#include "cloth/model.h"

#include <cmath>
#include <memory>

namespace tela {
namespace {

// The runner's pieces of a scenario (sim/compile.h); errors name the scenario field.
Result<RunPieces> run_pieces(const Scenario& scenario) {
  using R = Result<RunPieces>;
  Result<CompiledScenario> compiled = compile_scenario(scenario);
  if (!compiled.ok()) return R::failure(compiled.error);
  CompiledScenario& scene = *compiled.value;
  Result<std::shared_ptr<const ClothModel>> model =
      build_model(scene.mesh, scene.material, scene.solver, scene.controlled);
  if (!model.ok()) return R::failure(model.error);
  RunPieces pieces;
  pieces.mesh = std::make_shared<const Mesh>(std::move(scene.mesh));
  pieces.model = *model.value;
  pieces.tracks = std::move(scene.tracks);
  pieces.obstacles = std::move(scene.obstacles);
  pieces.contact = scene.contact;
  return R::success(std::move(pieces));
}

}  // namespace

Result<Simulation> Simulation::create(const Scenario& scenario) {
  Result<RunPieces> pieces = run_pieces(scenario);
  if (!pieces.ok()) return Result<Simulation>::failure(pieces.error);
  ClothState state = Runner::initial_state(*pieces.value->mesh);
  return start(scenario, std::move(*pieces.value), std::move(state));
}

Result<Simulation> Simulation::create(const Scenario& scenario, ClothState state) {
  Result<RunPieces> pieces = run_pieces(scenario);
  if (!pieces.ok()) return Result<Simulation>::failure(pieces.error);
  return start(scenario, std::move(*pieces.value), std::move(state));
}

Result<Simulation> Simulation::start(const Scenario& scenario, RunPieces pieces, ClothState state) {
  Result<Runner> runner = Runner::create(std::move(pieces), std::move(state));
  if (!runner.ok()) return Result<Simulation>::failure(runner.error);
  return Result<Simulation>::success(Simulation(scenario, std::move(*runner.value)));
}

long Simulation::steps_for_duration() const {
  return static_cast<long>(std::ceil(scenario_.duration / scenario_.solver.dt - 1e-9));
}

StepStatus Simulation::step_n(int n) {
  StepStatus status = runner_.last_status();
  for (int i = 0; i < n && !failed(); ++i) status = step();
  return status;
}

std::string Simulation::state_hash() const { return positions_hash(state().positions); }

}  // namespace tela
