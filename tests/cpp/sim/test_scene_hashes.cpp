// Every named scene reproduces the state hashes recorded in tests/data/scene_hashes.json
// (FNV-1a of the positions, bit for bit): after a short run, which also checks that each scene
// steps, converges and keeps its constraints within the solver tolerance, and after its full
// duration (validation). tests/js/scene_hashes.test.mjs and tests/validation/scene_hashes.test.mjs
// check the WebAssembly module against the same file (against wasm_state_hash where the
// module's full-duration state differs from the native one).
#include "scenario/scenes.h"
#include "sim/simulation.h"
#include "validation_report.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace {

nlohmann::json recorded(const char* run) {
  const std::string path = std::string(TELA_TEST_DATA) + "/scene_hashes.json";
  std::ifstream in(path);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json file = nlohmann::json::parse(text.str(), nullptr, false);
  REQUIRE_MESSAGE(!file.is_discarded(), path << " is not JSON");
  REQUIRE(file.contains(run));
  return file[run];
}

tela::Simulation create(const std::string& name) {
  const std::optional<tela::Scenario> scene = tela::builtin_scene(name);
  REQUIRE_MESSAGE(scene.has_value(), name);
  tela::Result<tela::Simulation> sim = tela::Simulation::create(*scene);
  REQUIRE_MESSAGE(sim.ok(), sim.error);
  return std::move(*sim.value);
}

}  // namespace

TEST_CASE("every named scene has recorded state hashes") {
  const nlohmann::json short_runs = recorded("short_run"), full_runs = recorded("full_duration");
  for (const std::string& name : tela::scene_names()) {
    CAPTURE(name);
    CHECK(short_runs.contains(name));
    CHECK(full_runs.contains(name));
  }
  CHECK(short_runs.size() == tela::scene_names().size());
  CHECK(full_runs.size() == tela::scene_names().size());
}

TEST_CASE("every named scene: a short run steps, converges, keeps its constraints and reproduces its state hash") {
  const nlohmann::json short_runs = recorded("short_run");
  for (const auto& [name, run] : short_runs.items()) {
    CAPTURE(name);
    tela::Simulation sim = create(name);
    const long steps = run.at("steps").get<long>();
    for (long s = 0; s < steps && !sim.failed(); ++s) sim.step();
    REQUIRE_MESSAGE(!sim.failed(), sim.failure_message());
    CHECK(sim.stats().steps == steps);
    CHECK(sim.stats().unconverged_steps == 0);
    CHECK(sim.stats().max_constraint_error <= sim.scenario().solver.tolerance);
    CHECK(sim.state_hash() == run.at("state_hash").get<std::string>());
  }
}

TEST_CASE("every named scene reproduces its state hash after its full duration" *
          doctest::test_suite("validation")) {
  const nlohmann::json full_runs = recorded("full_duration");
  int same = 0;
  for (const auto& [name, run] : full_runs.items()) {
    CAPTURE(name);
    tela::Simulation sim = create(name);
    const long steps = run.at("steps").get<long>();
    CHECK(sim.steps_for_duration() == steps);
    for (long s = 0; s < steps && !sim.failed(); ++s) sim.step();
    CHECK_MESSAGE(!sim.failed(), sim.failure_message());
    const bool equal = sim.state_hash() == run.at("state_hash").get<std::string>();
    CHECK(equal);
    same += equal ? 1 : 0;
  }
  const int scenes = static_cast<int>(full_runs.size());
  tela::validation::report("named scenes: state hash after the full duration, native",
                           std::to_string(same) + " of " + std::to_string(scenes) + " as recorded",
                           "all as recorded", same == scenes);
}
