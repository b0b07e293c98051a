// The compile step, spec -> model (as MuJoCo's mjSpec -> mjModel): the scenario's file-format
// structs (scenario/scenario.h) become the runtime types of the cloth and its contacts: the
// mesh, the material and step settings (cloth/), control tracks with their nodes resolved,
// obstacles with their shape as a variant and contact settings (contact/). Kinds become enums
// and variants: nothing after this step compares a string. Errors name the scenario field
// (e.g. "controls[1].nodes: ...").
#pragma once

#include "base/result.h"
#include "cloth/controls.h"
#include "cloth/material.h"
#include "cloth/step_settings.h"
#include "contact/contact_settings.h"
#include "contact/obstacles/obstacle.h"
#include "geometry/mesh.h"
#include "geometry/motion.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tela {

// Practical limits, so that absurd input ends in a message rather than an endless run: the
// scenario file (duration / solver.dt) and the CLI's --steps / --every share the step cap.
constexpr long kMaxSimulationSteps = 1000000;
constexpr int kMaxSimulationNodes = 20000;

struct CompiledScenario {
  Mesh mesh;                         // at rest (t = 0)
  ClothMaterial material;
  StepSettings solver;
  std::vector<ControlTrack> tracks;  // scenario.controls in order
  std::vector<int> controlled;       // the tracks' nodes, ascending (each driven by one control)
  std::vector<Obstacle> obstacles;   // scenario.obstacles in order
  ContactSettings contact;           // scenario.self_collision
};

// The whole scenario, checked as a run needs it: the mesh builds, every control selects
// nodes no other control drives, the metrics fit the mesh, the run stays within the limits
// above, a self-colliding cloth is thinner than half its shortest edge, and no node starts
// inside an obstacle.
Result<CompiledScenario> compile_scenario(const Scenario& scenario);

// The pieces, also for callers that build a run without a whole scenario (the fit, the
// synthetic recordings, the page's obstacle view).
Result<Mesh> compile_mesh(const MeshDesc& desc, std::uint64_t seed);
ClothMaterial compile_material(const Material& material);
StepSettings compile_solver(const SolverSettings& solver);
PrescribedMotion compile_motion(const Motion& motion);
RigidMotion compile_rigid_motion(const ObstacleMotion& motion);
Obstacle compile_obstacle(const ObstacleDesc& obstacle);
std::vector<Obstacle> compile_obstacles(const std::vector<ObstacleDesc>& obstacles);
ContactSettings compile_contact(const SelfCollision& self);

// Node indices of a selector on `mesh`: explicit indices, a node-set name ("top_corners"),
// or "set:i,j" (elements i, j of a node set). `field` names the selector in messages.
Result<std::vector<int>> resolve_selector(const Mesh& mesh, const NodeSelector& selector, const std::string& field);

}  // namespace tela
