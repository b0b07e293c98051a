// The state is the state (cloth/state.h): a simulation made from a copy of another's state,
// with a fresh workspace and a fresh contact provider, steps on exactly as the original does,
// bit for bit: positions, velocities and everything the solver carries.
#include "cloth/metrics.h"
#include "scenario/scenes.h"
#include "sim/simulation.h"

#include <doctest/doctest.h>

#include <string>

namespace {

tela::Scenario scene(const std::string& name) {
  const auto found = tela::builtin_scene(name);
  REQUIRE(found.has_value());
  return *found;
}

tela::Simulation create(const tela::Scenario& scenario) {
  tela::Result<tela::Simulation> sim = tela::Simulation::create(scenario);
  REQUIRE_MESSAGE(sim.ok(), sim.error);
  return std::move(*sim.value);
}

tela::Simulation copy_of(const tela::Simulation& original) {
  tela::Result<tela::Simulation> sim = tela::Simulation::create(original.scenario(), original.state());
  REQUIRE_MESSAGE(sim.ok(), sim.error);
  return std::move(*sim.value);
}

// every field of the two states, bit for bit
void check_same_state(const tela::ClothState& a, const tela::ClothState& b) {
  CHECK(a.positions == b.positions);
  CHECK(a.velocities == b.velocities);
  CHECK(a.time == b.time);
  CHECK(a.steps == b.steps);
  CHECK(a.substep_level == b.substep_level);
  CHECK(a.preconditioner.shift == b.preconditioner.shift);
  REQUIRE(static_cast<bool>(a.preconditioner.matrix) == static_cast<bool>(b.preconditioner.matrix));
  if (a.preconditioner.matrix) CHECK(*a.preconditioner.matrix == *b.preconditioner.matrix);
  CHECK(a.contact_warm_start.active == b.contact_warm_start.active);
  CHECK(a.contact_warm_start.plan == b.contact_warm_start.plan);
}

// Steps `name` n steps, copies the state into a fresh simulation, steps both m more steps and
// compares them; `contacts`: contacts must be active at the copy.
void check_copy(const std::string& name, int n, int m, bool contacts) {
  tela::Simulation original = create(scene(name));
  original.step_n(n);
  REQUIRE_FALSE(original.failed());
  if (contacts) {
    CHECK(original.last_report().contacts > 0);
    CHECK_FALSE(original.state().contact_warm_start.active.empty());
  }
  tela::Simulation copy = copy_of(original);
  CHECK(copy.state_hash() == original.state_hash());
  CHECK(copy.steps_done() == n);
  original.step_n(m);
  copy.step_n(m);
  REQUIRE_FALSE(original.failed());
  REQUIRE_FALSE(copy.failed());
  CHECK(copy.state_hash() == original.state_hash());
  check_same_state(copy.state(), original.state());
}

}  // namespace

TEST_SUITE("state_copy") {
  TEST_CASE("hang-20x33: a copy after 40 steps steps on as the original for 40 more") {
    check_copy("hang-20x33", 40, 40, false);
  }

  TEST_CASE("tablecloth: a copy while the sheet lies on the table steps on as the original") {
    check_copy("tablecloth", 150, 60, true);
  }

  TEST_CASE("napkin-fold: a copy of the napkin on the table steps on as the original") {
    check_copy("napkin-fold", 12, 8, true);
  }

  TEST_CASE("stick-hit: copies made at several points, each into a fresh simulation, end as one run") {
    tela::Simulation original = create(scene("stick-hit"));
    tela::Simulation relay = create(scene("stick-hit"));
    for (int leg : {7, 23, 1, 45, 24}) {
      original.step_n(leg);
      relay.step_n(leg);
      relay = copy_of(relay);
    }
    REQUIRE(original.steps_done() == 100);
    CHECK(original.stats().max_contacts > 0);
    CHECK(relay.state_hash() == original.state_hash());
    check_same_state(relay.state(), original.state());
  }

  TEST_CASE("every part of the state changes the run: a relay that drops one part at each step ends elsewhere") {
    // a fresh runner (sim/runner.h) at every step, given the whole state or the state without
    // one part; hang-20x33 subdivides its steps and refactorizes the projection's
    // preconditioner, cylinder-mu-0.2 carries contacts and the active-set solver's planned rows
    const auto relay = [](const tela::Scenario& s, int steps, void (*drop)(tela::ClothState&)) {
      const tela::Simulation start = create(s);
      tela::ClothState state = start.state();
      for (int k = 0; k < steps; ++k) {
        if (drop) drop(state);
        tela::Result<tela::Runner> runner = tela::Runner::create(start.runner().pieces(), state);
        REQUIRE(runner.ok());
        runner.value->step();
        state = runner.value->state();
      }
      return tela::positions_hash(state.positions);
    };
    const tela::Scenario hang = scene("hang-20x33"), cylinder = scene("cylinder-mu-0.2");
    tela::Simulation hang_run = create(hang), cylinder_run = create(cylinder);
    hang_run.step_n(100);
    cylinder_run.step_n(200);
    CHECK(relay(hang, 100, nullptr) == hang_run.state_hash());
    CHECK(relay(cylinder, 200, nullptr) == cylinder_run.state_hash());
    CHECK(relay(hang, 100, [](tela::ClothState& s) { s.substep_level = 0; }) != hang_run.state_hash());
    CHECK(relay(hang, 100, [](tela::ClothState& s) { s.preconditioner = {}; }) != hang_run.state_hash());
    CHECK(relay(cylinder, 200, [](tela::ClothState& s) { s.contact_warm_start.active.clear(); }) !=
          cylinder_run.state_hash());
    CHECK(relay(cylinder, 200, [](tela::ClothState& s) { s.contact_warm_start.plan = {}; }) !=
          cylinder_run.state_hash());
  }

  TEST_CASE("released controls: copies before, at and after a release step on as the original") {
    tela::Scenario s = scene("hang-7x9");
    s.controls.front().release = 10 * s.solver.dt;  // released at the start of step 10
    for (int n : {9, 10, 11, 25}) {
      CAPTURE(n);
      tela::Simulation original = create(s);
      original.step_n(n);
      tela::Simulation copy = copy_of(original);
      CHECK(copy.model().free_count == original.model().free_count);
      original.step_n(15);
      copy.step_n(15);
      REQUIRE_FALSE(original.failed());
      CHECK(copy.model().free_count == original.model().free_count);
      CHECK(copy.state_hash() == original.state_hash());
      check_same_state(copy.state(), original.state());
    }
  }

  TEST_CASE("a state that does not fit the scenario is refused, naming the field") {
    tela::Simulation original = create(scene("hang-7x9"));
    original.step_n(3);
    tela::ClothState wrong_size = original.state();
    wrong_size.positions.conservativeResize(wrong_size.positions.rows() - 1, 3);
    tela::Result<tela::Simulation> a = tela::Simulation::create(original.scenario(), wrong_size);
    REQUIRE_FALSE(a.ok());
    CHECK(a.error.find("state:") == 0);
    tela::ClothState wrong_clock = original.state();
    wrong_clock.time += 1e-3;
    tela::Result<tela::Simulation> b = tela::Simulation::create(original.scenario(), wrong_clock);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error.find("state.time:") == 0);
  }
}
