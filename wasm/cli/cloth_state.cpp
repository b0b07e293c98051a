#include "cloth_state.h"

#include "cli.h"
#include "dgli/cloth_state_input.h"
#include "sim/simulation.h"

namespace tela::cli {

Result<BoundaryCurve> load_cloth_state(const ClothStateSource& source, std::string& kind) {
  using R = Result<BoundaryCurve>;
  Result<std::string> text = read_file(source.path);
  if (!text.ok()) return R::failure(text.error);
  const std::string& content = *text.value;
  auto ends_with = [&](const std::string& suffix) {
    return source.path.size() >= suffix.size() &&
           source.path.compare(source.path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".obj") || ends_with(".OBJ")) {
    kind = "obj";
    Result<Mesh> mesh = parse_obj_mesh(content);
    if (!mesh.ok()) return R::failure(source.path + ": " + mesh.error);
    Result<BoundaryCurve> curve = mesh_boundary(*mesh.value, mesh.value->positions);
    if (!curve.ok()) return R::failure(source.path + ": " + curve.error);
    return curve;
  }
  if (content.rfind("frame,", 0) == 0) {
    kind = "trajectory";
    if (source.frame < 0) return R::failure(source.path + ": a trajectory CSV needs --frame K");
    if (source.scenario.empty())
      return R::failure(source.path + ": a trajectory CSV needs --scenario FILE|NAME (the mesh it was simulated on)");
    Result<Scenario> scenario = load_scenario(source.scenario);
    if (!scenario.ok()) return R::failure(scenario.error);
    Result<Simulation> sim = Simulation::create(*scenario.value);
    if (!sim.ok()) return R::failure(source.scenario + ": " + sim.error);
    const Mesh& mesh = sim.value->mesh();
    Result<Positions> positions = parse_trajectory_frame(content, source.frame, mesh.node_count());
    if (!positions.ok()) return R::failure(source.path + ": " + positions.error);
    Result<BoundaryCurve> curve = mesh_boundary(mesh, *positions.value);
    if (!curve.ok()) return R::failure(source.path + ": " + curve.error);
    return curve;
  }
  kind = "boundary_csv";
  if (source.frame >= 0) return R::failure("--frame: only for trajectory CSV files (header frame,time,node,x,y,z)");
  Result<Positions> points = parse_boundary_csv(content);
  if (!points.ok()) return R::failure(source.path + ": " + points.error);
  Result<BoundaryCurve> curve = polyline_boundary(*points.value);
  if (!curve.ok()) return R::failure(source.path + ": " + curve.error);
  return curve;
}

}  // namespace tela::cli
