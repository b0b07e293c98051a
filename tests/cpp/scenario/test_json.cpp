// Scenario file version 1: defaults, validation messages naming the field, round trips, and
// no exception ever escaping parse_scenario.
#include "scenario/json.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

using tela::parse_scenario;
using tela::scenario_to_json;

const char* const minimal = R"({"version": 1, "mesh": {"type": "rectangle"}})";

// the parse error for `text` (empty if it parsed)
std::string error_of(const std::string& text) {
  const tela::Result<tela::Scenario> result = parse_scenario(text);
  if (result.ok()) return {};
  return result.error;
}

// a valid scenario with `fragment` spliced in as extra top-level keys
std::string with(const std::string& fragment) {
  return R"({"version": 1, "mesh": {"type": "rectangle", "nx": 3, "ny": 4}, )" + fragment + "}";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a minimal scenario takes the documented defaults") {
  const tela::Result<tela::Scenario> result = parse_scenario(minimal);
  REQUIRE_MESSAGE(result.ok(), result.error);
  const tela::Scenario& s = *result.value;
  const tela::Scenario defaults;
  CHECK(s.version == 1);
  CHECK(s.name.empty());
  CHECK(s.description.empty());
  const auto* mesh = std::get_if<tela::RectangleMeshDesc>(&s.mesh);
  REQUIRE(mesh != nullptr);
  CHECK(mesh->width == 1.0);
  CHECK(mesh->nx == 10);
  CHECK(mesh->elements == "quad");
  CHECK(mesh->plane == "xy");
  CHECK(mesh->origin.isZero());
  CHECK(s.material.rho == defaults.material.rho);
  CHECK(s.material.delta == defaults.material.delta);
  CHECK(s.material.alpha == defaults.material.alpha);
  CHECK(s.solver.dt == defaults.solver.dt);
  CHECK(s.solver.tolerance == defaults.solver.tolerance);
  CHECK(s.solver.max_iterations == defaults.solver.max_iterations);
  CHECK(s.duration == defaults.duration);
  CHECK(s.controls.empty());
  CHECK(s.metrics.empty());
  CHECK(s.seed == 1);
}

TEST_CASE("partial sections keep the defaults of the keys they omit") {
  const auto result = parse_scenario(with(
      R"("material": {"kappa": 0.01}, "solver": {"dt": 0.005},
         "controls": [{"nodes": "corners"}, {"nodes": [0, 2], "motion": {"type": "sinusoid",
                       "amplitude": 0.1, "frequency": 2}}])"));
  REQUIRE_MESSAGE(result.ok(), result.error);
  const tela::Scenario& s = *result.value;
  CHECK(s.material.kappa == 0.01);
  CHECK(s.material.rho == 0.1804);
  CHECK(s.solver.dt == 0.005);
  CHECK(s.solver.max_iterations == 50);
  REQUIRE(s.controls.size() == 2);
  CHECK(s.controls[0].nodes.name == "corners");
  CHECK(s.controls[0].motion.type == "hold");
  CHECK(s.controls[1].nodes.name.empty());
  CHECK(s.controls[1].nodes.indices == std::vector<int>{0, 2});
  CHECK(s.controls[1].motion.axis == Eigen::Vector3d(1, 0, 0));
  CHECK(s.controls[1].motion.phase == 0.0);
  CHECK(s.controls[1].motion.start == 0.0);
  CHECK(s.controls[1].motion.stop == 1e300);
}

TEST_CASE("integer-valued numbers are accepted for integers, fractions are not") {
  const auto result = parse_scenario(
      R"({"version": 1.0, "mesh": {"type": "rectangle", "nx": 7.0, "ny": 9}, "seed": 42.0})");
  REQUIRE_MESSAGE(result.ok(), result.error);
  CHECK(std::get<tela::RectangleMeshDesc>(result.value->mesh).nx == 7);
  CHECK(result.value->seed == 42);
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "nx": 7.5}})") ==
        "mesh.nx: must be an integer (got 7.5)");
  CHECK(error_of(with(R"("solver": {"max_iterations": 0})")) ==
        "solver.max_iterations: must be >= 1 (got 0)");
  CHECK(error_of(with(R"("solver": {"max_iterations": 10001})")) ==
        "solver.max_iterations: must be <= 10000 (got 10001)");
  CHECK(error_of(with(R"("solver": {"max_substeps": 3})")) ==
        "solver.max_substeps: 1, 2 or 4 substeps per step, found 3");
  CHECK(error_of(with(R"("solver": {"max_substeps": 8})")) == "solver.max_substeps: must be <= 4 (got 8)");
  const auto fixed = parse_scenario(with(R"("solver": {"max_substeps": 1})"));
  REQUIRE_MESSAGE(fixed.ok(), fixed.error);
  CHECK(fixed.value->solver.max_substeps == 1);
  CHECK(contains(tela::scenario_to_json(*fixed.value), "\"max_substeps\": 1"));
  // the strain limit: 0 (off) by default and omitted when off; a relative stretch in [0, 0.5]
  CHECK(fixed.value->solver.strain_limit == 0);
  CHECK_FALSE(contains(tela::scenario_to_json(*fixed.value), "strain_limit"));
  const auto limited = parse_scenario(with(R"("solver": {"strain_limit": 0.04})"));
  REQUIRE_MESSAGE(limited.ok(), limited.error);
  CHECK(limited.value->solver.strain_limit == 0.04);
  CHECK(contains(tela::scenario_to_json(*limited.value), "\"strain_limit\": 0.04"));
  CHECK(error_of(with(R"("solver": {"strain_limit": -0.01})")) == "solver.strain_limit: must be >= 0 (got -0.01)");
  CHECK(error_of(with(R"("solver": {"strain_limit": 2})")) == "solver.strain_limit: must be <= 0.5 (got 2)");
  CHECK(error_of(with(R"("seed": -3)")) == "seed: must be >= 0 (got -3)");
  CHECK(contains(error_of(with(R"("seed": "7")")), "seed: must be a number"));
}

