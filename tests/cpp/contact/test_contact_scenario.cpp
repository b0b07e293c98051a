// Scenario file: the obstacles and self_collision sections, their validation messages, round
// trips, and a cloth that starts inside an obstacle.
#include "scenario/json.h"
#include "scenario/scenes.h"
#include "sim/simulation.h"

#include <doctest/doctest.h>

#include <string>

namespace {

std::string with(const std::string& fragment) {
  return R"({"version": 1, "mesh": {"type": "rectangle", "nx": 3, "ny": 3, "origin": [0, 0, 1]}, )" + fragment + "}";
}

std::string error_of(const std::string& text) {
  const tela::Result<tela::Scenario> r = tela::parse_scenario(text);
  return r.ok() ? std::string() : r.error;
}

std::string obstacles(const std::string& list) { return error_of(with(R"("obstacles": [)" + list + "]")); }

}  // namespace

TEST_SUITE("contact") {

TEST_CASE("obstacles parse with their fields and defaults") {
  const auto r = tela::parse_scenario(with(R"("obstacles": [
      {"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 2], "mu": 0.4},
      {"type": "box", "center": [0, 0, 0.375], "size": [1, 0.5, 0.75], "mu": 0.5},
      {"type": "sphere", "center": [3, 0, 0.35], "radius": 0.35, "mu": 0.5,
       "motion": {"rotation": {"axis": [0, 0, 1], "angular_velocity": 3.14, "start": 1, "stop": 2}}},
      {"type": "cylinder", "center": [0, 3, 0.9], "axis": [0, 1, 0], "radius": 0.1, "length": 2},
      {"type": "stick", "points": [[0, 0, 1], [0.75, 0, 1]], "radius": 0.0075,
       "motion": {"translation": {"type": "keyframes", "keyframes": [{"time": 1, "offset": [0, 0.2, 0]}]}}},
      {"type": "needles", "center": [5, 5, 0], "spacing": 0.15, "count": [4, 3], "c1": 20, "c2": 0.075}],
      "self_collision": {"enabled": true, "thickness": 0.002, "mu": 0.2, "proximity": 0.25})"));
  REQUIRE_MESSAGE(r.ok(), r.error);
  const tela::Scenario& s = *r.value;
  REQUIRE(s.obstacles.size() == 6);
  CHECK(s.obstacles[0].normal == Eigen::Vector3d(0, 0, 1));  // normalized
  CHECK(s.obstacles[0].mu == 0.4);
  CHECK(s.obstacles[1].size == Eigen::Vector3d(1, 0.5, 0.75));
  CHECK(s.obstacles[2].motion.pivot == Eigen::Vector3d(3, 0, 0.35));  // defaults to the centre
  CHECK(s.obstacles[2].motion.angular_velocity == 3.14);
  CHECK(s.obstacles[3].mu == 0.0);  // default
  CHECK(s.obstacles[4].points.size() == 2);
  CHECK(s.obstacles[4].segment == 0.02);
  CHECK(s.obstacles[5].count_x == 4);
  CHECK(s.obstacles[5].count_y == 3);
  CHECK(s.self_collision.enabled);
  CHECK(s.self_collision.thickness == 0.002);
  CHECK(s.self_collision.proximity == 0.25);
  // round trip
  const std::string text = tela::scenario_to_json(s);
  const auto back = tela::parse_scenario(text);
  REQUIRE_MESSAGE(back.ok(), back.error);
  CHECK(tela::scenario_to_json(*back.value) == text);
}

TEST_CASE("obstacle validation names the field") {
  CHECK(obstacles(R"({"type": "plane", "mu": -0.1})") == "obstacles[0].mu: must be >= 0 (got -0.1)");
  CHECK(obstacles(R"({"type": "sphere", "radius": 0})") == "obstacles[0].radius: must be > 0 (got 0)");
  CHECK(obstacles(R"({"type": "plane", "normal": [0, 0, 0]})") == "obstacles[0].normal: must be a non-zero vector");
  CHECK(obstacles(R"({"type": "cylinder", "axis": [0, 0, 0]})") == "obstacles[0].axis: must be a non-zero vector");
  CHECK(obstacles(R"({"type": "cylinder", "length": -1})") == "obstacles[0].length: must be >= 0 (got -1)");
  CHECK(obstacles(R"({"type": "box", "size": [1, 0, 1]})").find("obstacles[0].size: every edge length must be > 0") == 0);
  CHECK(obstacles(R"({"type": "cone"})").find("obstacles[0].type: must be one of plane, box") == 0);
  CHECK(obstacles(R"({"mu": 1})").find("obstacles[0].type: required") == 0);
  CHECK(obstacles(R"({"type": "plane", "radius": 1})").find("obstacles[0].radius: unknown key") == 0);
  CHECK(obstacles(R"({"type": "stick", "points": [[0, 0, 0]]})") ==
        "obstacles[0].points: must have at least 2 points (got 1)");
  CHECK(obstacles(R"({"type": "stick", "points": [[0, 0, 0], [0, 0, 0]]})") ==
        "obstacles[0].points[1]: repeats the previous point (a stick edge of zero length)");
  CHECK(obstacles(R"({"type": "stick", "points": [[0, 0, 0], [100, 0, 0]], "segment": 0.001})")
            .find("obstacles[0].segment: the stick would have") == 0);
  CHECK(obstacles(R"({"type": "needles", "spacing": 0.05})").find("obstacles[0].spacing: needles of base radius") == 0);
  CHECK(obstacles(R"({"type": "needles", "count": [0, 3]})") == "obstacles[0].count[0]: must be >= 1 (got 0)");
  CHECK(obstacles(R"({"type": "plane"}, {"type": "sphere", "center": [0, 0, 1e400]})")
            .find("obstacles[1].center[2]: must be finite") == 0);
  CHECK(obstacles(R"({"type": "sphere", "motion": {"rotation": {"start": 2, "stop": 1}}})") ==
        "obstacles[0].motion.rotation.stop: must be > start (2) (got 1)");
  CHECK(obstacles(R"({"type": "sphere", "motion": {"spin": 1}})").find("obstacles[0].motion.spin: unknown key") == 0);
}

TEST_CASE("overlapping and hidden obstacles are reported") {
  CHECK(obstacles(R"({"type": "plane"}, {"type": "plane"})") ==
        "obstacles[1]: is the same plane as obstacles[0]; remove one of them");
  CHECK(obstacles(R"({"type": "sphere", "radius": 1}, {"type": "sphere", "center": [0.1, 0, 0], "radius": 0.5})")
            .find("obstacles[1]: lies inside") == 0);
  CHECK(obstacles(R"({"type": "box", "size": [2, 2, 2]}, {"type": "box", "center": [0.2, 0, 0]})")
            .find("obstacles[1]: lies inside") == 0);
  CHECK(obstacles(R"({"type": "plane"}, {"type": "sphere", "center": [0, 0, -2], "radius": 1})")
            .find("obstacles[1]: lies entirely inside the solid below the plane of obstacles[0]") == 0);
  // touching or partly overlapping solids are fine (a sphere resting on the floor)
  CHECK(obstacles(R"({"type": "plane"}, {"type": "sphere", "center": [0, 0, 0.35], "radius": 0.35})").empty());
}

TEST_CASE("self_collision validation") {
  CHECK(error_of(with(R"("self_collision": {"thickness": -0.001})")) ==
        "self_collision.thickness: must be >= 0 (got -0.001)");
  CHECK(error_of(with(R"("self_collision": {"mu": -1})")) == "self_collision.mu: must be >= 0 (got -1)");
  CHECK(error_of(with(R"("self_collision": {"proximity": 0.7})")) == "self_collision.proximity: must be <= 0.5 (got 0.7)");
  CHECK(error_of(with(R"("self_collision": {"thickness": 1})")) == "self_collision.thickness: must be <= 0.1 (got 1)");
}

TEST_CASE("a cloth that starts inside an obstacle is a clear error") {
  const auto parsed = tela::parse_scenario(with(R"("obstacles": [{"type": "sphere", "center": [0.5, 0.5, 1], "radius": 0.2}])"));
  REQUIRE(parsed.ok());
  const auto sim = tela::Simulation::create(*parsed.value);
  REQUIRE_FALSE(sim.ok());
  CHECK(sim.error.find("obstacles[0]: the cloth starts inside this sphere (node 4 is") == 0);
  // outside but within the clearance is fine (the first step pushes the cloth out)
  const auto near = tela::parse_scenario(with(R"("obstacles": [{"type": "plane", "point": [0, 0, 0.9995]}])"));
  REQUIRE(near.ok());
  CHECK(tela::Simulation::create(*near.value).ok());
}

TEST_CASE("contact-free scenes keep their JSON form (no contact sections written)") {
  const std::string text = tela::scenario_to_json(*tela::builtin_scene("hang-7x9"));
  CHECK(text.find("obstacles") == std::string::npos);
  CHECK(text.find("self_collision") == std::string::npos);
}

}  // TEST_SUITE
