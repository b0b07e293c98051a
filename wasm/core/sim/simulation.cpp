#include "sim/simulation.h"

#include "cloth/controls.h"
#include "cloth/metrics.h"
#include "contact/obstacles/obstacle.h"
#include "geometry/generators.h"
#include "geometry/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

namespace tela {
namespace {

// "3.2 mm", "1.5e+300 mm": %f wrote a 300-digit number for an obstacle of absurd size
std::string format_length_mm(double metres) {
  char text[48];
  std::snprintf(text, sizeof text, "%.3g mm", metres * 1000);
  return text;
}

MeshPlane plane_of(const std::string& name) {
  if (name == "xz") return MeshPlane::xz;
  if (name == "yz") return MeshPlane::yz;
  return MeshPlane::xy;
}

Result<Mesh> build_mesh(const MeshDesc& desc, std::uint64_t seed) {
  if (const auto* r = std::get_if<RectangleMeshDesc>(&desc)) {
    RectangleSpec spec;
    spec.width = r->width;
    spec.height = r->height;
    spec.nx = r->nx;
    spec.ny = r->ny;
    spec.elements = r->elements == "tri"             ? ElementKind::tri_right
                    : r->elements == "tri_left"      ? ElementKind::tri_left
                    : r->elements == "tri_irregular" ? ElementKind::tri_irregular
                                                     : ElementKind::quad;
    spec.irregular_nodes = r->nodes;
    spec.plane = plane_of(r->plane);
    spec.origin = r->origin;
    spec.noise = r->noise;
    spec.seed = seed;
    return Result<Mesh>::success(make_rectangle(spec));
  }
  if (const auto* d = std::get_if<DiscMeshDesc>(&desc)) {
    DiscSpec spec;
    spec.radius = d->radius;
    spec.inner_radius = d->ring ? d->inner_radius : 0.0;
    spec.rings = d->rings;
    spec.sectors = d->sectors;
    spec.plane = plane_of(d->plane);
    spec.center = d->center;
    spec.noise = d->noise;
    spec.seed = seed;
    return Result<Mesh>::success(make_disc(spec));
  }
  const auto& e = std::get<ExplicitMeshDesc>(desc);
  Mesh mesh;
  const int n = static_cast<int>(e.vertices.size() / 3);
  mesh.positions.resize(n, 3);
  for (int k = 0; k < n; ++k)
    for (int c = 0; c < 3; ++c) mesh.positions(k, c) = e.vertices[3 * k + c];
  for (std::size_t f = 0; f < e.faces.size(); ++f) {
    Face face;
    for (std::size_t i = 0; i < e.faces[f].size() && i < 4; ++i) face.v[i] = e.faces[f][i];
    mesh.faces.push_back(face);
  }
  const BoundaryLoops loops = boundary_loops(mesh);
  if (!loops.ok) return Result<Mesh>::failure("mesh.faces: " + loops.message);
  std::vector<int> boundary;
  for (const auto& loop : loops.loops) boundary.insert(boundary.end(), loop.begin(), loop.end());
  mesh.node_sets["boundary"] = boundary;
  mesh.node_sets["corners"] = corner_nodes(mesh);
  return Result<Mesh>::success(std::move(mesh));
}

// The runner's pieces of a scenario; errors name the scenario field.
Result<RunPieces> run_pieces(const Scenario& scenario) {
  using R = Result<RunPieces>;
  Result<Mesh> mesh = build_mesh(scenario.mesh, scenario.seed);
  if (!mesh.ok()) return R::failure(mesh.error);

  std::vector<ControlTrack> tracks;
  std::set<int> controlled;
  for (std::size_t c = 0; c < scenario.controls.size(); ++c) {
    const std::string field = "controls[" + std::to_string(c) + "].nodes";
    Result<std::vector<int>> nodes = resolve_selector(*mesh.value, scenario.controls[c].nodes, field);
    if (!nodes.ok()) return R::failure(nodes.error);
    for (int k : *nodes.value)
      if (!controlled.insert(k).second)
        return R::failure(field + ": node " + std::to_string(k) + " is already driven by another control");
    tracks.push_back({*nodes.value, scenario.controls[c].motion, scenario.controls[c].release});
  }
  for (const std::string& metric : scenario.metrics) {
    if (metric == "drape_coefficient" && !mesh.value->node_sets.count("inner_boundary"))
      return R::failure("metrics: drape_coefficient needs a ring mesh (its inner boundary is the table edge)");
    if (metric == "free_corner" && !mesh.value->node_sets.count("corners"))
      return R::failure("metrics: free_corner needs a mesh with corners");
  }

  if (mesh.value->node_count() > kMaxSimulationNodes)
    return R::failure("mesh: " + std::to_string(mesh.value->node_count()) + " nodes is more than tela simulates (" +
                      std::to_string(kMaxSimulationNodes) + ")");
  if (scenario.duration / scenario.solver.dt > static_cast<double>(kMaxSimulationSteps))
    return R::failure("duration: duration / solver.dt asks for more than 1,000,000 steps; shorten the run or "
                      "use a larger solver.dt");

  // positions in metres: a sheet 1e300 m high overflowed into "no face of positive area"
  constexpr double kMaxCoordinate = 1e4;  // m
  for (int k = 0; k < mesh.value->node_count(); ++k)
    if (!(mesh.value->positions.row(k).cwiseAbs().maxCoeff() <= kMaxCoordinate))
      return R::failure("mesh: node " + std::to_string(k) + " lies more than 10 km from the origin; sizes and "
                        "positions are in metres");
  if (scenario.self_collision.enabled) {
    // at rest, nodes one edge apart closer than the thickness press on each other: a napkin
    // 20 x 20 ran at 75 projection iterations per step with half its spacing, diverged at 0.9
    double shortest = std::numeric_limits<double>::infinity();
    for (const Face& f : mesh.value->faces)
      for (int i = 0; i < f.size(); ++i)
        shortest = std::min(shortest, (mesh.value->positions.row(f.v[i]) -
                                       mesh.value->positions.row(f.v[(i + 1) % f.size()])).norm());
    if (scenario.self_collision.thickness >= 0.5 * shortest)
      return R::failure("self_collision.thickness: " + format_length_mm(scenario.self_collision.thickness) +
                        " is not below half the mesh's shortest edge (" + format_length_mm(shortest) +
                        "): at rest the cloth would touch itself; use a thinner cloth or a coarser mesh");
  }

  Result<std::shared_ptr<const ClothModel>> model =
      build_model(*mesh.value, scenario.material, scenario.solver,
                  std::vector<int>(controlled.begin(), controlled.end()));
  if (!model.ok()) return R::failure(model.error);

  // contacts: a cloth that starts inside an obstacle is an input error (within the clearance
  // tau0 / 2 but outside is fine: the first step pushes it out)
  for (std::size_t i = 0; i < scenario.obstacles.size(); ++i)
    for (int k = 0; k < mesh.value->node_count(); ++k) {
      const double d = obstacle_closest_at(scenario.obstacles[i], 0.0, mesh.value->positions.row(k).transpose()).distance;
      if (d < 0)
        return R::failure("obstacles[" + std::to_string(i) + "]: the cloth starts inside this " +
                          scenario.obstacles[i].type + " (node " + std::to_string(k) + " is " +
                          format_length_mm(-d) + " inside its surface); move the cloth or the obstacle");
    }
  RunPieces pieces;
  pieces.mesh = std::make_shared<const Mesh>(std::move(*mesh.value));
  pieces.model = *model.value;
  pieces.tracks = std::move(tracks);
  pieces.obstacles = scenario.obstacles;
  pieces.self_collision = scenario.self_collision;
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
