// The built-in scene library: every scene is a valid file that round-trips, and each scene
// sets up the experiment it names.
#include "scenario/json.h"
#include "scenario/scenes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace {

constexpr double pi = 3.14159265358979323846;

tela::Scenario scene(const std::string& name) {
  const std::optional<tela::Scenario> s = tela::builtin_scene(name);
  REQUIRE_MESSAGE(s.has_value(), name);
  return *s;
}

// the sinusoid displacement of scenario.h: axis * A * (sin(2 pi f (t - start) + phase) - sin(phase))
Eigen::Vector3d sinusoid_offset(const tela::Motion& m, double t) {
  const double clamped = std::min(std::max(t, m.start), m.stop);
  const double s = std::sin(2 * pi * m.frequency * (clamped - m.start) + m.phase) - std::sin(m.phase);
  return m.axis * (m.amplitude * s);
}

}  // namespace

TEST_CASE("scene names: the default first, unique, all buildable") {
  const std::vector<std::string> names = tela::scene_names();
  REQUIRE(names.size() == 20);  // 12 contact-free scenes + 8 contact scenes
  CHECK(names.front() == "hang-7x9");
  CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
  for (const std::string& name : names) {
    CAPTURE(name);
    const tela::Scenario s = scene(name);
    CHECK(s.name == name);
    CHECK(s.version == 1);
    CHECK_FALSE(s.description.empty());
    CHECK(s.description.back() == '.');
    // dt = 0.01 s except the Cusick drapes' fixed 5 ms step (checked with those scenes)
    if (name.rfind("cusick-", 0) != 0) CHECK(s.solver.dt == 0.01);
    CHECK(s.solver.tolerance == 1e-3);
    CHECK(s.solver.max_iterations == 50);
    // the contact scenes that drop a free sheet have no control
    CHECK((!s.controls.empty() || !s.obstacles.empty()));
  }
}

TEST_CASE("unknown scene names give nothing") {
  CHECK_FALSE(tela::builtin_scene("nope").has_value());
  CHECK_FALSE(tela::builtin_scene("").has_value());
  CHECK_FALSE(tela::builtin_scene("HANG-7X9").has_value());
}

TEST_CASE("every built-in scene round-trips through its JSON form") {
  for (const std::string& name : tela::scene_names()) {
    CAPTURE(name);
    const std::string text = tela::scenario_to_json(scene(name));
    const tela::Result<tela::Scenario> back = tela::parse_scenario(text);
    REQUIRE_MESSAGE(back.ok(), back.error);
    CHECK(tela::scenario_to_json(*back.value) == text);
    CHECK(tela::scenario_to_json(*back.value, -1) == tela::scenario_to_json(scene(name), -1));
  }
}

TEST_CASE("hanging scenes: A2 wool, horizontal, centred, top edge on y = 0") {
  const int sizes[3][2] = {{7, 9}, {20, 33}, {30, 30}};
  for (const auto& size : sizes) {
    const std::string name = "hang-" + std::to_string(size[0]) + "x" + std::to_string(size[1]);
    CAPTURE(name);
    const tela::Scenario s = scene(name);
    const auto& mesh = std::get<tela::RectangleMeshDesc>(s.mesh);
    CHECK(mesh.nx == size[0]);
    CHECK(mesh.ny == size[1]);
    CHECK(mesh.width == 0.42);
    CHECK(mesh.height == 0.594);
    CHECK(mesh.plane == "xy");
    CHECK(mesh.elements == "quad");
    CHECK(mesh.origin.x() + mesh.width / 2 == doctest::Approx(0.0));
    CHECK(mesh.origin.y() + mesh.height == doctest::Approx(0.0));
    CHECK(mesh.origin.z() == 1.0);
    CHECK(s.material.rho == 0.1804);
    CHECK(s.material.delta == 0.087);
    CHECK(s.material.alpha == 0.35);
    REQUIRE(s.controls.size() == 1);
    CHECK(s.controls[0].nodes.name == "top_corners");
    CHECK(s.controls[0].motion.type == "hold");
    CHECK(s.duration == 3.0);
  }
}