TEST_CASE("the version is required and must be 1") {
  CHECK(error_of(R"({"mesh": {"type": "rectangle"}})") ==
        "version: required (this tela reads scenario files of version 1)");
  CHECK(contains(error_of(R"({"version": 2, "mesh": {"type": "rectangle"}})"),
                 "version: unsupported scenario version 2"));
  CHECK(contains(error_of(R"({"version": 18446744073709551615, "mesh": {"type": "rectangle"}})"),
                 "version: unsupported scenario version 18446744073709551615"));
  CHECK(contains(error_of(R"({"version": 1.5, "mesh": {"type": "rectangle"}})"),
                 "version: unsupported scenario version 1.5"));
  CHECK(contains(error_of(R"({"version": "1", "mesh": {"type": "rectangle"}})"),
                 "version: must be an integer"));
  CHECK(error_of(R"({"version": 1})") == "mesh: required");
  CHECK(contains(error_of("[1, 2]"), "scenario: must be a JSON object"));
}

TEST_CASE("invalid JSON text gives the byte position") {
  const std::string truncated = error_of(R"({"version": 1, "mesh": )");
  CHECK(contains(truncated, "invalid JSON at byte 24"));
  CHECK(contains(truncated, "line 1, column 24"));
  const std::string nan = error_of("{\"version\": 1,\n \"material\": {\"alpha\": NaN}}");
  CHECK(contains(nan, "invalid JSON at byte"));
  CHECK(contains(nan, "line 2"));
  CHECK(contains(nan, "material.alpha"));
  CHECK(contains(error_of(""), "invalid JSON at byte"));
  CHECK(contains(error_of(std::string(minimal) + " x"), "invalid JSON at byte"));
  // invalid UTF-8 is reported, and the message itself stays printable ASCII
  const std::string utf8 = error_of("{\"version\": 1, \"name\": \"caf\xe9\"}");
  CHECK(contains(utf8, "invalid JSON at byte"));
  CHECK(contains(utf8, "in name"));
  for (const char c : utf8) CHECK((c >= 0x20 && c < 0x7f));
}

TEST_CASE("non-finite numbers are errors naming the field") {
  CHECK(contains(error_of(with(R"("material": {"alpha": 1e999})")),
                 "material.alpha: must be finite"));
  CHECK(contains(error_of(with(R"("material": {"alpha": -1e400})")),
                 "material.alpha: must be finite"));
  CHECK(contains(error_of(with(R"("material": {"alpha": Infinity})")), "invalid JSON"));
}

