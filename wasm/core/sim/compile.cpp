#include "sim/compile.h"

#include "geometry/generators.h"
#include "geometry/topology.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>

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

ObstacleShape shape_of(const ObstacleDesc& o) {
  if (o.type == "plane") return Plane{o.point, o.normal};
  if (o.type == "box") return Box{o.center, o.size};
  if (o.type == "sphere") return Sphere{o.center, o.radius};
  if (o.type == "cylinder") return Cylinder{o.center, o.axis, o.radius, o.length};
  if (o.type == "needles") return NeedleField{o.center, o.spacing, o.count_x, o.count_y, o.c1, o.c2};
  return Stick{o.points, o.radius, o.segment};
}

}  // namespace

Result<Mesh> compile_mesh(const MeshDesc& desc, std::uint64_t seed) {
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

ClothMaterial compile_material(const Material& m) {
  return ClothMaterial{m.rho, m.delta, m.alpha, m.kappa, m.beta, m.shear};
}

StepSettings compile_solver(const SolverSettings& s) {
  return StepSettings{s.dt, s.tolerance, s.max_iterations, s.max_substeps, s.strain_limit};
}

PrescribedMotion compile_motion(const Motion& motion) {
  PrescribedMotion out;
  out.kind = motion.type == "sinusoid"    ? MotionKind::sinusoid
             : motion.type == "keyframes" ? MotionKind::keyframes
                                          : MotionKind::hold;
  out.axis = motion.axis;
  out.amplitude = motion.amplitude;
  out.frequency = motion.frequency;
  out.phase = motion.phase;
  out.start = motion.start;
  out.stop = motion.stop;
  for (const Keyframe& k : motion.keyframes) out.keyframes.push_back({k.time, k.offset});
  return out;
}

RigidMotion compile_rigid_motion(const ObstacleMotion& motion) {
  RigidMotion out;
  out.translation = compile_motion(motion.translation);
  out.rotation_axis = motion.rotation_axis;
  out.pivot = motion.pivot;
  out.angular_velocity = motion.angular_velocity;
  out.rotation_start = motion.rotation_start;
  out.rotation_stop = motion.rotation_stop;
  return out;
}

Obstacle compile_obstacle(const ObstacleDesc& obstacle) {
  return Obstacle{shape_of(obstacle), obstacle.mu, compile_rigid_motion(obstacle.motion)};
}

std::vector<Obstacle> compile_obstacles(const std::vector<ObstacleDesc>& obstacles) {
  std::vector<Obstacle> out;
  for (const ObstacleDesc& o : obstacles) out.push_back(compile_obstacle(o));
  return out;
}

ContactSettings compile_contact(const SelfCollision& self) {
  return ContactSettings{self.thickness, self.proximity, self.enabled, self.mu};
}

Result<std::vector<int>> resolve_selector(const Mesh& mesh, const NodeSelector& selector, const std::string& field) {
  using R = Result<std::vector<int>>;
  const int n = mesh.node_count();
  if (selector.name.empty()) {
    if (selector.indices.empty()) return R::failure(field + ": selects no node");
    for (std::size_t i = 0; i < selector.indices.size(); ++i) {
      const int k = selector.indices[i];
      if (k < 0 || k >= n)
        return R::failure(field + "[" + std::to_string(i) + "]: node index " + std::to_string(k) +
                          " out of range (the mesh has " + std::to_string(n) + " nodes)");
    }
    return R::success(selector.indices);
  }
  // "set" or "set:i,j,k"
  const std::size_t colon = selector.name.find(':');
  const std::string set_name = selector.name.substr(0, colon);
  const auto it = mesh.node_sets.find(set_name);
  if (it == mesh.node_sets.end()) {
    std::string known;
    for (const auto& entry : mesh.node_sets) known += (known.empty() ? "" : ", ") + entry.first;
    return R::failure(field + ": this mesh has no node set '" + set_name + "' (it has: " + known + ")");
  }
  if (colon == std::string::npos) return R::success(it->second);
  std::vector<int> out;
  std::stringstream items(selector.name.substr(colon + 1));
  std::string item;
  while (std::getline(items, item, ',')) {
    char* end = nullptr;
    const long i = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || i < 0 || i >= static_cast<long>(it->second.size()))
      return R::failure(field + ": '" + item + "' is not an element of node set '" + set_name +
                        "' (it has " + std::to_string(it->second.size()) + " nodes)");
    out.push_back(it->second[i]);
  }
  return R::success(out);
}

