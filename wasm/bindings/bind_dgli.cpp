// Embind layer over dgli/: cloth coordinates of given positions (a mesh's boundary loop, or a
// boundary polyline) and classification against a database JSON string. Declarations and
// conversions only; nothing throws: results carry ok / error. Bulk data leaves as copies.
// Every DgliClassifier has one JS owner that calls .delete().
#include "dgli/cloth_boundary.h"
#include "dgli/cloth_state_input.h"
#include "dgli/cloth_coordinates.h"
#include "dgli/database_json.h"
#include "dgli/dgli_classifier.h"
#include "js_copy.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

Positions positions_from(const val& flat) {
  const std::vector<double> v = emscripten::convertJSArrayToNumberVector<double>(flat);
  Positions p(static_cast<Eigen::Index>(v.size() / 3), 3);
  for (Eigen::Index k = 0; k < p.rows(); ++k)
    for (int c = 0; c < 3; ++c) p(k, c) = v[3 * k + c];
  return p;
}

// faces: flat, 4 indices per face, -1 as the 4th for triangles
Result<Mesh> mesh_from(const val& flat_positions, const val& flat_faces) {
  Mesh mesh;
  mesh.positions = positions_from(flat_positions);
  const std::vector<int> f = emscripten::convertJSArrayToNumberVector<int>(flat_faces);
  if (f.size() % 4 != 0) return Result<Mesh>::failure("faces: expected 4 indices per face (-1 as the 4th of a triangle)");
  for (std::size_t i = 0; i < f.size(); i += 4) {
    Face face;
    for (int c = 0; c < 4; ++c) {
      const int k = f[i + c];
      if ((c < 3 || k != -1) && (k < 0 || k >= mesh.node_count()))
        return Result<Mesh>::failure("faces[" + std::to_string(i + c) + "]: node index out of range");
      face.v[c] = k;
    }
    mesh.faces.push_back(face);
  }
  return Result<Mesh>::success(std::move(mesh));
}

// the page's settings; a bad value is an error from the call, as the CLI's options are
Result<CoordinateSettings> settings_from(int per_side, const std::string& layout, bool normalize) {
  CoordinateSettings s;
  s.per_side = per_side;  // choose_segments checks the range
  if (!parse_side_layout(layout, s.layout))
    return Result<CoordinateSettings>::failure("layout: '" + layout + "' is not spread or first_half");
  s.normalize_by_perimeter = normalize;
  return Result<CoordinateSettings>::success(s);
}

val coordinates_to_js(const Result<DgliCoordinates>& c) {
  val out = val::object();
  out.set("ok", c.ok());
  out.set("error", c.error);
  if (!c.ok()) return out;
  std::vector<double> segments;
  for (const Segment& s : c.value->segments)
    for (const Point3& p : s) segments.insert(segments.end(), {p.x(), p.y(), p.z()});
  std::vector<std::uint8_t> status;
  for (PairStatus s : c.value->status) status.push_back(static_cast<std::uint8_t>(s));
  out.set("values", copy_to_js(c.value->values));
  out.set("segments", copy_to_js(segments));     // m*6: start xyz, end xyz
  out.set("status", copy_to_js(status));         // 0 ok, 1 shared_endpoint, 2 intersecting, 3 degenerate
  out.set("undefined", c.value->undefined);
  out.set("perimeter", c.value->perimeter);
  return out;
}

Result<DgliCoordinates> mesh_coordinates(const val& positions, const val& faces, const CoordinateSettings& s) {
  Result<Mesh> mesh = mesh_from(positions, faces);
  if (!mesh.ok()) return Result<DgliCoordinates>::failure(mesh.error);
  Result<BoundaryCurve> curve = mesh_boundary(*mesh.value, mesh.value->positions);
  if (!curve.ok()) return Result<DgliCoordinates>::failure(curve.error);
  return cloth_coordinates(*curve.value, s);
}

val dgli_of_mesh(val positions, val faces, int per_side, std::string layout, bool normalize) {
  const Result<CoordinateSettings> settings = settings_from(per_side, layout, normalize);
  if (!settings.ok()) return coordinates_to_js(Result<DgliCoordinates>::failure(settings.error));
  return coordinates_to_js(mesh_coordinates(positions, faces, *settings.value));
}

val dgli_of_boundary(val points, int per_side, std::string layout, bool normalize) {
  Result<BoundaryCurve> curve = polyline_boundary(positions_from(points));
  if (!curve.ok()) return coordinates_to_js(Result<DgliCoordinates>::failure(curve.error));
  const Result<CoordinateSettings> settings = settings_from(per_side, layout, normalize);
  if (!settings.ok()) return coordinates_to_js(Result<DgliCoordinates>::failure(settings.error));
  return coordinates_to_js(cloth_coordinates(*curve.value, *settings.value));
}