TEST_CASE("out-of-range values name the field and the bound") {
  CHECK(error_of(with(R"("solver": {"dt": -0.01})")) == "solver.dt: must be > 0 (got -0.01)");
  CHECK(error_of(with(R"("solver": {"dt": 2})")) == "solver.dt: must be <= 1 (got 2)");
  CHECK(error_of(with(R"("solver": {"tolerance": 0.6})")) ==
        "solver.tolerance: must be <= 0.5 (got 0.6)");
  CHECK(error_of(with(R"("material": {"rho": 0})")) == "material.rho: must be > 0 (got 0)");
  CHECK(error_of(with(R"("material": {"alpha": -1})")) == "material.alpha: must be >= 0 (got -1)");
  CHECK(error_of(with(R"("duration": 0)")) == "duration: must be > 0 (got 0)");
  CHECK(error_of(with(R"("duration": 3601)")) == "duration: must be <= 3600 (got 3601)");
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "nx": 1}})") ==
        "mesh.nx: must be >= 2 (got 1)");
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "width": -1}})") ==
        "mesh.width: must be > 0 (got -1)");
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "noise": -0.1}})") ==
        "mesh.noise: must be >= 0 (got -0.1)");
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "rectangle",
                             "elements": "tri_irregular", "nodes": 300000}})"),
                 "mesh.nodes: must be <= 200000"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "nodes": 100}})"),
                 "mesh.nodes: only used with elements \"tri_irregular\""));
  // noise off the sheet's plane beyond half the mean node spacing (0.42 x 0.594 m on 7 x 9
  // nodes: a mean spacing of 0.0629 m) is refused; the shipped scenes' noise (at most 0.07 of
  // the spacing) is not
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "width": 0.42, "height": 0.594,
                   "nx": 7, "ny": 9, "noise": 10}})") ==
        "mesh.noise: must be at most half the mean node spacing (0.0315 m for this mesh): it moves "
        "nodes off the sheet's plane (got 10)");
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "width": 0.42, "height": 0.594,
                            "nx": 7, "ny": 9, "noise": 0.032}})"), "(0.0315 m for this mesh)"));
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "width": 0.42, "height": 0.594,
                   "nx": 7, "ny": 9, "noise": 0.031}})") == "");
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "ring", "radius": 0.15, "inner_radius": 0.09,
                            "rings": 8, "sectors": 96, "noise": 0.01}})"),
                 "mesh.noise: must be at most half the mean node spacing"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "disc", "noise": 0.1}})"),
                 "mesh.noise: must be at most half the mean node spacing"));
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "disc", "sectors": 2}})") ==
        "mesh.sectors: must be >= 3 (got 2)");
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "disc", "rings": 0}})") ==
        "mesh.rings: must be >= 1 (got 0)");
  CHECK(error_of(with(R"("controls": [{"nodes": "corners", "release": 0}])")) ==
        "controls[0].release: must be > 0 (got 0)");
  CHECK(error_of(with(R"("controls": [{"nodes": "corners", "release": "soon"}])")) ==
        "controls[0].release: must be a number (got string)");
}

TEST_CASE("wrong types are errors, not coercions") {
  CHECK(error_of(with(R"("controls": [{"nodes": "corners"},
        {"nodes": "top_corners", "motion": {"type": "sinusoid", "frequency": "fast"}}])")) ==
        "controls[1].motion.frequency: must be a number (got string)");
  CHECK(error_of(with(R"("material": {"rho": true})")) ==
        "material.rho: must be a number (got boolean)");
  CHECK(error_of(with(R"("material": [1])")) == "material: must be an object (got array)");
  CHECK(error_of(with(R"("name": 3)")) == "name: must be a string (got number)");
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "origin": [0, 0]}})"),
                 "mesh.origin: must be an array of 3 numbers"));
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "origin": [0, null, 0]}})") ==
        "mesh.origin[1]: must be a number (got null)");
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "rectangle", "plane": "xw"}})"),
                 "mesh.plane: must be one of xy, xz, yz"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "hexagon"}})"), "mesh.type:"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"width": 1}})"), "mesh.type: required"));
  CHECK(contains(error_of(with(R"("controls": {"nodes": "corners"})")),
                 "controls: must be an array"));
  CHECK(contains(error_of(with(R"("metrics": ["drape"])")), "metrics[0]: must be one of"));
  CHECK(contains(error_of(with(R"("metrics": ["free_corner", "free_corner"])")), "metrics[1]"));
}