Result<CompiledScenario> compile_scenario(const Scenario& scenario) {
  using R = Result<CompiledScenario>;
  Result<Mesh> built = compile_mesh(scenario.mesh, scenario.seed);
  if (!built.ok()) return R::failure(built.error);
  CompiledScenario out;
  out.mesh = std::move(*built.value);
  const Mesh& mesh = out.mesh;

  std::set<int> controlled;
  for (std::size_t c = 0; c < scenario.controls.size(); ++c) {
    const std::string field = "controls[" + std::to_string(c) + "].nodes";
    Result<std::vector<int>> nodes = resolve_selector(mesh, scenario.controls[c].nodes, field);
    if (!nodes.ok()) return R::failure(nodes.error);
    for (int k : *nodes.value)
      if (!controlled.insert(k).second)
        return R::failure(field + ": node " + std::to_string(k) + " is already driven by another control");
    out.tracks.push_back({*nodes.value, compile_motion(scenario.controls[c].motion), scenario.controls[c].release});
  }
  out.controlled.assign(controlled.begin(), controlled.end());
  for (const std::string& metric : scenario.metrics) {
    if (metric == "drape_coefficient" && !mesh.node_sets.count("inner_boundary"))
      return R::failure("metrics: drape_coefficient needs a ring mesh (its inner boundary is the table edge)");
    if (metric == "free_corner" && !mesh.node_sets.count("corners"))
      return R::failure("metrics: free_corner needs a mesh with corners");
  }

  if (mesh.node_count() > kMaxSimulationNodes)
    return R::failure("mesh: " + std::to_string(mesh.node_count()) + " nodes is more than tela simulates (" +
                      std::to_string(kMaxSimulationNodes) + ")");
  if (scenario.duration / scenario.solver.dt > static_cast<double>(kMaxSimulationSteps))
    return R::failure("duration: duration / solver.dt asks for more than 1,000,000 steps; shorten the run or "
                      "use a larger solver.dt");

  // positions in metres: a sheet 1e300 m high overflowed into "no face of positive area"
  constexpr double kMaxCoordinate = 1e4;  // m
  for (int k = 0; k < mesh.node_count(); ++k)
    if (!(mesh.positions.row(k).cwiseAbs().maxCoeff() <= kMaxCoordinate))
      return R::failure("mesh: node " + std::to_string(k) + " lies more than 10 km from the origin; sizes and "
                        "positions are in metres");
  if (scenario.self_collision.enabled) {
    // at rest, nodes one edge apart closer than the thickness press on each other: a napkin
    // 20 x 20 ran at 75 projection iterations per step with half its spacing, diverged at 0.9
    double shortest = std::numeric_limits<double>::infinity();
    for (const Face& f : mesh.faces)
      for (int i = 0; i < f.size(); ++i)
        shortest = std::min(shortest, (mesh.positions.row(f.v[i]) - mesh.positions.row(f.v[(i + 1) % f.size()])).norm());
    if (scenario.self_collision.thickness >= 0.5 * shortest)
      return R::failure("self_collision.thickness: " + format_length_mm(scenario.self_collision.thickness) +
                        " is not below half the mesh's shortest edge (" + format_length_mm(shortest) +
                        "): at rest the cloth would touch itself; use a thinner cloth or a coarser mesh");
  }

  // a cloth that starts inside an obstacle is an input error (within the clearance tau0 / 2
  // but outside is fine: the first step pushes it out)
  out.obstacles = compile_obstacles(scenario.obstacles);
  for (std::size_t i = 0; i < out.obstacles.size(); ++i)
    for (int k = 0; k < mesh.node_count(); ++k) {
      const double d = obstacle_closest_at(out.obstacles[i], 0.0, mesh.positions.row(k).transpose()).distance;
      if (d < 0)
        return R::failure("obstacles[" + std::to_string(i) + "]: the cloth starts inside this " +
                          scenario.obstacles[i].type + " (node " + std::to_string(k) + " is " +
                          format_length_mm(-d) + " inside its surface); move the cloth or the obstacle");
    }

  out.material = compile_material(scenario.material);
  out.solver = compile_solver(scenario.solver);
  out.contact = compile_contact(scenario.self_collision);
  return R::success(std::move(out));
}

}  // namespace tela
