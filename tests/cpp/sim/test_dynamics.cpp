// Dynamics checks against analytic results: free fall equals the implicit-Euler recursion,
// trajectories depend only on delta/rho and alpha/rho, runs are deterministic.
#include <doctest/doctest.h>

#include "scenario/scenes.h"
#include "sim/simulation.h"

#include <cmath>

using namespace tela;

namespace {

Simulation make(const Scenario& scenario) {
  Result<Simulation> sim = Simulation::create(scenario);
  REQUIRE_MESSAGE(sim.ok(), sim.error);
  return std::move(*sim.value);
}

}  // namespace

TEST_CASE("free fall follows the discrete implicit-Euler recursion") {
  Scenario s;
  s.name = "free fall";
  RectangleMeshDesc mesh;
  mesh.width = 0.3;
  mesh.height = 0.2;
  mesh.nx = 4;
  mesh.ny = 3;
  mesh.noise = 0.002;
  s.mesh = mesh;
  s.material = Material{0.2, 0.15, 0.3, 0, 0, 0};
  s.solver.dt = 0.01;
  Simulation sim = make(s);
  const Positions start = sim.state().positions;
  // rigid translation keeps every constraint exactly, so the projection must not move it:
  //   v_{n+1} = (rho v_n - dt delta g) / (rho + dt alpha),  z_{n+1} = z_n + dt v_{n+1}
  double v = 0, z = 0;
  for (int i = 0; i < 100; ++i) {
    const StepStatus status = sim.step();
    REQUIRE(status == StepStatus::converged);
    v = (s.material.rho * v - s.solver.dt * s.material.delta * kGravity) /
        (s.material.rho + s.solver.dt * s.material.alpha);
    z += s.solver.dt * v;
  }
  const Positions& x = sim.state().positions;
  double worst = 0;
  for (Eigen::Index k = 0; k < x.rows(); ++k) {
    worst = std::max(worst, std::abs(x(k, 2) - start(k, 2) - z));
    worst = std::max(worst, std::abs(x(k, 0) - start(k, 0)) + std::abs(x(k, 1) - start(k, 1)));
  }
  CHECK(worst < 1e-12);
  CHECK(sim.stats().total_iterations == 0);
}

TEST_CASE("a released control leaves its nodes free: the sheet then falls as a whole") {
  // hang-7x9 released at 0.5 s: from then on every node is free, the internal constraint and
  // bending forces cancel in the sum, so the mass-weighted mean velocity follows the free-fall
  // recursion of each (sub)step exactly, from the velocity the sheet had at the release
  Scenario s = *builtin_scene("hang-7x9");
  s.controls.at(0).release = 0.5;
  s.duration = 1.0;
  Simulation sim = make(s);
  const int n = sim.mesh().node_count();
  auto mean_vz = [&] {
    double momentum = 0, mass = 0;
    for (int k = 0; k < n; ++k) {
      momentum += sim.model().lumped_area[k] * sim.state().velocities(k, 2);
      mass += sim.model().lumped_area[k];
    }
    return momentum / mass;
  };
  Positions held;
  while (sim.time() < 0.5 - 1e-9) {
    REQUIRE(sim.step() != StepStatus::diverged);
    held = sim.state().positions;
  }
  const std::vector<int> corners = sim.mesh().node_sets.at("top_corners");
  CHECK(sim.model().free_count == n - 2);
  double v = mean_vz();
  for (int i = 0; i < 50; ++i) {
    REQUIRE_FALSE_MESSAGE(sim.failed(), sim.failure_message());
    sim.step();
    const int substeps = sim.last_report().substeps;
    const double h = s.solver.dt / substeps;
    for (int j = 0; j < substeps; ++j)
      v = (s.material.rho * v - h * s.material.delta * kGravity) / (s.material.rho + h * s.material.alpha);
  }
  REQUIRE_FALSE_MESSAGE(sim.failed(), sim.failure_message());
  CHECK(sim.model().free_count == n);
  CHECK(mean_vz() == doctest::Approx(v).epsilon(1e-9));
  // the corners left their held place and the sheet still meets its constraints
  for (int c : corners) CHECK(held(c, 2) - sim.state().positions(c, 2) > 0.3);
  CHECK(sim.last_report().constraint_error <= s.solver.tolerance);
}

TEST_CASE("scaling rho, delta, alpha by one factor leaves the trajectory unchanged") {
  // With a power of two every product and quotient scales exactly, so the runs must agree to
  // rounding. With another factor rounding differs in the last bits, and the projection may
  // stop one iteration earlier or later (its stopping test is a threshold), so the runs agree
  // only to the constraint tolerance's effect on positions (millimetres).
  const Scenario a = *builtin_scene("hang-7x9");
  Simulation sa = make(a);
  sa.step_n(60);
  REQUIRE(!sa.failed());
  for (double factor : {4.0, 3.7}) {
    Scenario b = a;
    b.material.rho *= factor;
    b.material.delta *= factor;
    b.material.alpha *= factor;
    Simulation sb = make(b);
    sb.step_n(60);
    const double diff = (sa.state().positions - sb.state().positions).cwiseAbs().maxCoeff();
    CAPTURE(factor);
    CHECK(diff < (factor == 4.0 ? 1e-12 : 5e-3));
  }
}