TEST_CASE("unknown and duplicate keys are errors") {
  CHECK(contains(error_of(with(R"("material": {"densty": 0.2})")), "material.densty: unknown key"));
  CHECK(contains(error_of(with(R"("gravity": 9.8)")), "gravity: unknown key"));
  CHECK(contains(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "hold",
                                  "amplitude": 1}}])")),
                 "controls[0].motion.amplitude: unknown key"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "disc", "inner_radius": 0.1}})"),
                 "mesh.inner_radius: unknown key"));
  CHECK(error_of(with(R"("solver": {"dt": 0.01, "dt": 0.02})")) == "solver.dt: duplicate key");
}

TEST_CASE("ring radii") {
  const auto ring = parse_scenario(
      R"({"version": 1, "mesh": {"type": "ring", "radius": 0.15, "inner_radius": 0.09}})");
  REQUIRE_MESSAGE(ring.ok(), ring.error);
  const auto& d = std::get<tela::DiscMeshDesc>(ring.value->mesh);
  CHECK(d.ring);
  CHECK(d.inner_radius == 0.09);
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "ring"}})"),
                 "mesh.inner_radius: required"));
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "ring", "radius": 0.1, "inner_radius": 0.2}})") ==
        "mesh.inner_radius: must be < 0.1 (got 0.2)");
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "ring", "inner_radius": 0.1, "rings": 1}})") ==
        "mesh.rings: must be >= 2 (got 1)");
  CHECK(error_of(R"({"version": 1, "mesh": {"type": "ring", "inner_radius": 0}})") ==
        "mesh.inner_radius: must be > 0 (got 0)");
  const auto disc = parse_scenario(R"({"version": 1, "mesh": {"type": "disc"}})");
  REQUIRE(disc.ok());
  CHECK_FALSE(std::get<tela::DiscMeshDesc>(disc.value->mesh).ring);
}

TEST_CASE("explicit meshes: both vertex forms, index validation") {
  const std::string grid_vertices =  // 12 vertices, a 4 x 3 grid
      "[0,0,0, 1,0,0, 2,0,0, 3,0,0, 0,1,0, 1,1,0, 2,1,0, 3,1,0, 0,2,0, 1,2,0, 2,2,0, 3,2,0]";
  auto mesh = [&](const std::string& faces) {
    return R"({"version": 1, "mesh": {"type": "mesh", "vertices": )" + grid_vertices +
           R"(, "faces": )" + faces + "}}";
  };
  const auto flat = parse_scenario(mesh("[[0, 1, 5, 4], [1, 2, 6], [4, 5, 9, 8], [5, 6, 10]]"));
  REQUIRE_MESSAGE(flat.ok(), flat.error);
  const auto& e = std::get<tela::ExplicitMeshDesc>(flat.value->mesh);
  CHECK(e.vertices.size() == 36);
  CHECK(e.faces.size() == 4);
  CHECK(e.faces[1] == std::vector<int>{1, 2, 6});

  const auto triples = parse_scenario(
      R"({"version": 1, "mesh": {"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0.5]],
          "faces": [[0, 1, 2]]}})");
  REQUIRE_MESSAGE(triples.ok(), triples.error);
  CHECK(std::get<tela::ExplicitMeshDesc>(triples.value->mesh).vertices ==
        std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0.5});

  CHECK(error_of(mesh("[[0, 1, 5, 4], [1, 2, 6], [4, 5, 9, 8], [5, 99, 10]]")) ==
        "mesh.faces[3][1]: node index 99 out of range (12 vertices)");
  CHECK(error_of(mesh("[]")) == "mesh.faces: must have at least one face");
  CHECK(error_of(mesh("[[0, 1, -1]]")) == "mesh.faces[0][2]: must be >= 0 (got -1)");
  CHECK(contains(error_of(mesh("[[0, 1, 1]]")), "mesh.faces[0][2]: node index 1 repeated"));
  CHECK(contains(error_of(mesh("[[0, 1]]")), "mesh.faces[0]: must have 3 or 4 node indices"));
  CHECK(contains(error_of(mesh("[[0, 1, 2.5]]")), "mesh.faces[0][2]: must be an integer"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "mesh", "vertices": [0, 0, 0, 1, 0],
                              "faces": [[0, 1, 2]]}})"),
                 "mesh.vertices: a flat list needs 3 numbers per vertex"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "mesh", "vertices": [0, 0, 0, 1, 0, 0],
                              "faces": [[0, 1, 0]]}})"),
                 "mesh.vertices: must have at least 3 vertices"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "mesh", "vertices": [[0, 0, 0], 1],
                              "faces": [[0, 1, 2]]}})"),
                 "mesh.vertices[1]: must be an array of 3 numbers"));
  CHECK(contains(error_of(R"({"version": 1, "mesh": {"type": "mesh", "faces": [[0, 1, 2]]}})"),
                 "mesh.vertices: required"));

  // control indices are checked when the mesh fixes the node count
  const std::string held = R"({"version": 1, "mesh": {"type": "mesh", "vertices": )" +
                           grid_vertices + R"(, "faces": [[0, 1, 5, 4]]}, "controls": [{"nodes": [0, 12]}]})";
  CHECK(error_of(held) == "controls[0].nodes[1]: node index 12 out of range (12 nodes)");
  CHECK(error_of(with(R"("controls": [{"nodes": [11, 12]}])")) ==
        "controls[0].nodes[1]: node index 12 out of range (12 nodes)");
}

