// Embind layer for drawing a scene's obstacles (contact/obstacles/): their shapes in the body
// frame (the obstacle at t = 0), their rigid pose at a time t from the core's motion model
// (contact/obstacles/rigid_pose.h, so that the page never re-implements the motions). The
// nodes in contact come from Simulation.contactNodes() (bind_sim.cpp). Declarations and
// conversions only; nothing throws.
//
// The page builds one ObstacleView from the scenario JSON the simulation runs
// (Simulation.scenarioJson()) and asks it for the poses at Simulation.time() every frame.
#include "contact/obstacles/rigid_pose.h"
#include "scenario/json.h"
#include "scenario/scenario.h"
#include "sim/compile.h"
#include "js_copy.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

val vec3(const Eigen::Vector3d& v) {
  val out = val::array();
  for (int c = 0; c < 3; ++c) out.call<void>("push", v[c]);
  return out;
}

bool is_moving(const RigidMotion& m) { return m.translation.kind != MotionKind::hold || m.angular_velocity != 0; }

// the shape parameters of one obstacle (body frame, metres, core frame z up); fields by type
// as in scenario.h ObstacleDesc
val shape_js(const ObstacleDesc& o, const RigidMotion& motion) {
  val out = val::object();
  out.set("type", o.type);
  out.set("mu", o.mu);
  out.set("moving", is_moving(motion));
  if (o.type == "plane") {
    out.set("point", vec3(o.point));
    out.set("normal", vec3(o.normal));
  } else if (o.type == "box") {
    out.set("center", vec3(o.center));
    out.set("size", vec3(o.size));
  } else if (o.type == "sphere") {
    out.set("center", vec3(o.center));
    out.set("radius", o.radius);
  } else if (o.type == "cylinder") {
    out.set("center", vec3(o.center));
    out.set("axis", vec3(o.axis));
    out.set("radius", o.radius);
    out.set("length", o.length);  // 0: infinite
  } else if (o.type == "stick") {
    val points = val::array();
    for (const Eigen::Vector3d& p : o.points) points.call<void>("push", vec3(p));
    out.set("points", points);
    out.set("radius", o.radius);
  } else if (o.type == "needles") {
    out.set("center", vec3(o.center));
    out.set("spacing", o.spacing);
    out.set("countX", o.count_x);
    out.set("countY", o.count_y);
    out.set("c1", o.c1);
    out.set("c2", o.c2);
  }
  return out;
}

class ObstacleView {
 public:
  explicit ObstacleView(const std::string& scenario_json) {
    Result<Scenario> scenario = parse_scenario(scenario_json);
    if (!scenario.ok()) {
      error_ = scenario.error;
      return;
    }
    ok_ = true;
    obstacles_ = scenario.value->obstacles;
    for (const ObstacleDesc& o : obstacles_) motions_.push_back(compile_rigid_motion(o.motion));
  }

  bool ok() const { return ok_; }
  std::string error() const { return error_; }
  int count() const { return static_cast<int>(obstacles_.size()); }

  // [{ type, mu, moving, ...shape }] in the body frame
  val shapes() const {
    val out = val::array();
    for (std::size_t i = 0; i < obstacles_.size(); ++i) out.call<void>("push", shape_js(obstacles_[i], motions_[i]));
    return out;
  }

  // #obstacles * 12 doubles: per obstacle the rotation R (row-major 3 x 3) and the
  // translation t of world = R body + t at time t (s), i.e. t = pivot + d(t) - R pivot
  val poses(double time) const {
    std::vector<double> out;
    out.reserve(12 * obstacles_.size());
    for (const RigidMotion& motion : motions_) {
      const RigidPose pose = rigid_pose(motion, time);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) out.push_back(pose.rotation(r, c));
      const Eigen::Vector3d t = pose.to_world(Eigen::Vector3d::Zero());
      for (int c = 0; c < 3; ++c) out.push_back(t[c]);
    }
    return copy_to_js(out);
  }

 private:
  bool ok_ = false;
  std::string error_;
  std::vector<ObstacleDesc> obstacles_;
  std::vector<RigidMotion> motions_;  // compiled (sim/compile.h)
};

// never aborts: check ok() and error() on the result
ObstacleView create_obstacle_view(const std::string& scenario_json) { return ObstacleView(scenario_json); }

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_contact) {
  using namespace emscripten;
  using tela::ObstacleView;

  function("createObstacleView", &tela::create_obstacle_view);

  class_<ObstacleView>("ObstacleView")
      .function("ok", &ObstacleView::ok)
      .function("error", &ObstacleView::error)
      .function("count", &ObstacleView::count)
      .function("shapes", &ObstacleView::shapes)
      .function("poses", &ObstacleView::poses);
}
