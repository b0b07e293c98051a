#include "scenario/scene_parts.h"

namespace tela {

Control hold(const std::string& node_set) {
  Control control;
  control.nodes.name = node_set;
  control.motion.type = "hold";
  return control;
}

Control keyframed(const std::string& node_set, const std::vector<Keyframe>& keys) {
  Control control;
  control.nodes.name = node_set;
  control.motion.type = "keyframes";
  control.motion.keyframes = keys;
  return control;
}

Scenario a2_wool_sheet(int nx, int ny, const std::string& plane, const Eigen::Vector3d& origin) {
  Scenario s;
  RectangleMeshDesc mesh;
  mesh.width = 0.42;
  mesh.height = 0.594;
  mesh.nx = nx;
  mesh.ny = ny;
  mesh.elements = "quad";
  mesh.plane = plane;
  mesh.origin = origin;
  mesh.noise = 0.0005;
  s.mesh = mesh;
  s.material = Material{0.1804, 0.087, 0.35, 0.0, 0.0, 0.0};
  s.solver = SolverSettings{0.01, 1e-3, 50};
  return s;
}

}  // namespace tela
