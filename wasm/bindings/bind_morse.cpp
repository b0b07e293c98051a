// Embind layer over morse/reconstruction.h: declarations and conversions only. One call,
// reconstructCloud(points, options), takes a Float32Array/Float64Array (or plain array) of xyz
// triples and an options object { direction: [x,y,z], seed, levels, resampleNodes } and returns
// a plain object; on bad input { ok: false, error }. Nothing here throws or aborts. Bulk data
// leaves as copies (js_copy.h).
#include "base/integer_cast.h"
#include "morse/level_sets.h"
#include "morse/reconstruction.h"
#include "js_copy.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

val positions_of(const Positions& p, const std::vector<int>& indices) {
  std::vector<double> xyz;
  xyz.reserve(indices.size() * 3);
  for (int v : indices)
    for (int a = 0; a < 3; ++a) xyz.push_back(p(v, a));
  return copy_to_js(xyz);
}

val failure(const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("error", message);
  return out;
}

bool is_number(const val& v) { return v.typeOf().as<std::string>() == "number"; }

val reconstruct_cloud(val points, val options) {
  Positions cloud;
  std::string error;
  if (!positions_from_js(points, cloud, error, true)) return failure(error);

  morse::ReconstructOptions o;
  if (!options.isUndefined() && !options.isNull()) {
    const val direction = options["direction"];
    if (!direction.isUndefined() && !direction.isNull()) {
      if (!val::global("Array").call<bool>("isArray", direction) || direction["length"].as<int>() != 3)
        return failure("options.direction must be an array [x, y, z]");
      Eigen::Vector3d d;
      for (int a = 0; a < 3; ++a) {
        if (!is_number(direction[a])) return failure("options.direction must hold three numbers");
        d(a) = direction[a].as<double>();
      }
      o.direction = d;
    }
    const val seed = options["seed"];
    if (!seed.isUndefined()) {
      const double x = is_number(seed) ? seed.as<double>() : -1;
      if (!(x >= 0 && is_whole_number(x)))  // NaN, Infinity or 1e30 cannot be cast
        return failure("options.seed must be a whole number from 0 to 2^53");
      o.seed = static_cast<std::uint64_t>(x);
    }
    const val levels = options["levels"];
    if (!levels.isUndefined()) {
      if (!is_number(levels)) return failure("options.levels must be a number");
      const double l = levels.as<double>();
      if (!(l >= 2 && l <= 10000)) return failure("options.levels must be between 2 and 10000");
      o.levels = static_cast<int>(l);
    }
    const val nodes = options["resampleNodes"];
    if (!nodes.isUndefined()) {
      const double x = is_number(nodes) ? nodes.as<double>() : -1;
      if (!(x >= 0 && x <= 200)) return failure("options.resampleNodes must be a number between 0 and 200");
      o.resample_nodes = static_cast<int>(x);
    }
  }
  Result<morse::Reconstruction> result = morse::reconstruct(cloud, o);
  if (!result.ok()) return failure(result.error);
  const morse::Reconstruction& r = *result.value;

  val out = val::object();
  out.set("ok", true);
  out.set("pointsUsed", static_cast<int>(r.points.rows()));
  out.set("direction", copy_to_js(std::vector<double>{r.direction(0), r.direction(1), r.direction(2)}));
  std::vector<double> xyz(r.points.data(), r.points.data() + r.points.size());
  out.set("positions", copy_to_js(xyz));
  out.set("labels", copy_to_js(r.cells.label));
  std::vector<char> boundary = r.on_boundary;
  std::vector<int> boundary_flags(boundary.begin(), boundary.end());
  out.set("onBoundary", copy_to_js(boundary_flags));

  std::vector<int> critical_points, critical_types;
  val type_names = val::array();
  for (const morse::CriticalPoint& c : r.critical.points) {
    critical_points.push_back(c.point);
    critical_types.push_back(static_cast<int>(c.type));
  }
  for (int t = 0; t < morse::kCriticalTypeCount; ++t)
    type_names.call<void>("push", std::string(morse::to_string(static_cast<morse::CriticalType>(t))));
  val critical = val::object();
  critical.set("indices", copy_to_js(critical_points));
  critical.set("positions", positions_of(r.points, critical_points));
  critical.set("types", copy_to_js(critical_types));
  critical.set("typeNames", type_names);
  out.set("criticalPoints", critical);

  val one_cells = val::array();
  for (std::size_t index = 0; index < r.cells.one_cells.size(); ++index) {
    const morse::OneCell& cell = r.cells.one_cells[index];
    val c = val::object();
    c.set("kind", std::string(morse::to_string(cell.kind)));
    c.set("positions", positions_of(r.points, cell.path));
    c.set("ends", copy_to_js(std::vector<int>(r.attachment.ends[index].begin(), r.attachment.ends[index].end())));
    one_cells.call<void>("push", c);
  }
  out.set("oneCells", one_cells);
  val curves = val::array();
  for (const std::vector<int>& line : r.boundary.polylines) curves.call<void>("push", positions_of(r.points, line));
  out.set("boundaryCurves", curves);
  val attachment = val::array();
  for (const std::vector<int>& sides : r.attachment.boundary_of) attachment.call<void>("push", copy_to_js(sides));
  out.set("attachment", attachment);
  // attaching words (morse/attachment.h): per 2-cell the 1-cells and signs in cyclic order
  val words = val::array();
  for (std::size_t t = 0; t < r.attachment.words.size(); ++t) {
    std::vector<int> cells, signs;
    for (const morse::AttachingEdge& e : r.attachment.words[t]) {
      cells.push_back(e.cell);
      signs.push_back(e.sign);
    }
    val word = val::object();
    word.set("cells", copy_to_js(cells));
    word.set("signs", copy_to_js(signs));
    word.set("point", r.attachment.collapses_to[t]);
    words.call<void>("push", word);
  }
  out.set("attachingWords", words);
  val checks = val::object();
  checks.set("complete", r.attachment.complete);
  checks.set("cornerMismatches", r.attachment.corner_mismatches);
  checks.set("orientable", r.attachment.orientable);
  val problems = val::array();
  for (const std::string& p : r.attachment.problems) problems.call<void>("push", p);
  checks.set("problems", problems);
  out.set("attachmentChecks", checks);

  const morse::LevelCurveGeometry levels = morse::level_curve_geometry(r.points, r.graph, r.height, r.slicing, r.level_curves);
  val level_curves = val::object();
  std::vector<double> level_xyz(levels.points.data(), levels.points.data() + levels.points.size());
  std::vector<int> segments;
  for (const std::array<int, 2>& s : levels.segments) segments.insert(segments.end(), s.begin(), s.end());
  level_curves.set("points", copy_to_js(level_xyz));
  level_curves.set("component", copy_to_js(levels.component));
  level_curves.set("segments", copy_to_js(segments));
  out.set("levelCurves", level_curves);

  const morse::Topology& t = r.topology;
  val topology = val::object();
  topology.set("cells", copy_to_js(std::vector<int>{t.cells[0], t.cells[1], t.cells[2]}));
  topology.set("euler", t.euler);
  topology.set("morseSum", t.morse_sum);
  topology.set("boundaryComponents", t.boundary_components);
  topology.set("connectedComponents", t.connected_components);
  topology.set("genus", t.genus >= 0 ? val(t.genus) : val::null());  // null: undefined (see the warnings)
  topology.set("orientable", t.orientable);
  out.set("topology", topology);

  if (r.mesh) {
    val mesh = val::object();
    std::vector<double> mesh_xyz(r.mesh->positions.data(), r.mesh->positions.data() + r.mesh->positions.size());
    std::vector<int> quads;
    for (const Face& f : r.mesh->faces) quads.insert(quads.end(), f.v.begin(), f.v.end());
    mesh.set("positions", copy_to_js(mesh_xyz));
    mesh.set("quads", copy_to_js(quads));
    out.set("mesh", mesh);
  } else {
    out.set("mesh", val::null());
    out.set("meshMessage", r.mesh_message);
  }
  val warnings = val::array();
  for (const std::string& w : r.warnings) warnings.call<void>("push", w);
  out.set("warnings", warnings);
  return out;
}

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_morse) {
  emscripten::function("reconstructCloud", &tela::reconstruct_cloud);
}
