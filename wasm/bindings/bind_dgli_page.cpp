// Embind layer for the Classify panel over dgli/: a classifier built from the database JSON,
// classifying one cloth state (faces + positions) into its dGLI coordinates, the chosen
// segments and the predicted class. Declarations and conversions only; nothing throws: bad
// input comes back as { ok: false, error }. Every DgliClassifier has one JS owner that calls
// .delete().
#include "dgli/cloth_boundary.h"
#include "dgli/cloth_coordinates.h"
#include "dgli/dgli_classifier.h"
#include "geometry/mesh.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <optional>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

template <class T>
val copy_out(const std::vector<T>& data) {
  return val(emscripten::typed_memory_view(data.size(), data.data())).call<val>("slice");
}

val failure(const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("error", message);
  return out;
}

class DgliClassifier {
 public:
  explicit DgliClassifier(const std::string& json_text) {
    Result<DgliDatabase> db = parse_database(json_text);
    if (db.ok()) db_ = std::move(*db.value);
    else error_ = db.error;
  }
  bool ok() const { return db_.has_value(); }
  std::string error() const { return error_; }

  // faces: Int32Array #faces*4 (-1 closes a triangle); positions: Float64Array/Float32Array
  // #nodes*3 (metres, core frame); k for k-NN.
  val classify(val faces, val positions, int k) const {
    if (!db_) return failure("no database: " + error_);
    const std::vector<int> f = emscripten::convertJSArrayToNumberVector<int>(faces);
    const std::vector<double> p = emscripten::convertJSArrayToNumberVector<double>(positions);
    if (f.size() % 4 != 0 || f.empty()) return failure("faces must hold 4 indices per face");
    if (p.size() % 3 != 0 || p.empty()) return failure("positions must hold x, y, z per node");
    Mesh mesh;
    mesh.positions.resize(static_cast<Eigen::Index>(p.size() / 3), 3);
    for (std::size_t i = 0; i < p.size(); ++i) mesh.positions(static_cast<Eigen::Index>(i / 3), static_cast<int>(i % 3)) = p[i];
    const int nodes = mesh.node_count();
    for (std::size_t i = 0; i < f.size(); i += 4) {
      Face face;
      for (int c = 0; c < 4; ++c) {
        const int v = f[i + c];
        if (v >= nodes || v < -1 || (v < 0 && c < 3)) return failure("face " + std::to_string(i / 4) + " has an invalid node index");
        face.v[c] = v;
      }
      mesh.faces.push_back(face);
    }
    Result<BoundaryCurve> curve = mesh_boundary(mesh, mesh.positions, db_->settings.sides);
    if (!curve.ok()) return failure(curve.error);
    Result<DgliCoordinates> coords = cloth_coordinates(*curve.value, db_->settings);
    if (!coords.ok()) return failure(coords.error);
    const DgliCoordinates& c = *coords.value;
    const Classification result = classify_coordinates(*db_, c.values, k < 1 ? 1 : k);

    val out = val::object();
    out.set("ok", true);
    out.set("segmentCount", static_cast<int>(c.segments.size()));
    out.set("values", copy_out(c.values));
    std::vector<int> status;
    for (PairStatus s : c.status) status.push_back(static_cast<int>(s));
    out.set("status", copy_out(status));
    std::vector<double> ends;
    for (const Segment& s : c.segments)
      for (const Point3& q : s)
        for (int a = 0; a < 3; ++a) ends.push_back(q(a));
    out.set("segments", copy_out(ends));
    out.set("undefinedPairs", c.undefined);
    out.set("perimeter", c.perimeter);
    auto name = [&](int label) { return label >= 0 && label < static_cast<int>(db_->classes.size()) ? db_->classes[label] : std::string(); };
    out.set("label", result.label);
    out.set("className", name(result.label));
    out.set("distance", result.distance);
    out.set("runnerUp", result.runner_up);
    out.set("runnerUpName", name(result.runner_up));
    out.set("runnerUpDistance", result.runner_up_distance);
    out.set("knnLabel", result.knn_label);
    out.set("knnName", name(result.knn_label));
    out.set("knnVotes", result.knn_votes);
    out.set("knnDistance", result.knn_distance);
    return out;
  }

 private:
  std::optional<DgliDatabase> db_;
  std::string error_;
};

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_dgli_page) {
  emscripten::class_<tela::DgliClassifier>("DgliClassifier")
      .constructor<std::string>()
      .function("ok", &tela::DgliClassifier::ok)
      .function("error", &tela::DgliClassifier::error)
      .function("classify", &tela::DgliClassifier::classify);
}