TEST_CASE("node selectors: names, indices, and set:i,j,k") {
  const auto ok = parse_scenario(with(R"("controls": [{"nodes": "corners:0,1,3"},
                                                       {"nodes": "my set"}, {"nodes": [3]}])"));
  REQUIRE_MESSAGE(ok.ok(), ok.error);
  CHECK(ok.value->controls[0].nodes.name == "corners:0,1,3");
  CHECK(ok.value->controls[0].nodes.indices.empty());
  for (const char* bad : {"corners:", ":1", "corners:a", "corners:0,,1", "corners:1,",
                          "corners: 1", "corners:-1", "corners:1:2", "corners:12345678901"}) {
    CAPTURE(bad);
    CHECK(contains(error_of(with(std::string(R"("controls": [{"nodes": ")") + bad + "\"}]")),
                   "controls[0].nodes: a node-set element list is written"));
  }
  CHECK(contains(error_of(with(R"("controls": [{"nodes": ""}])")), "controls[0].nodes: node-set"));
  CHECK(contains(error_of(with(R"("controls": [{"nodes": []}])")),
                 "controls[0].nodes: must select at least one node"));
  CHECK(error_of(with(R"("controls": [{"nodes": [0, -2]}])")) ==
        "controls[0].nodes[1]: must be >= 0 (got -2)");
  CHECK(contains(error_of(with(R"("controls": [{"nodes": 3}])")),
                 "controls[0].nodes: must be a node-set name or an array of node indices"));
  CHECK(contains(error_of(with(R"("controls": [{"motion": {"type": "hold"}}])")),
                 "controls[0].nodes: required"));
}

TEST_CASE("motions: sinusoid and keyframes validation") {
  const auto frames = parse_scenario(with(R"("controls": [{"nodes": "corners", "motion":
      {"type": "keyframes", "keyframes": [{"time": 0, "offset": [0, 0, 0]},
                                          {"time": 1.5, "offset": [0, 0.1, 0]}]}}])"));
  REQUIRE_MESSAGE(frames.ok(), frames.error);
  REQUIRE(frames.value->controls[0].motion.keyframes.size() == 2);
  CHECK(frames.value->controls[0].motion.keyframes[1].time == 1.5);
  CHECK(frames.value->controls[0].motion.keyframes[1].offset == Eigen::Vector3d(0, 0.1, 0));

  CHECK(contains(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "keyframes",
      "keyframes": [{"time": 1, "offset": [0, 0, 0]}, {"time": 1, "offset": [0, 0, 1]}]}}])")),
                 "controls[0].motion.keyframes[1].time: keyframe times must be strictly increasing"));
  CHECK(contains(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "keyframes",
      "keyframes": []}}])")),
                 "controls[0].motion.keyframes: must have at least one keyframe"));
  CHECK(contains(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "keyframes"}}])")),
                 "controls[0].motion.keyframes: required"));
  CHECK(contains(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "keyframes",
      "keyframes": [{"time": 0, "offset": [0, 0, 0], "speed": 1}]}}])")),
                 "controls[0].motion.keyframes[0].speed: unknown key"));
  CHECK(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "sinusoid",
      "axis": [0, 0, 0]}}])")) == "controls[0].motion.axis: must be non-zero");
  CHECK(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "sinusoid",
      "start": 2, "stop": 1}}])")) == "controls[0].motion.stop: must be > start (2) (got 1)");
  CHECK(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "sinusoid",
      "frequency": -1}}])")) == "controls[0].motion.frequency: must be >= 0 (got -1)");
  CHECK(contains(error_of(with(R"("controls": [{"nodes": "corners", "motion": {"type": "spin"}}])")),
                 "controls[0].motion.type: must be one of hold, sinusoid, keyframes"));
  // the axis is stored as given, not normalized
  const auto axis = parse_scenario(with(R"("controls": [{"nodes": "corners", "motion":
      {"type": "sinusoid", "axis": [0, 2, 0]}}])"));
  REQUIRE(axis.ok());
  CHECK(axis.value->controls[0].motion.axis == Eigen::Vector3d(0, 2, 0));
}

