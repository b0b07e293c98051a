// Simulation::contact_nodes (what the page dots as contact points): the nodes of the contact
// solver's working set at the end of the last step, each at the clearance from the obstacle
// it rests on; empty before any contact, without contacts, and for contact-free scenes.
#include "contact/obstacles/obstacle.h"
#include "scenario/scenes.h"
#include "sim/compile.h"
#include "sim/simulation.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace {

tela::Simulation create(const std::string& name) {
  const auto scene = tela::builtin_scene(name);
  REQUIRE(scene.has_value());
  tela::Result<tela::Simulation> sim = tela::Simulation::create(*scene);
  REQUIRE_MESSAGE(sim.ok(), sim.error);
  return std::move(*sim.value);
}

}  // namespace

TEST_SUITE("contact_nodes") {
  TEST_CASE("cylinder-mu-0.55: the active contacts' nodes lie at the clearance from the cylinder or floor") {
    tela::Simulation sim = create("cylinder-mu-0.55");
    CHECK(sim.contact_nodes().empty());
    sim.step();
    CHECK(sim.contact_nodes().empty());  // the cloth starts 4 cm above the cylinder
    sim.step_n(59);
    const std::vector<int> nodes = sim.contact_nodes();
    REQUIRE(!nodes.empty());
    CHECK(std::is_sorted(nodes.begin(), nodes.end()));
    CHECK(std::adjacent_find(nodes.begin(), nodes.end()) == nodes.end());
    const double clearance = 0.5 * sim.scenario().self_collision.thickness;
    for (int k : nodes) {
      double d = std::numeric_limits<double>::infinity();
      for (const tela::Obstacle& o : tela::compile_obstacles(sim.scenario().obstacles))
        d = std::min(d, tela::obstacle_closest_at(o, sim.time(), sim.state().positions.row(k).transpose()).distance);
      CHECK_MESSAGE(std::fabs(d - clearance) < 1e-3, "node ", k, " at ", d, " m");
    }
  }

  TEST_CASE("hang-7x9 (no obstacles, no self-collisions) never has contact nodes") {
    tela::Simulation sim = create("hang-7x9");
    sim.step_n(5);
    CHECK(sim.contact_nodes().empty());
  }
}