TEST_CASE("WAM scenes start at rest and return to rest when the shaking stops") {
  struct Expected {
    const char* name;
    double delta, alpha, amplitude, frequency;
  };
  for (const Expected& e : {Expected{"wam-slow", 0.47, 1.19, 0.15, 0.3},
                            Expected{"wam-fast", 0.50, 2.52, 0.075, 0.6}}) {
    CAPTURE(e.name);
    const tela::Scenario s = scene(e.name);
    const auto& mesh = std::get<tela::RectangleMeshDesc>(s.mesh);
    CHECK(mesh.width == 0.297);
    CHECK(mesh.height == 0.42);
    CHECK(mesh.nx == 9);
    CHECK(mesh.ny == 9);
    CHECK(mesh.plane == "xz");
    CHECK(mesh.origin.x() + mesh.width / 2 == doctest::Approx(0.0));
    CHECK(mesh.origin.z() == 1.0);
    CHECK(s.material.rho == 1.0);
    CHECK(s.material.delta == e.delta);
    CHECK(s.material.alpha == e.alpha);
    CHECK(s.duration == 14.0);
    REQUIRE(s.controls.size() == 1);
    const tela::Motion& m = s.controls[0].motion;
    CHECK(s.controls[0].nodes.name == "top_corners");
    CHECK(m.type == "sinusoid");
    CHECK(m.axis == Eigen::Vector3d(0, 1, 0));
    CHECK(m.amplitude == e.amplitude);
    CHECK(m.frequency == e.frequency);
    CHECK(m.start == 1.0);
    CHECK(m.stop == 11.0);
    // d(t) = A (cos(2 pi f (t - start)) - 1): zero and at rest at the start, -2A at half a
    // period, zero again at the stop (a whole number of periods), so holding after it is smooth
    CHECK(sinusoid_offset(m, 0.5).norm() == 0.0);
    CHECK(sinusoid_offset(m, 1.0 + 1e-4).norm() < 1e-6);
    CHECK(sinusoid_offset(m, 1.0 + 0.5 / e.frequency).y() == doctest::Approx(-2 * e.amplitude));
    CHECK(sinusoid_offset(m, 11.0).norm() < 1e-12);
    CHECK(sinusoid_offset(m, 13.0).norm() < 1e-12);
  }
}

TEST_CASE("locking scenes: 1 m square, three corners held, free-corner metric") {
  struct Expected {
    const char* name;
    const char* elements;
    int nodes;
  };
  for (const Expected& e : {Expected{"locking-tri-472", "tri_irregular", 472},
                            Expected{"locking-tri-941", "tri_irregular", 941},
                            Expected{"locking-quad-529", "quad", 529},
                            Expected{"locking-quad-900", "quad", 900}}) {
    CAPTURE(e.name);
    const tela::Scenario s = scene(e.name);
    const auto& mesh = std::get<tela::RectangleMeshDesc>(s.mesh);
    CHECK(mesh.elements == e.elements);
    const int nodes = mesh.nodes > 0 ? mesh.nodes : mesh.nx * mesh.ny;
    CHECK(nodes == e.nodes);
    CHECK(std::abs(mesh.nx * mesh.ny - e.nodes) < 2 * mesh.nx);  // the grid hint is close
    CHECK(mesh.width == 1.0);
    CHECK(mesh.height == 1.0);
    CHECK(mesh.plane == "xy");
    CHECK(mesh.origin == Eigen::Vector3d(0, 0, 1));
    CHECK(mesh.noise == 0.003);
    CHECK(s.material.rho == 0.1);
    CHECK(s.material.delta == 0.1);
    CHECK(s.material.alpha == 2.0);
    CHECK(s.material.kappa == 0.0);
    REQUIRE(s.controls.size() == 1);
    CHECK(s.controls[0].nodes.name == "corners:0,1,3");  // all but the top-right corner
    CHECK(s.controls[0].motion.type == "hold");
    CHECK(s.metrics == std::vector<std::string>{"free_corner"});
    CHECK(s.duration == 6.0);
  }
}

TEST_CASE("Cusick scenes: 768-node ring, stiffness 1 : 5 : 10, one shared scale") {
  const tela::Scenario low = scene("cusick-low");
  const tela::Scenario medium = scene("cusick-medium");
  const tela::Scenario high = scene("cusick-high");
  CHECK(low.material.kappa == 0.005);
  CHECK(medium.material.kappa == doctest::Approx(5 * low.material.kappa));
  CHECK(high.material.kappa == doctest::Approx(10 * low.material.kappa));
  for (const tela::Scenario* s : {&low, &medium, &high}) {
    CAPTURE(s->name);
    const auto& mesh = std::get<tela::DiscMeshDesc>(s->mesh);
    CHECK(mesh.ring);
    CHECK(mesh.radius == 0.15);
    CHECK(mesh.inner_radius == 0.09);
    CHECK(mesh.rings * mesh.sectors == 768);
    CHECK(mesh.center == Eigen::Vector3d(0, 0, 0.5));
    CHECK(s->material.rho == low.material.rho);
    CHECK(s->material.delta == s->material.rho);
    CHECK(s->material.alpha == 20 * s->material.rho);
    // the thesis' fixed step (docs/validation.md, "Cusick drape")
    CHECK(s->solver.dt == 0.005);
    CHECK(s->solver.max_substeps == 1);
    REQUIRE(s->controls.size() == 1);
    CHECK(s->controls[0].nodes.name == "inner_boundary");
    CHECK(s->controls[0].motion.type == "hold");
    CHECK(s->metrics == std::vector<std::string>{"drape_coefficient"});
    CHECK(s->duration == 4.0);
  }
}