TEST_CASE("contact sections: the empty and disabled forms parse as before") {
  CHECK(parse_scenario(with(R"("obstacles": [],
        "self_collision": {"enabled": false, "thickness": 0.003, "mu": 0.3})")).ok());
  CHECK(parse_scenario(with(
      R"("obstacles": [{"type": "plane", "point": [0, 0, 0], "normal": [0, 0, 1], "mu": 0.4}])")).ok());
  CHECK(parse_scenario(with(R"("self_collision": {"enabled": true})")).ok());
  CHECK(contains(error_of(with(R"("self_collision": {"enabled": 0})")),
                 "self_collision.enabled: must be true or false"));
  CHECK(contains(error_of(with(R"("self_collision": {"enabled": false, "radius": 1})")),
                 "self_collision.radius: unknown key"));
  CHECK(contains(error_of(with(R"("obstacles": {})")), "obstacles: must be an array"));
}

TEST_CASE("scenario_to_json round-trips every field exactly") {
  tela::Scenario s;
  s.name = "round trip \"quoted\" \xc3\xa9";
  s.description = "line one\nline two";
  tela::ExplicitMeshDesc mesh;
  mesh.vertices = {0.1, 0.2, 0.30000000000000004, 1.0 / 3.0, -0.0, 1e-310, 2, 3, 4, 5, 6, 7};
  mesh.faces = {{0, 1, 2, 3}, {0, 2, 3}};
  s.mesh = mesh;
  s.material = tela::Material{0.1 + 0.2, 0.087, std::sqrt(2.0), 1e-9, 0.5, 0.25};
  s.solver = tela::SolverSettings{1.0 / 300.0, 1e-6, 123};
  s.duration = 3599.999;
  tela::Control sinusoid;
  sinusoid.nodes.indices = {0, 3};
  sinusoid.motion.type = "sinusoid";
  sinusoid.motion.axis = Eigen::Vector3d(0.1, -0.7, 3.0);
  sinusoid.motion.amplitude = -0.075;
  sinusoid.motion.frequency = 0.6;
  sinusoid.motion.phase = 3.14159265358979323846 / 2;
  sinusoid.motion.start = -1.0;
  sinusoid.motion.stop = 11.0;
  tela::Control keyframes;
  keyframes.nodes.name = "corners:1";
  keyframes.motion.type = "keyframes";
  keyframes.motion.keyframes = {{0.0, Eigen::Vector3d(0, 0, 0)}, {0.1, Eigen::Vector3d(1e-3, 2, -3)}};
  keyframes.release = 0.1 + 0.2;
  tela::Control held;
  held.nodes.name = "boundary";
  s.controls = {sinusoid, keyframes, held};
  s.metrics = {"free_corner", "drape_coefficient"};
  s.seed = 18446744073709551615ull;

  const std::string text = scenario_to_json(s);
  const auto back = parse_scenario(text);
  REQUIRE_MESSAGE(back.ok(), back.error);
  CHECK(scenario_to_json(*back.value) == text);
  const tela::Scenario& r = *back.value;
  CHECK(r.name == s.name);
  CHECK(r.description == s.description);
  CHECK(std::get<tela::ExplicitMeshDesc>(r.mesh).vertices == mesh.vertices);
  CHECK(std::signbit(std::get<tela::ExplicitMeshDesc>(r.mesh).vertices[4]));
  CHECK(std::get<tela::ExplicitMeshDesc>(r.mesh).faces == mesh.faces);
  CHECK(r.material.rho == s.material.rho);
  CHECK(r.material.alpha == s.material.alpha);
  CHECK(r.solver.dt == s.solver.dt);
  CHECK(r.solver.max_iterations == 123);
  CHECK(r.duration == s.duration);
  CHECK(r.controls[0].nodes.indices == sinusoid.nodes.indices);
  CHECK(r.controls[0].motion.axis == sinusoid.motion.axis);
  CHECK(r.controls[0].motion.phase == sinusoid.motion.phase);
  CHECK(r.controls[0].motion.stop == 11.0);
  CHECK(r.controls[1].nodes.name == "corners:1");
  CHECK(r.controls[1].motion.keyframes[1].offset == keyframes.motion.keyframes[1].offset);
  CHECK(r.controls[1].release == keyframes.release);
  CHECK(r.controls[2].motion.type == "hold");
  CHECK(std::isinf(r.controls[2].release));  // never released: omitted, restored as infinity
  CHECK(text.find("\"release\"") == text.rfind("\"release\""));
  CHECK(r.metrics == s.metrics);
  CHECK(r.seed == s.seed);

  // compact output parses to the same scenario
  const auto compact = parse_scenario(scenario_to_json(s, -1));
  REQUIRE(compact.ok());
  CHECK(scenario_to_json(*compact.value) == text);
}

TEST_CASE("the default stop (never) is omitted and restored") {
  tela::Scenario s;
  tela::Control c;
  c.nodes.name = "top_corners";
  c.motion.type = "sinusoid";
  c.motion.amplitude = 0.1;
  s.controls = {c};
  const std::string text = scenario_to_json(s);
  CHECK_FALSE(contains(text, "\"stop\""));
  const auto back = parse_scenario(text);
  REQUIRE(back.ok());
  CHECK(back.value->controls[0].motion.stop == 1e300);
  CHECK(scenario_to_json(*back.value) == text);
}

TEST_CASE("rectangle and ring descriptions round-trip") {
  for (const char* text :
       {R"({"version": 1, "mesh": {"type": "rectangle", "width": 0.297, "height": 0.42,
            "nx": 22, "ny": 22, "elements": "tri_irregular", "nodes": 472, "plane": "yz",
            "origin": [-0.1485, 1e-17, 1.0], "noise": 0.003}})",
        R"({"version": 1, "mesh": {"type": "ring", "radius": 0.15, "inner_radius": 0.09,
            "rings": 8, "sectors": 96, "plane": "xz", "center": [0, 0, 0.5], "noise": 0.0005}})",
        R"({"version": 1, "mesh": {"type": "disc", "radius": 0.2, "rings": 3, "sectors": 12}})"}) {
    CAPTURE(text);
    const auto first = parse_scenario(text);
    REQUIRE_MESSAGE(first.ok(), first.error);
    const std::string once = scenario_to_json(*first.value);
    const auto second = parse_scenario(once);
    REQUIRE_MESSAGE(second.ok(), second.error);
    CHECK(scenario_to_json(*second.value) == once);
  }
}

TEST_CASE("malformed input never throws: every truncation and byte flip of a scene") {
  tela::Scenario s;
  tela::Control c;
  c.nodes.indices = {0, 1};
  c.motion.type = "keyframes";
  c.motion.keyframes = {{0.0, Eigen::Vector3d(0, 0, 0)}, {1.0, Eigen::Vector3d(0, 0, 1)}};
  s.controls = {c};
  s.metrics = {"free_corner"};
  const std::string text = scenario_to_json(s, -1);
  int failures = 0;
  for (std::size_t n = 0; n < text.size(); ++n) {
    tela::Result<tela::Scenario> result;
    CHECK_NOTHROW(result = parse_scenario(text.substr(0, n)));
    CHECK_FALSE(result.ok());
    CHECK_FALSE(result.error.empty());
    for (const char replacement : {'x', '"', ']', '}', '-', '9', '\0', '\xff'}) {
      std::string flipped = text;
      flipped[n] = replacement;
      tela::Result<tela::Scenario> r;
      CHECK_NOTHROW(r = parse_scenario(flipped));
      CHECK(r.ok() != !r.error.empty());
      failures += r.ok() ? 0 : 1;
    }
  }
  CHECK(failures > 0);
}
