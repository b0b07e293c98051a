// Embind layer over sim/simulation.h and the scene library: declarations and conversions
// only. Nothing here throws or aborts: bad input comes back as ok() == false plus a message.
// Bulk data leaves as copies (typed_memory_view(...).slice()), so heap growth never detaches
// an array the page holds. Every SimulationHandle has one JS owner that calls .delete().
#include "cloth/step.h"
#include "geometry/mesh.h"
#include "scenario/json.h"
#include "scenario/scenes.h"
#include "sim/run_summary.h"
#include "sim/simulation.h"
#include "js_copy.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

val scene_names_js() {
  val names = val::array();
  for (const std::string& name : scene_names()) names.call<void>("push", val(name));
  return names;
}

// the scene's scenario JSON, or "" when there is no scene of that name
std::string scene_json(const std::string& name) {
  const std::optional<Scenario> scene = builtin_scene(name);
  return scene ? scenario_to_json(*scene) : std::string();
}

// A simulation, or the message saying why there is none.
class SimulationHandle {
 public:
  explicit SimulationHandle(const std::string& json_text) {
    Result<Scenario> scenario = parse_scenario(json_text);
    if (!scenario.ok()) {
      error_ = scenario.error;
      return;
    }
    Result<Simulation> created = Simulation::create(*scenario.value);
    if (!created.ok()) {
      error_ = created.error;
      return;
    }
    sim_ = std::make_unique<Simulation>(std::move(*created.value));
  }

  bool ok() const { return sim_ != nullptr; }
  std::string error() const { return error_; }

  // advances up to n steps (stops early on failure); returns the last step's status name
  // (cloth/step.h to_string: converged, max_iterations, diverged, non_finite)
  std::string step(int n) {
    if (!sim_) return "no_simulation";
    if (n <= 0) return "none";
    return tela::to_string(sim_->step_n(n));
  }

  double time() const { return sim_ ? sim_->time() : 0.0; }
  double steps() const { return sim_ ? static_cast<double>(sim_->steps_done()) : 0.0; }
  int node_count() const { return sim_ ? sim_->mesh().node_count() : 0; }
  bool failed() const { return sim_ ? sim_->failed() : true; }
  std::string failure_message() const { return sim_ ? sim_->failure_message() : error_; }
  std::string state_hash() const { return sim_ ? sim_->state_hash() : std::string(); }
  // the CLI's `tela simulate` summary (sim/run_summary.h), without wall_ms
  std::string summary() const { return sim_ ? run_summary_json(*sim_) : std::string("{}"); }

  // #nodes*3 xyz triples, metres, core frame (z up); Float32Array copy for rendering
  val positions() const {
    if (!sim_) return val::global("Float32Array").new_(0);
    const Positions& p = sim_->state().positions;
    scratch_f32_.resize(static_cast<std::size_t>(p.size()));
    for (Eigen::Index i = 0; i < p.size(); ++i) scratch_f32_[i] = static_cast<float>(p.data()[i]);
    return copy_to_js(scratch_f32_.size(), scratch_f32_.data());
  }

  // the same at full precision; Float64Array copy for comparisons
  val positions64() const {
    if (!sim_) return val::global("Float64Array").new_(0);
    const Positions& p = sim_->state().positions;
    return copy_to_js(static_cast<std::size_t>(p.size()), p.data());
  }

  // the time step, s
  double dt() const { return sim_ ? sim_->model().solver.dt : 0.0; }

  // the scenario as the core understood it (complete, documented defaults filled in)
  std::string scenario_json() const { return sim_ ? scenario_to_json(sim_->scenario()) : std::string(); }

  // what the last step reported: { status, iterations, substeps, constraintError }, the
  // solver's tolerance, and how many steps of the run so far ended above it
  val last_report() const {
    val out = val::object();
    const StepReport report = sim_ ? sim_->last_report() : StepReport{};
    out.set("status", std::string(sim_ && sim_->steps_done() ? tela::to_string(report.status) : "none"));
    out.set("iterations", report.iterations);
    out.set("substeps", report.substeps);
    out.set("constraintError", report.constraint_error);
    out.set("tolerance", sim_ ? sim_->model().solver.tolerance : 0.0);
    out.set("unconvergedSteps", sim_ ? static_cast<double>(sim_->stats().unconverged_steps) : 0.0);
    return out;
  }