// A parsed database; classify() answers with the class names.
class DgliClassifier {
 public:
  explicit DgliClassifier(const std::string& json_text) {
    Result<DgliDatabase> db = parse_database(json_text);
    if (db.ok()) db_ = std::move(*db.value);
    else error_ = db.error;
  }
  bool ok() const { return error_.empty(); }
  std::string error() const { return error_; }
  val classes() const {
    val names = val::array();
    for (const std::string& c : db_.classes) names.call<void>("push", val(c));
    return names;
  }
  int representative_count() const { return static_cast<int>(db_.representatives.size()); }
  // coordinates of representative i (for a gallery), and its class index
  val representative(int i) const {
    val out = val::object();
    if (i < 0 || i >= representative_count()) return out;
    out.set("class", db_.representatives[i].label);
    out.set("source", db_.representatives[i].source);
    out.set("values", copy_to_js(db_.representatives[i].coordinates));
    return out;
  }
  val classify_mesh(val positions, val faces, int k) const {
    return classify(mesh_coordinates(positions, faces, db_.settings), k);
  }
  // an OBJ cloth state (as `tela classify STATE.obj`): its outer boundary
  val classify_obj(std::string text, int k) const {
    Result<Mesh> mesh = parse_obj_mesh(text);
    if (!mesh.ok()) return classify(Result<DgliCoordinates>::failure("OBJ: " + mesh.error), k);
    Result<BoundaryCurve> curve = mesh_boundary(*mesh.value, mesh.value->positions);
    if (!curve.ok()) return classify(Result<DgliCoordinates>::failure(curve.error), k);
    val out = classify(cloth_coordinates(*curve.value, db_.settings), k);
    out.set("nodes", mesh.value->node_count());
    out.set("ignoredLoops", curve.value->ignored_loops);
    return out;
  }
  val classify_boundary(val points, int k) const {
    Result<BoundaryCurve> curve = polyline_boundary(positions_from(points));
    if (!curve.ok()) return classify(Result<DgliCoordinates>::failure(curve.error), k);
    return classify(cloth_coordinates(*curve.value, db_.settings), k);
  }

 private:
  val classify(const Result<DgliCoordinates>& c, int k) const {
    val out = coordinates_to_js(c);
    if (!c.ok() || !ok()) {
      if (!ok()) out.set("error", error_);
      out.set("ok", false);
      return out;
    }
    if (c.value->values.size() != db_.representatives.front().coordinates.size()) {
      out.set("ok", false);
      out.set("error", "the state gives a different number of coordinates than the database");
      return out;
    }
    const Classification r = classify_coordinates(db_, c.value->values, k < 1 ? 1 : k);
    // as `tela classify`: the k nearest states first, then the nearest class representative
    out.set("class", db_.classes[r.knn_label]);
    out.set("distance", r.knn_label_distance);
    out.set("runnerUp", r.state_runner_up >= 0 ? val(db_.classes[r.state_runner_up]) : val::null());
    out.set("runnerUpDistance", r.state_runner_up_distance);
    out.set("knnVotes", r.knn_votes);
    out.set("representativeClass", db_.classes[r.label]);
    out.set("representativeDistance", r.distance);
    out.set("representativeRunnerUp", r.runner_up >= 0 ? val(db_.classes[r.runner_up]) : val::null());
    out.set("novel", r.novel);
    out.set("nearestStateDistance", r.nearest_state_distance);
    out.set("reach", db_.reach);
    return out;
  }

  DgliDatabase db_;
  std::string error_;
};

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_dgli) {
  using namespace emscripten;
  using tela::DgliClassifier;
  function("dgliOfMesh", &tela::dgli_of_mesh);
  function("dgliOfBoundary", &tela::dgli_of_boundary);
  class_<DgliClassifier>("DgliClassifier")
      .constructor<std::string>()
      .function("ok", &DgliClassifier::ok)
      .function("error", &DgliClassifier::error)
      .function("classes", &DgliClassifier::classes)
      .function("representativeCount", &DgliClassifier::representative_count)
      .function("representative", &DgliClassifier::representative)
      .function("classifyMesh", &DgliClassifier::classify_mesh)
      .function("classifyObj", &DgliClassifier::classify_obj)
      .function("classifyBoundary", &DgliClassifier::classify_boundary);
}
