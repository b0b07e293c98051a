// Scenario -> scenario file version 1, insertion-ordered so that the file reads top-down, and
// pretty-printed with vectors and index lists on one line (base/json_text.h).
#include "scenario/json.h"

#include "base/json_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <utility>

namespace tela {
namespace {

using ordered_json = nlohmann::ordered_json;

ordered_json vec3_json(const Eigen::Vector3d& v) { return ordered_json::array({v.x(), v.y(), v.z()}); }

ordered_json mesh_json(const MeshDesc& mesh) {
  ordered_json m = ordered_json::object();
  if (const auto* r = std::get_if<RectangleMeshDesc>(&mesh)) {
    m["type"] = "rectangle";
    m["width"] = r->width;
    m["height"] = r->height;
    m["nx"] = r->nx;
    m["ny"] = r->ny;
    m["elements"] = r->elements;
    m["nodes"] = r->nodes;
    m["plane"] = r->plane;
    m["origin"] = vec3_json(r->origin);
    m["noise"] = r->noise;
  } else if (const auto* d = std::get_if<DiscMeshDesc>(&mesh)) {
    m["type"] = d->ring ? "ring" : "disc";
    m["radius"] = d->radius;
    if (d->ring) m["inner_radius"] = d->inner_radius;
    m["rings"] = d->rings;
    m["sectors"] = d->sectors;
    m["plane"] = d->plane;
    m["center"] = vec3_json(d->center);
    m["noise"] = d->noise;
  } else if (const auto* e = std::get_if<ExplicitMeshDesc>(&mesh)) {
    m["type"] = "mesh";
    ordered_json vertices = ordered_json::array();
    for (std::size_t i = 0; i + 2 < e->vertices.size(); i += 3) {
      vertices.push_back(ordered_json::array({e->vertices[i], e->vertices[i + 1], e->vertices[i + 2]}));
    }
    m["vertices"] = std::move(vertices);
    m["faces"] = e->faces;
  }
  return m;
}

ordered_json motion_json(const Motion& motion) {
  ordered_json m = ordered_json::object();
  m["type"] = motion.type;
  if (motion.type == "sinusoid") {
    m["axis"] = vec3_json(motion.axis);
    m["amplitude"] = motion.amplitude;
    m["frequency"] = motion.frequency;
    m["phase"] = motion.phase;
    m["start"] = motion.start;
    if (motion.stop != Motion{}.stop) m["stop"] = motion.stop;  // default: never stops
  } else if (motion.type == "keyframes") {
    ordered_json frames = ordered_json::array();
    for (const Keyframe& k : motion.keyframes) {
      ordered_json frame = ordered_json::object();
      frame["time"] = k.time;
      frame["offset"] = vec3_json(k.offset);
      frames.push_back(std::move(frame));
    }
    m["keyframes"] = std::move(frames);
  }
  return m;
}

ordered_json obstacle_json(const ObstacleDesc& o) {
  ordered_json j = ordered_json::object();
  j["type"] = o.type;
  j["mu"] = o.mu;
  if (o.type == "plane") {
    j["point"] = vec3_json(o.point);
    j["normal"] = vec3_json(o.normal);
  } else if (o.type == "box") {
    j["center"] = vec3_json(o.center);
    j["size"] = vec3_json(o.size);
  } else if (o.type == "sphere") {
    j["center"] = vec3_json(o.center);
    j["radius"] = o.radius;
  } else if (o.type == "cylinder") {
    j["center"] = vec3_json(o.center);
    j["axis"] = vec3_json(o.axis);
    j["radius"] = o.radius;
    j["length"] = o.length;
  } else if (o.type == "stick") {
    ordered_json points = ordered_json::array();
    for (const Eigen::Vector3d& p : o.points) points.push_back(vec3_json(p));
    j["points"] = std::move(points);
    j["radius"] = o.radius;
    j["segment"] = o.segment;
  } else {
    j["center"] = vec3_json(o.center);
    j["spacing"] = o.spacing;
    j["count"] = ordered_json::array({o.count_x, o.count_y});
    j["c1"] = o.c1;
    j["c2"] = o.c2;
  }
  const ObstacleMotion& m = o.motion;
  const bool translates = m.translation.type != "hold";
  const bool rotates = m.angular_velocity != 0;
  if (translates || rotates) {
    ordered_json motion = ordered_json::object();
    if (translates) motion["translation"] = motion_json(m.translation);
    if (rotates) {
      ordered_json r = ordered_json::object();
      r["axis"] = vec3_json(m.rotation_axis);
      r["pivot"] = vec3_json(m.pivot);
      r["angular_velocity"] = m.angular_velocity;
      r["start"] = m.rotation_start;
      if (m.rotation_stop != ObstacleMotion{}.rotation_stop) r["stop"] = m.rotation_stop;
      motion["rotation"] = std::move(r);
    }
    j["motion"] = std::move(motion);
  }
  return j;
}

}  // namespace

std::string scenario_to_json(const Scenario& s, int indent) {
  ordered_json j = ordered_json::object();
  j["version"] = s.version;
  j["name"] = s.name;
  j["description"] = s.description;
  j["mesh"] = mesh_json(s.mesh);
  j["material"] = {{"rho", s.material.rho},     {"delta", s.material.delta},
                   {"alpha", s.material.alpha}, {"kappa", s.material.kappa},
                   {"beta", s.material.beta},   {"shear", s.material.shear}};
  j["solver"] = {{"dt", s.solver.dt},
                 {"tolerance", s.solver.tolerance},
                 {"max_iterations", s.solver.max_iterations}};
  if (s.solver.max_substeps != SolverSettings{}.max_substeps) j["solver"]["max_substeps"] = s.solver.max_substeps;
  if (s.solver.strain_limit > 0) j["solver"]["strain_limit"] = s.solver.strain_limit;
  j["duration"] = s.duration;
  ordered_json controls = ordered_json::array();
  for (const Control& c : s.controls) {
    ordered_json control = ordered_json::object();
    if (c.nodes.name.empty()) {
      control["nodes"] = c.nodes.indices;
    } else {
      control["nodes"] = c.nodes.name;
    }
    control["motion"] = motion_json(c.motion);
    if (std::isfinite(c.release)) control["release"] = c.release;
    controls.push_back(std::move(control));
  }
  j["controls"] = std::move(controls);
  j["metrics"] = s.metrics;
  j["seed"] = s.seed;
  // contact sections only when used: a contact-free scenario holds no contact keys
  if (!s.obstacles.empty()) {
    ordered_json obstacles = ordered_json::array();
    for (const ObstacleDesc& o : s.obstacles) obstacles.push_back(obstacle_json(o));
    j["obstacles"] = std::move(obstacles);
  }
  const SelfCollision defaults;
  const SelfCollision& self = s.self_collision;
  if (self.enabled || self.thickness != defaults.thickness || self.mu != defaults.mu ||
      self.proximity != defaults.proximity) {
    j["self_collision"] = {{"enabled", self.enabled},
                           {"thickness", self.thickness},
                           {"mu", self.mu},
                           {"proximity", self.proximity}};
  }
  return indent < 0 ? json_text(j) : json_pretty_text(j, indent);
}

}  // namespace tela