  // #faces*4 node indices, -1 in the fourth slot of a triangle; Int32Array copy
  val faces() const {
    if (!sim_) return val::global("Int32Array").new_(0);
    const std::vector<Face>& faces = sim_->mesh().faces;
    std::vector<std::int32_t> out;
    out.reserve(4 * faces.size());
    for (const Face& f : faces) out.insert(out.end(), f.v.begin(), f.v.end());
    return copy_to_js(out.size(), out.data());
  }

  // #nodes*3 rest positions, metres, core frame; Float64Array copy
  val rest_positions() const {
    if (!sim_) return val::global("Float64Array").new_(0);
    const Positions& p = sim_->mesh().positions;
    return copy_to_js(static_cast<std::size_t>(p.size()), p.data());
  }

  // indices of the nodes a control prescribes (pins and motions); Uint32Array copy
  val controlled_nodes() const {
    std::vector<std::uint32_t> nodes;
    if (sim_) {
      const std::vector<char>& controlled = sim_->model().controlled;
      for (std::size_t k = 0; k < controlled.size(); ++k)
        if (controlled[k]) nodes.push_back(static_cast<std::uint32_t>(k));
    }
    return copy_to_js(nodes.size(), nodes.data());
  }

  // per face (A - A0) / A0 at the current positions (thesis eq. 2.23 per element); Float32Array
  val face_area_errors() const {
    if (!sim_) return val::global("Float32Array").new_(0);
    if (rest_areas_.empty()) rest_areas_ = face_areas(sim_->mesh(), sim_->mesh().positions);
    const std::vector<double> areas = face_areas(sim_->mesh(), sim_->state().positions);
    scratch_f32_.resize(areas.size());
    for (std::size_t e = 0; e < areas.size(); ++e)
      scratch_f32_[e] = static_cast<float>((areas[e] - rest_areas_[e]) / rest_areas_[e]);
    return copy_to_js(scratch_f32_.size(), scratch_f32_.data());
  }

  // nodes of the contacts active at the end of the last step (Simulation::contact_nodes);
  // Uint32Array copy
  val contact_nodes() const {
    std::vector<std::uint32_t> nodes;
    if (sim_)
      for (int k : sim_->contact_nodes()) nodes.push_back(static_cast<std::uint32_t>(k));
    return copy_to_js(nodes.size(), nodes.data());
  }

  // #triangles*3 node indices (quads split along their 0-2 diagonal); Uint32Array copy
  val triangles() const {
    if (!sim_) return val::global("Uint32Array").new_(0);
    const std::vector<int> tris = render_triangles(sim_->mesh());
    const std::vector<std::uint32_t> indices(tris.begin(), tris.end());
    return copy_to_js(indices.size(), indices.data());
  }

 private:
  std::unique_ptr<Simulation> sim_;
  std::string error_;
  mutable std::vector<float> scratch_f32_;
  mutable std::vector<double> rest_areas_;  // per face, m^2, computed on first use
};

// never aborts: check ok() and error() on the result
SimulationHandle create_simulation(const std::string& json_text) {
  return SimulationHandle(json_text);
}

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_sim) {
  using namespace emscripten;
  using tela::SimulationHandle;

  function("sceneNames", &tela::scene_names_js);
  function("sceneJson", &tela::scene_json);
  function("createSimulation", &tela::create_simulation);

  class_<SimulationHandle>("Simulation")
      .function("ok", &SimulationHandle::ok)
      .function("error", &SimulationHandle::error)
      .function("step", &SimulationHandle::step)
      .function("time", &SimulationHandle::time)
      .function("steps", &SimulationHandle::steps)
      .function("nodeCount", &SimulationHandle::node_count)
      .function("failed", &SimulationHandle::failed)
      .function("failureMessage", &SimulationHandle::failure_message)
      .function("stateHash", &SimulationHandle::state_hash)
      .function("summary", &SimulationHandle::summary)
      .function("positions", &SimulationHandle::positions)
      .function("positions64", &SimulationHandle::positions64)
      .function("triangles", &SimulationHandle::triangles)
      .function("dt", &SimulationHandle::dt)
      .function("scenarioJson", &SimulationHandle::scenario_json)
      .function("lastReport", &SimulationHandle::last_report)
      .function("faces", &SimulationHandle::faces)
      .function("restPositions", &SimulationHandle::rest_positions)
      .function("controlledNodes", &SimulationHandle::controlled_nodes)
      .function("faceAreaErrors", &SimulationHandle::face_area_errors)
      .function("contactNodes", &SimulationHandle::contact_nodes);
}