TEST_CASE("the same scene run twice gives the same state hash") {
  const Scenario s = *builtin_scene("hang-7x9");
  Simulation a = make(s), b = make(s);
  a.step_n(50);
  b.step_n(50);
  CHECK(a.state_hash() == b.state_hash());
  Simulation c = make(s);
  c.step_n(49);
  CHECK(c.state_hash() != a.state_hash());
}

TEST_CASE("bad scenarios fail with a message naming the problem") {
  Scenario s = *builtin_scene("hang-7x9");
  SUBCASE("node index out of range") {
    s.controls[0].nodes = NodeSelector{"", {0, 999}};
    Result<Simulation> sim = Simulation::create(s);
    REQUIRE(!sim.ok());
    CHECK(sim.error.find("controls[0].nodes[1]") != std::string::npos);
    CHECK(sim.error.find("999") != std::string::npos);
  }
  SUBCASE("unknown node set") {
    s.controls[0].nodes = NodeSelector{"inner_boundary", {}};
    Result<Simulation> sim = Simulation::create(s);
    REQUIRE(!sim.ok());
    CHECK(sim.error.find("inner_boundary") != std::string::npos);
  }
  // an explicit mesh in place of the scene's, without its controls: the creation error
  auto mesh_error = [&](std::vector<double> vertices, std::vector<std::vector<int>> faces) {
    ExplicitMeshDesc mesh;
    mesh.vertices = std::move(vertices);
    mesh.faces = std::move(faces);
    s.mesh = mesh;
    s.controls.clear();
    Result<Simulation> sim = Simulation::create(s);
    return sim.ok() ? std::string("(created)") : sim.error;
  };
  SUBCASE("a node that belongs to no face") {
    CHECK(mesh_error({0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 5, 5}, {{0, 1, 2}}).find("node 3") != std::string::npos);
  }
  // a boundary edge of zero length would give a constraint of zero scale, a NaN Newton system
  // and a factorization loop whose shift never grows (NaN * 10): degenerate faces are refused
  // by name.
  SUBCASE("a face with two nodes at the same position") {
    CHECK(mesh_error({0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0}, {{0, 1, 4, 3}, {1, 2, 5, 4}}) ==
          "mesh: face 1 has nodes 5 and 4 at the same position (every edge needs a length at rest)");
  }
  SUBCASE("a face of zero area") {
    CHECK(mesh_error({0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0}, {{0, 1, 2}, {0, 3, 1}}) ==
          "mesh: face 1 has zero area at rest (its nodes lie on one line)");
  }
}

TEST_CASE("solver.max_substeps caps the adaptive subdivision (1: the thesis' fixed step)") {
  Scenario s = *builtin_scene("hang-20x33");
  s.duration = 0.3;
  for (int cap : {1, 2, 4}) {
    s.solver.max_substeps = cap;
    Simulation sim = make(s);
    sim.step_n(static_cast<int>(sim.steps_for_duration()));
    REQUIRE_FALSE(sim.failed());
    CAPTURE(cap);
    CHECK(sim.stats().max_substeps <= cap);
    CHECK(sim.stats().max_constraint_error <= s.solver.tolerance);
    if (cap == 4) CHECK(sim.stats().max_substeps == 4);  // this falling sheet needs them
  }
}

TEST_CASE("a step whose substeps end at the iteration cap still covers its whole dt") {
  // one Newton iteration per substep against a tolerance of 1e-7: every attempt is split down
  // to the last level (4 substeps), whose projections stop at the cap with a moderate error (a
  // warning). All four substeps must still run: the held corners, lifted at a constant 0.5 m/s,
  // end every step at their target for the step's end time (a step that ended after its first
  // capped substep would advance the clock by dt and the cloth by dt / 4)
  Scenario s = *builtin_scene("hang-7x9");
  s.solver.tolerance = 1e-7;
  s.solver.max_iterations = 1;
  s.controls.at(0).motion.type = "keyframes";
  s.controls.at(0).motion.keyframes = {Keyframe{0.0, {0, 0, 0}}, Keyframe{1.0, {0, 0, 0.5}}};
  Simulation sim = make(s);
  const std::vector<int> corners = sim.mesh().node_sets.at("top_corners");
  int capped = 0;
  for (int i = 0; i < 20; ++i) {
    const StepStatus status = sim.step();
    REQUIRE(status != StepStatus::diverged);
    REQUIRE(status != StepStatus::non_finite);
    if (status == StepStatus::max_iterations) {
      ++capped;
      CHECK(sim.last_report().substeps == 4);
    }
    for (int c : corners)
      CHECK(sim.state().positions(c, 2) - sim.model().rest_positions(c, 2) ==
            doctest::Approx(0.5 * sim.time()).epsilon(1e-12));
  }
  CHECK(capped == 20);
}

TEST_CASE("a diverging run stops with a message instead of hanging") {
  Scenario s = *builtin_scene("wam-fast");
  s.solver.dt = 0.5;            // absurdly large step for a 0.6 Hz shake
  s.solver.max_iterations = 1;
  s.controls[0].motion.amplitude = 3.0;
  s.controls[0].motion.start = 0;
  Simulation sim = make(s);
  sim.step_n(40);
  CHECK(sim.failed());
  CHECK(sim.failure_message().find("solver.dt") != std::string::npos);
}
