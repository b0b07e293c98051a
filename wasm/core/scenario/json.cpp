// Scenario file version 1 <-> Scenario, with nlohmann-json hidden behind this file.
//
// The wasm build has no C++ exceptions (and nlohmann is compiled with JSON_NOEXCEPTION, so
// any of its throws would abort the module). Everything here is therefore written so that
// nlohmann never throws: the text is parsed with allow_exceptions = false, every value's
// type is checked before it is read, keys are looked up with find(), and dumps replace
// invalid UTF-8 instead of failing.
#include "scenario/json.h"
#include "base/json_keys.h"
#include "base/json_text.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace tela {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

constexpr double infinity = std::numeric_limits<double>::infinity();
constexpr int max_grid_nodes_per_side = 1000;
constexpr int max_irregular_nodes = 200000;
constexpr int max_disc_rings = 1000;
constexpr int max_disc_sectors = 1000;
constexpr int max_iterations_limit = 10000;

// ---------------------------------------------------------------------------------------
// paths and number formatting for messages

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string at(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

// shortest text that reads back as the same double; integral values without ".0"
std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  return json_text(json(v));
}

// the lexer quotes the offending bytes, which may be invalid UTF-8: keep messages printable
std::string printable(const std::string& text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const unsigned char b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// syntax pass: a SAX walk that reports the byte position and the JSON path of a syntax
// error, and rejects duplicate keys (a DOM parse would silently keep the last one)

class SyntaxCheck final : public nlohmann::json_sax<json> {
 public:
  std::string error;

  bool null() override { return value_done(); }
  bool boolean(bool) override { return value_done(); }
  bool number_integer(number_integer_t) override { return value_done(); }
  bool number_unsigned(number_unsigned_t) override { return value_done(); }
  bool number_float(number_float_t, const string_t&) override { return value_done(); }
  bool string(string_t&) override { return value_done(); }
  bool binary(binary_t&) override { return value_done(); }

  bool start_object(std::size_t) override {
    if (too_deep()) return false;
    frames_.push_back(Frame{true, {}, 0, {}});
    return true;
  }
  bool key(string_t& name) override {
    Frame& frame = frames_.back();
    frame.key = name;
    if (!frame.keys.insert(name).second) {
      error = path() + ": duplicate key";
      return false;
    }
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return value_done();
  }
  bool start_array(std::size_t) override {
    if (too_deep()) return false;
    frames_.push_back(Frame{false, {}, 0, {}});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return value_done();
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    std::string what = printable(ex.what());
    const std::size_t tag_end = what.find("] ");
    if (tag_end != std::string::npos) what = what.substr(tag_end + 2);
    const std::string where = path();
    if (ex.id == 406) {  // out_of_range.406: a number literal beyond the double range
      error = (where.empty() ? std::string("number") : where) + ": must be finite (" + what + ")";
      return false;
    }
    // "parse error at line L, column C: detail" -> "(line L, column C)" and "detail"
    std::string location;
    const std::string prefix = "parse error at ";
    if (what.compare(0, prefix.size(), prefix) == 0) {
      const std::size_t colon = what.find(": ", prefix.size());
      if (colon != std::string::npos) {
        location = what.substr(prefix.size(), colon - prefix.size());
        what = what.substr(colon + 2);
      }
    }
    error = "invalid JSON at byte " + std::to_string(position);
    if (!location.empty()) error += " (" + location + ")";
    if (!where.empty()) error += " in " + where;
    error += ": " + what;
    return false;
  }

 private:
  struct Frame {
    bool is_object;
    std::string key;        // objects: the key being read
    std::size_t index;      // arrays: the element being read
    std::set<std::string> keys;
  };
  std::vector<Frame> frames_;

  // a scenario nests 5 levels deep; a file of a million '[' took minutes (the path of the
  // error was rebuilt at every level) and would overflow the stack of the DOM parse after it
  static constexpr std::size_t kMaxDepth = 64;
  bool too_deep() {
    if (frames_.size() < kMaxDepth) return false;
    error = "invalid JSON: nested deeper than " + std::to_string(kMaxDepth) + " levels at " + path();
    return true;
  }

  bool value_done() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
    return true;
  }

  std::string path() const {
    std::string out;
    for (const Frame& frame : frames_) {
      if (frame.is_object) {
        if (frame.key.empty()) break;
        out = join(out, frame.key);
      } else {
        out = at(out, frame.index);
      }
    }
    return out;
  }
};

// ---------------------------------------------------------------------------------------
// typed readers: each returns false and sets `error` (naming the field) on bad input

struct Range {
  double lo = -infinity, hi = infinity;
  bool lo_strict = false, hi_strict = false;
};
constexpr Range any_value{};
constexpr Range positive{0.0, infinity, true, false};
constexpr Range non_negative{0.0, infinity, false, false};

bool check_range(double v, const Range& r, const std::string& path, std::string& error) {
  if (v < r.lo || (r.lo_strict && v == r.lo)) {
    error = path + ": must be " + (r.lo_strict ? "> " : ">= ") + format_number(r.lo) +
            " (got " + format_number(v) + ")";
    return false;
  }
  if (v > r.hi || (r.hi_strict && v == r.hi)) {
    error = path + ": must be " + (r.hi_strict ? "< " : "<= ") + format_number(r.hi) +
            " (got " + format_number(v) + ")";
    return false;
  }
  return true;
}

std::string got(const json& j) { return std::string(" (got ") + j.type_name() + ")"; }

const json* find(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool require_object(const json& j, const std::string& path, std::string& error) {
  if (j.is_object()) return true;
  error = path + ": must be an object" + got(j);
  return false;
}

bool require_array(const json& j, const std::string& path, std::string& error) {
  if (j.is_array()) return true;
  error = path + ": must be an array" + got(j);
  return false;
}

bool check_keys(const json& object, const std::string& path,
                std::initializer_list<const char*> allowed, std::string& error) {
  error = unknown_key_error(object, path, allowed);
  return error.empty();
}

bool number_value(const json& j, const std::string& path, const Range& range, double& out,
                  std::string& error) {
  if (!j.is_number()) {
    error = path + ": must be a number" + got(j);
    return false;
  }
  const double v = j.get<double>();
  if (!std::isfinite(v)) {
    error = path + ": must be finite (got " + format_number(v) + ")";
    return false;
  }
  if (!check_range(v, range, path, error)) return false;
  out = v;
  return true;
}

// integers: JSON integers, or numbers with an integral value (2.0)
bool integer_value(const json& j, const std::string& path, long long lo, long long hi,
                   long long& out, std::string& error) {
  const Range range{static_cast<double>(lo), static_cast<double>(hi), false, false};
  if (j.is_number_unsigned()) {
    const std::uint64_t u = j.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi)) {
      error = path + ": must be <= " + std::to_string(hi) + " (got " + std::to_string(u) + ")";
      return false;
    }
    out = static_cast<long long>(u);
  } else if (j.is_number_integer()) {
    out = static_cast<long long>(j.get<std::int64_t>());
  } else if (j.is_number_float()) {
    const double v = j.get<double>();
    if (!std::isfinite(v)) {
      error = path + ": must be finite (got " + format_number(v) + ")";
      return false;
    }
    if (v != std::floor(v)) {
      error = path + ": must be an integer (got " + format_number(v) + ")";
      return false;
    }
    if (!check_range(v, range, path, error)) return false;
    out = static_cast<long long>(v);
  } else {
    error = path + ": must be an integer" + got(j);
    return false;
  }
  if (out < lo || out > hi) {
    error = path + ": must be " + (out < lo ? ">= " + std::to_string(lo) : "<= " + std::to_string(hi)) +
            " (got " + std::to_string(out) + ")";
    return false;
  }
  return true;
}

bool int_value(const json& j, const std::string& path, int lo, int hi, int& out,
               std::string& error) {
  long long v = 0;
  if (!integer_value(j, path, lo, hi, v, error)) return false;
  out = static_cast<int>(v);
  return true;
}

bool string_value(const json& j, const std::string& path, std::string& out, std::string& error) {
  if (!j.is_string()) {
    error = path + ": must be a string" + got(j);
    return false;
  }
  out = j.get<std::string>();
  return true;
}

bool enum_value(const json& j, const std::string& path, std::initializer_list<const char*> options,
                std::string& out, std::string& error) {
  std::string s;
  if (!string_value(j, path, s, error)) return false;
  for (const char* option : options) {
    if (s == option) {
      out = s;
      return true;
    }
  }
  error = path + ": must be one of " + list_names(options) + " (got \"" + s + "\")";
  return false;
}

bool vec3_value(const json& j, const std::string& path, Eigen::Vector3d& out, std::string& error) {
  if (!j.is_array() || j.size() != 3) {
    error = path + ": must be an array of 3 numbers" +
            (j.is_array() ? " (got " + std::to_string(j.size()) + " elements)" : got(j));
    return false;
  }
  Eigen::Vector3d v;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!number_value(j[i], at(path, i), any_value, v[static_cast<Eigen::Index>(i)], error)) {
      return false;
    }
  }
  out = v;
  return true;
}

// optional keys: absent leaves `out` at its default
bool read_number(const json& object, const char* key, const std::string& path, const Range& range,
                 double& out, std::string& error) {
  const json* j = find(object, key);
  return j == nullptr || number_value(*j, join(path, key), range, out, error);
}

bool read_int(const json& object, const char* key, const std::string& path, int lo, int hi,
              int& out, std::string& error) {
  const json* j = find(object, key);
  return j == nullptr || int_value(*j, join(path, key), lo, hi, out, error);
}

bool read_string(const json& object, const char* key, const std::string& path, std::string& out,
                 std::string& error) {
  const json* j = find(object, key);
  return j == nullptr || string_value(*j, join(path, key), out, error);
}

bool read_enum(const json& object, const char* key, const std::string& path,
               std::initializer_list<const char*> options, std::string& out, std::string& error) {
  const json* j = find(object, key);
  return j == nullptr || enum_value(*j, join(path, key), options, out, error);
}

bool read_vec3(const json& object, const char* key, const std::string& path, Eigen::Vector3d& out,
               std::string& error) {
  const json* j = find(object, key);
  return j == nullptr || vec3_value(*j, join(path, key), out, error);
}

// ---------------------------------------------------------------------------------------
// sections

// The generators move every node off the sheet's plane by a random amount of standard
// deviation `noise` (geometry/generators.h). Beyond half the mean node spacing the rest shape
// is a crumpled surface rather than a sheet with small defects: a clear error instead of a
// simulation of that.
constexpr double kPi = 3.14159265358979323846;

bool check_noise(double noise, double area, int nodes, std::string& error) {
  const double spacing = std::sqrt(area / nodes);
  if (noise <= 0.5 * spacing) return true;
  char bound[32];
  std::snprintf(bound, sizeof bound, "%.3g", 0.5 * spacing);
  error = std::string("mesh.noise: must be at most half the mean node spacing (") + bound +
          " m for this mesh): it moves nodes off the sheet's plane (got " + format_number(noise) + ")";
  return false;
}

bool parse_rectangle(const json& m, RectangleMeshDesc& r, std::string& error) {
  const std::string p = "mesh";
  if (!check_keys(m, p, {"type", "width", "height", "nx", "ny", "elements", "nodes", "plane",
                         "origin", "noise"}, error) ||
      !read_number(m, "width", p, positive, r.width, error) ||
      !read_number(m, "height", p, positive, r.height, error) ||
      !read_int(m, "nx", p, 2, max_grid_nodes_per_side, r.nx, error) ||
      !read_int(m, "ny", p, 2, max_grid_nodes_per_side, r.ny, error) ||
      !read_enum(m, "elements", p, {"quad", "tri", "tri_left", "tri_irregular"}, r.elements, error) ||
      !read_int(m, "nodes", p, 0, max_irregular_nodes, r.nodes, error) ||
      !read_enum(m, "plane", p, {"xy", "xz", "yz"}, r.plane, error) ||
      !read_vec3(m, "origin", p, r.origin, error) ||
      !read_number(m, "noise", p, non_negative, r.noise, error)) {
    return false;
  }
  if (r.nodes != 0 && r.elements != "tri_irregular") {
    error = "mesh.nodes: only used with elements \"tri_irregular\" (got " +
            std::to_string(r.nodes) + " with \"" + r.elements + "\"; nx*ny sets the node count)";
    return false;
  }
  if (r.nodes != 0 && r.nodes < 4) {
    error = "mesh.nodes: must be 0 (meaning nx*ny) or >= 4 (got " + std::to_string(r.nodes) + ")";
    return false;
  }
  return check_noise(r.noise, r.width * r.height, r.nodes > 0 ? r.nodes : r.nx * r.ny, error);
}

bool parse_disc(const json& m, bool ring, DiscMeshDesc& d, std::string& error) {
  const std::string p = "mesh";
  d.ring = ring;
  const bool keys_ok =
      ring ? check_keys(m, p, {"type", "radius", "inner_radius", "rings", "sectors", "plane",
                               "center", "noise"}, error)
           : check_keys(m, p, {"type", "radius", "rings", "sectors", "plane", "center", "noise"},
                        error);
  if (!keys_ok ||
      !read_number(m, "radius", p, positive, d.radius, error) ||
      // a ring needs two circles (inner and outer boundary); a disc one circle around its centre
      !read_int(m, "rings", p, ring ? 2 : 1, max_disc_rings, d.rings, error) ||
      !read_int(m, "sectors", p, 3, max_disc_sectors, d.sectors, error) ||
      !read_enum(m, "plane", p, {"xy", "xz", "yz"}, d.plane, error) ||
      !read_vec3(m, "center", p, d.center, error) ||
      !read_number(m, "noise", p, non_negative, d.noise, error)) {
    return false;
  }
  if (!ring) {
    d.inner_radius = 0.0;
    return check_noise(d.noise, kPi * d.radius * d.radius, d.rings * d.sectors, error);
  }
  const json* inner = find(m, "inner_radius");
  if (inner == nullptr) {
    error = "mesh.inner_radius: required for a ring (0 < inner_radius < radius)";
    return false;
  }
  return number_value(*inner, "mesh.inner_radius",
                      Range{0.0, d.radius, true, true}, d.inner_radius, error) &&
         check_noise(d.noise, kPi * (d.radius * d.radius - d.inner_radius * d.inner_radius),
                     d.rings * d.sectors, error);
}

bool parse_explicit_mesh(const json& m, ExplicitMeshDesc& e, std::string& error) {
  if (!check_keys(m, "mesh", {"type", "vertices", "faces"}, error)) return false;
  const json* vertices = find(m, "vertices");
  if (vertices == nullptr) {
    error = "mesh.vertices: required for type \"mesh\"";
    return false;
  }
  if (!require_array(*vertices, "mesh.vertices", error)) return false;
  std::vector<double> coordinates;
  coordinates.reserve(3 * vertices->size());
  const bool triples = !vertices->empty() && vertices->front().is_array();
  for (std::size_t i = 0; i < vertices->size(); ++i) {
    const std::string path = at("mesh.vertices", i);
    if (triples) {
      Eigen::Vector3d v;
      if (!vec3_value((*vertices)[i], path, v, error)) return false;
      coordinates.insert(coordinates.end(), {v.x(), v.y(), v.z()});
    } else {
      double x = 0;
      if (!number_value((*vertices)[i], path, any_value, x, error)) return false;
      coordinates.push_back(x);
    }
  }
  if (coordinates.size() % 3 != 0) {
    error = "mesh.vertices: a flat list needs 3 numbers per vertex (got " +
            std::to_string(coordinates.size()) + " numbers)";
    return false;
  }
  const std::size_t vertex_count = coordinates.size() / 3;
  if (vertex_count < 3) {
    error = "mesh.vertices: must have at least 3 vertices (got " + std::to_string(vertex_count) + ")";
    return false;
  }
  if (vertex_count > static_cast<std::size_t>(INT_MAX)) {
    error = "mesh.vertices: too many vertices";
    return false;
  }

  const json* faces = find(m, "faces");
  if (faces == nullptr) {
    error = "mesh.faces: required for type \"mesh\"";
    return false;
  }
  if (!require_array(*faces, "mesh.faces", error)) return false;
  if (faces->empty()) {
    error = "mesh.faces: must have at least one face";
    return false;
  }
  std::vector<std::vector<int>> face_list;
  face_list.reserve(faces->size());
  for (std::size_t f = 0; f < faces->size(); ++f) {
    const json& face = (*faces)[f];
    const std::string path = at("mesh.faces", f);
    if (!require_array(face, path, error)) return false;
    if (face.size() != 3 && face.size() != 4) {
      error = path + ": must have 3 or 4 node indices (got " + std::to_string(face.size()) + ")";
      return false;
    }
    std::vector<int> nodes;
    for (std::size_t k = 0; k < face.size(); ++k) {
      int node = 0;
      if (!int_value(face[k], at(path, k), 0, INT_MAX, node, error)) return false;
      if (static_cast<std::size_t>(node) >= vertex_count) {
        error = at(path, k) + ": node index " + std::to_string(node) + " out of range (" +
                std::to_string(vertex_count) + " vertices)";
        return false;
      }
      for (int previous : nodes) {
        if (previous == node) {
          error = at(path, k) + ": node index " + std::to_string(node) +
                  " repeated within the face";
          return false;
        }
      }
      nodes.push_back(node);
    }
    face_list.push_back(std::move(nodes));
  }
  e.vertices = std::move(coordinates);
  e.faces = std::move(face_list);
  return true;
}

bool parse_mesh(const json& m, MeshDesc& out, std::string& error) {
  if (!require_object(m, "mesh", error)) return false;
  const json* type = find(m, "type");
  if (type == nullptr) {
    error = "mesh.type: required (rectangle, disc, ring or mesh)";
    return false;
  }
  std::string kind;
  if (!enum_value(*type, "mesh.type", {"rectangle", "disc", "ring", "mesh"}, kind, error)) {
    return false;
  }
  if (kind == "rectangle") {
    RectangleMeshDesc r;
    if (!parse_rectangle(m, r, error)) return false;
    out = r;
  } else if (kind == "mesh") {
    ExplicitMeshDesc e;
    if (!parse_explicit_mesh(m, e, error)) return false;
    out = std::move(e);
  } else {
    DiscMeshDesc d;
    if (!parse_disc(m, kind == "ring", d, error)) return false;
    out = d;
  }
  return true;
}

bool parse_material(const json& j, Material& material, std::string& error) {
  const std::string p = "material";
  return require_object(j, p, error) &&
         check_keys(j, p, {"rho", "delta", "alpha", "kappa", "beta", "shear"}, error) &&
         read_number(j, "rho", p, positive, material.rho, error) &&
         read_number(j, "delta", p, non_negative, material.delta, error) &&
         read_number(j, "alpha", p, non_negative, material.alpha, error) &&
         read_number(j, "kappa", p, non_negative, material.kappa, error) &&
         read_number(j, "beta", p, non_negative, material.beta, error) &&
         read_number(j, "shear", p, non_negative, material.shear, error);
}

bool parse_solver(const json& j, SolverSettings& solver, std::string& error) {
  const std::string p = "solver";
  if (!(require_object(j, p, error) &&
        check_keys(j, p, {"dt", "tolerance", "max_iterations", "max_substeps", "strain_limit"}, error) &&
        read_number(j, "dt", p, Range{0.0, 1.0, true, false}, solver.dt, error) &&
        read_number(j, "tolerance", p, Range{0.0, 0.5, true, false}, solver.tolerance, error) &&
        read_int(j, "max_iterations", p, 1, max_iterations_limit, solver.max_iterations, error) &&
        read_int(j, "max_substeps", p, 1, 4, solver.max_substeps, error) &&
        read_number(j, "strain_limit", p, Range{0.0, 0.5, false, false}, solver.strain_limit, error)))
    return false;
  if (solver.max_substeps == 3) {
    error = p + ".max_substeps: 1, 2 or 4 substeps per step, found 3";
    return false;
  }
  return true;
}

// "set" or "set:i,j,k" (elements i, j, k of the node set, by position)
bool check_set_name(const std::string& name, const std::string& path, std::string& error) {
  if (name.empty()) {
    error = path + ": node-set name must not be empty";
    return false;
  }
  const std::size_t colon = name.find(':');
  if (colon == std::string::npos) return true;
  const std::string set = name.substr(0, colon);
  const std::string list = name.substr(colon + 1);
  bool ok = !set.empty() && !list.empty();
  std::size_t digits = 0;
  for (char c : list) {
    if (c >= '0' && c <= '9') {
      ok = ok && ++digits <= 9;  // keeps every element within int
    } else if (c == ',') {
      ok = ok && digits > 0;
      digits = 0;
    } else {
      ok = false;
    }
  }
  ok = ok && digits > 0;
  if (!ok) {
    error = path + ": a node-set element list is written \"set:i,j,k\" with non-negative "
                   "integers, as in \"corners:0,1,3\" (got \"" + name + "\")";
  }
  return ok;
}

bool parse_selector(const json& j, const std::string& path, int known_node_count,
                    NodeSelector& out, std::string& error) {
  if (j.is_string()) {
    out.name = j.get<std::string>();
    out.indices.clear();
    return check_set_name(out.name, path, error);
  }
  if (!j.is_array()) {
    error = path + ": must be a node-set name or an array of node indices" + got(j);
    return false;
  }
  if (j.empty()) {
    error = path + ": must select at least one node";
    return false;
  }
  out.name.clear();
  out.indices.clear();
  for (std::size_t i = 0; i < j.size(); ++i) {
    int node = 0;
    if (!int_value(j[i], at(path, i), 0, INT_MAX, node, error)) return false;
    if (known_node_count >= 0 && node >= known_node_count) {
      error = at(path, i) + ": node index " + std::to_string(node) + " out of range (" +
              std::to_string(known_node_count) + " nodes)";
      return false;
    }
    out.indices.push_back(node);
  }
  return true;
}

bool parse_keyframes(const json& j, const std::string& path, std::vector<Keyframe>& out,
                     std::string& error) {
  if (!require_array(j, path, error)) return false;
  if (j.empty()) {
    error = path + ": must have at least one keyframe";
    return false;
  }
  std::vector<Keyframe> frames;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string p = at(path, i);
    Keyframe frame;
    if (!require_object(j[i], p, error) || !check_keys(j[i], p, {"time", "offset"}, error) ||
        !read_number(j[i], "time", p, any_value, frame.time, error) ||
        !read_vec3(j[i], "offset", p, frame.offset, error)) {
      return false;
    }
    if (!frames.empty() && frame.time <= frames.back().time) {
      error = join(p, "time") + ": keyframe times must be strictly increasing (got " +
              format_number(frame.time) + " after " + format_number(frames.back().time) + ")";
      return false;
    }
    frames.push_back(frame);
  }
  out = std::move(frames);
  return true;
}

bool parse_motion(const json& j, const std::string& path, Motion& motion, std::string& error) {
  if (!require_object(j, path, error) ||
      !read_enum(j, "type", path, {"hold", "sinusoid", "keyframes"}, motion.type, error)) {
    return false;
  }
  if (motion.type == "hold") return check_keys(j, path, {"type"}, error);
  if (motion.type == "keyframes") {
    if (!check_keys(j, path, {"type", "keyframes"}, error)) return false;
    const json* frames = find(j, "keyframes");
    if (frames == nullptr) {
      error = join(path, "keyframes") + ": required for a keyframes motion";
      return false;
    }
    return parse_keyframes(*frames, join(path, "keyframes"), motion.keyframes, error);
  }
  if (!check_keys(j, path, {"type", "axis", "amplitude", "frequency", "phase", "start", "stop"},
                  error) ||
      !read_vec3(j, "axis", path, motion.axis, error) ||
      !read_number(j, "amplitude", path, any_value, motion.amplitude, error) ||
      !read_number(j, "frequency", path, non_negative, motion.frequency, error) ||
      !read_number(j, "phase", path, any_value, motion.phase, error) ||
      !read_number(j, "start", path, any_value, motion.start, error) ||
      !read_number(j, "stop", path, any_value, motion.stop, error)) {
    return false;
  }
  // kept as given; cloth/controls.cpp takes its direction with stableNorm ([1e155, 1e155, 0]
  // is a direction too: its squared norm overflows, and normalized() left it unnormalized)
  const double axis_length = motion.axis.stableNorm();
  if (!(axis_length > 0) || !std::isfinite(axis_length)) {
    error = join(path, "axis") + ": must be non-zero";
    return false;
  }
  if (motion.stop <= motion.start) {
    error = join(path, "stop") + ": must be > start (" + format_number(motion.start) + ") (got " +
            format_number(motion.stop) + ")";
    return false;
  }
  return true;
}

// node count when the mesh description fixes it (explicit meshes, structured rectangles)
int known_node_count(const MeshDesc& mesh) {
  if (const auto* e = std::get_if<ExplicitMeshDesc>(&mesh)) {
    return static_cast<int>(e->vertices.size() / 3);
  }
  if (const auto* r = std::get_if<RectangleMeshDesc>(&mesh)) {
    if (r->elements != "tri_irregular") return r->nx * r->ny;
  }
  return -1;
}

bool parse_controls(const json& j, int node_count, std::vector<Control>& out, std::string& error) {
  if (!require_array(j, "controls", error)) return false;
  std::vector<Control> controls;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string p = at("controls", i);
    const json& c = j[i];
    if (!require_object(c, p, error) || !check_keys(c, p, {"nodes", "motion", "release"}, error)) {
      return false;
    }
    Control control;
    const json* nodes = find(c, "nodes");
    if (nodes == nullptr) {
      error = join(p, "nodes") + ": required (a node-set name or an array of node indices)";
      return false;
    }
    if (!parse_selector(*nodes, join(p, "nodes"), node_count, control.nodes, error)) return false;
    const json* motion = find(c, "motion");
    if (motion != nullptr && !parse_motion(*motion, join(p, "motion"), control.motion, error)) {
      return false;
    }
    if (!read_number(c, "release", p, positive, control.release, error)) return false;
    controls.push_back(std::move(control));
  }
  out = std::move(controls);
  return true;
}

bool parse_metrics(const json& j, std::vector<std::string>& out, std::string& error) {
  if (!require_array(j, "metrics", error)) return false;
  std::vector<std::string> metrics;
  for (std::size_t i = 0; i < j.size(); ++i) {
    std::string metric;
    if (!enum_value(j[i], at("metrics", i), {"drape_coefficient", "free_corner"}, metric, error)) {
      return false;
    }
    for (const std::string& previous : metrics) {
      if (previous == metric) {
        error = at("metrics", i) + ": \"" + metric + "\" is listed twice";
        return false;
      }
    }
    metrics.push_back(metric);
  }
  out = std::move(metrics);
  return true;
}

bool parse_seed(const json& j, std::uint64_t& seed, std::string& error) {
  if (j.is_number_unsigned()) {
    seed = j.get<std::uint64_t>();
    return true;
  }
  if (j.is_number_integer()) {
    error = "seed: must be >= 0 (got " + std::to_string(j.get<std::int64_t>()) + ")";
    return false;
  }
  double v = 0;
  if (!number_value(j, "seed", non_negative, v, error)) return false;
  if (v != std::floor(v) || v >= 18446744073709551616.0) {
    error = "seed: must be an integer in [0, 2^64) (got " + format_number(v) + ")";
    return false;
  }
  seed = static_cast<std::uint64_t>(v);
  return true;
}

// ---------------------------------------------------------------------------------------
// obstacles and self-collision (thesis ch. 3)

constexpr int max_obstacles = 64;
constexpr int max_stick_pieces = 10000;
constexpr int max_needles_per_side = 100;

bool read_unit_vec3(const json& object, const char* key, const std::string& path,
                    Eigen::Vector3d& out, std::string& error) {
  const json* j = find(object, key);
  if (j == nullptr) return true;
  Eigen::Vector3d v;
  if (!vec3_value(*j, join(path, key), v, error)) return false;
  const double norm = v.norm();
  if (!(norm > 1e-12) || !std::isfinite(norm)) {
    error = join(path, key) + ": must be a non-zero vector";
    return false;
  }
  out = v / norm;
  return true;
}

bool parse_obstacle_motion(const json& j, const std::string& path, ObstacleMotion& m,
                           std::string& error) {
  if (!require_object(j, path, error) || !check_keys(j, path, {"translation", "rotation"}, error)) {
    return false;
  }
  if (const json* t = find(j, "translation")) {
    if (!parse_motion(*t, join(path, "translation"), m.translation, error)) return false;
  }
  if (const json* r = find(j, "rotation")) {
    const std::string p = join(path, "rotation");
    if (!require_object(*r, p, error) ||
        !check_keys(*r, p, {"axis", "pivot", "angular_velocity", "start", "stop"}, error) ||
        !read_unit_vec3(*r, "axis", p, m.rotation_axis, error) ||
        !read_number(*r, "angular_velocity", p, any_value, m.angular_velocity, error) ||
        !read_number(*r, "start", p, any_value, m.rotation_start, error) ||
        !read_number(*r, "stop", p, any_value, m.rotation_stop, error)) {
      return false;
    }
    if (find(*r, "pivot") != nullptr) {
      if (!read_vec3(*r, "pivot", p, m.pivot, error)) return false;
      m.pivot_given = true;
    }
    if (m.rotation_stop <= m.rotation_start) {
      error = join(p, "stop") + ": must be > start (" + format_number(m.rotation_start) +
              ") (got " + format_number(m.rotation_stop) + ")";
      return false;
    }
  }
  return true;
}

bool parse_obstacle(const json& j, const std::string& p, ObstacleDesc& o, std::string& error) {
  if (!require_object(j, p, error)) return false;
  const json* type = find(j, "type");
  if (type == nullptr) {
    error = join(p, "type") + ": required (plane, box, sphere, cylinder, stick or needles)";
    return false;
  }
  if (!enum_value(*type, join(p, "type"), {"plane", "box", "sphere", "cylinder", "stick", "needles"},
                  o.type, error)) {
    return false;
  }
  bool ok = false;
  if (o.type == "plane") {
    ok = check_keys(j, p, {"type", "mu", "motion", "point", "normal"}, error) &&
         read_vec3(j, "point", p, o.point, error) && read_unit_vec3(j, "normal", p, o.normal, error);
  } else if (o.type == "box") {
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "size"}, error) &&
         read_vec3(j, "center", p, o.center, error) && read_vec3(j, "size", p, o.size, error);
    if (ok && !(o.size.minCoeff() > 0)) {
      error = join(p, "size") + ": every edge length must be > 0 (got [" + format_number(o.size.x()) +
              ", " + format_number(o.size.y()) + ", " + format_number(o.size.z()) + "])";
      ok = false;
    }
  } else if (o.type == "sphere") {
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "radius"}, error) &&
         read_vec3(j, "center", p, o.center, error) &&
         read_number(j, "radius", p, positive, o.radius, error);
  } else if (o.type == "cylinder") {
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "axis", "radius", "length"}, error) &&
         read_vec3(j, "center", p, o.center, error) && read_unit_vec3(j, "axis", p, o.axis, error) &&
         read_number(j, "radius", p, positive, o.radius, error) &&
         read_number(j, "length", p, non_negative, o.length, error);
  } else if (o.type == "stick") {
    ok = check_keys(j, p, {"type", "mu", "motion", "points", "radius", "segment"}, error) &&
         read_number(j, "radius", p, positive, o.radius, error) &&
         read_number(j, "segment", p, positive, o.segment, error);
    if (ok) {
      const json* points = find(j, "points");
      const std::string pp = join(p, "points");
      if (points == nullptr) {
        error = pp + ": required (the stick's polyline, at least 2 points)";
        return false;
      }
      if (!require_array(*points, pp, error)) return false;
      if (points->size() < 2) {
        error = pp + ": must have at least 2 points (got " + std::to_string(points->size()) + ")";
        return false;
      }
      o.points.clear();
      double pieces = 0;
      for (std::size_t i = 0; i < points->size(); ++i) {
        Eigen::Vector3d v;
        if (!vec3_value((*points)[i], at(pp, i), v, error)) return false;
        if (!o.points.empty()) {
          const double length = (v - o.points.back()).norm();
          if (!(length > 0)) {
            error = at(pp, i) + ": repeats the previous point (a stick edge of zero length)";
            return false;
          }
          pieces += std::ceil(length / o.segment);
        }
        o.points.push_back(v);
      }
      if (pieces > max_stick_pieces) {
        error = join(p, "segment") + ": the stick would have " + format_number(pieces) +
                " edges (at most " + std::to_string(max_stick_pieces) + "); use a longer segment";
        return false;
      }
    }
  } else {  // needles
    std::vector<int> count{o.count_x, o.count_y};
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "spacing", "count", "c1", "c2"}, error) &&
         read_vec3(j, "center", p, o.center, error) &&
         read_number(j, "spacing", p, positive, o.spacing, error) &&
         read_number(j, "c1", p, positive, o.c1, error) &&
         read_number(j, "c2", p, positive, o.c2, error);
    if (ok) {
      if (const json* c = find(j, "count")) {
        const std::string cp = join(p, "count");
        if (!c->is_array() || c->size() != 2) {
          error = cp + ": must be an array of 2 integers [nx, ny]";
          return false;
        }
        if (!int_value((*c)[0], at(cp, 0), 1, max_needles_per_side, o.count_x, error) ||
            !int_value((*c)[1], at(cp, 1), 1, max_needles_per_side, o.count_y, error)) {
          return false;
        }
      }
      if (o.spacing * o.c1 < 2) {
        error = join(p, "spacing") + ": needles of base radius 1/c1 = " + format_number(1 / o.c1) +
                " m overlap; spacing must be >= 2/c1 = " + format_number(2 / o.c1) + " (got " +
                format_number(o.spacing) + ")";
        return false;
      }
    }
  }
  if (!ok || !read_number(j, "mu", p, non_negative, o.mu, error)) return false;
  if (const json* m = find(j, "motion")) {
    if (!parse_obstacle_motion(*m, join(p, "motion"), o.motion, error)) return false;
  }
  if (!o.motion.pivot_given) {
    o.motion.pivot = o.type == "plane" ? o.point
                     : o.type == "stick" ? 0.5 * (o.points.front() + o.points.back())
                                         : o.center;
  }
  return true;
}

// a second obstacle that duplicates or hides inside a first one is almost always a mistake
// (and a concave crease of two solids is better given as one); report it
std::string obstacle_overlap(const ObstacleDesc& a, const ObstacleDesc& b) {
  const bool static_pair = a.motion.translation.type == "hold" && a.motion.angular_velocity == 0 &&
                           b.motion.translation.type == "hold" && b.motion.angular_velocity == 0;
  if (!static_pair) return {};
  if (a.type == b.type) {
    if (a.type == "plane" && (a.normal - b.normal).norm() < 1e-12 &&
        std::fabs((b.point - a.point).dot(a.normal)) < 1e-12) {
      return "is the same plane as";
    }
    if (a.type == "sphere" && (a.center - b.center).norm() + std::min(a.radius, b.radius) <=
                                  std::max(a.radius, b.radius)) {
      return "lies inside (or is the same sphere as)";
    }
    if (a.type == "box") {
      const Eigen::Vector3d alo = a.center - 0.5 * a.size, ahi = a.center + 0.5 * a.size;
      const Eigen::Vector3d blo = b.center - 0.5 * b.size, bhi = b.center + 0.5 * b.size;
      const bool b_in_a = (blo.array() >= alo.array()).all() && (bhi.array() <= ahi.array()).all();
      const bool a_in_b = (alo.array() >= blo.array()).all() && (ahi.array() <= bhi.array()).all();
      if (b_in_a || a_in_b) return "lies inside (or is the same box as)";
    }
    if (a.type == "cylinder" && (a.center - b.center).norm() < 1e-12 && (a.axis - b.axis).norm() < 1e-12 &&
        a.radius == b.radius && a.length == b.length) {
      return "is the same cylinder as";
    }
  }
  // a sphere or box entirely below a plane is hidden inside the plane's solid
  auto below = [](const ObstacleDesc& plane, const ObstacleDesc& o) {
    if (plane.type != "plane") return false;
    if (o.type == "sphere") return (o.center - plane.point).dot(plane.normal) + o.radius <= 0;
    if (o.type == "box") {
      const double reach = 0.5 * o.size.cwiseProduct(plane.normal.cwiseAbs()).sum();
      return (o.center - plane.point).dot(plane.normal) + reach <= 0;
    }
    return false;
  };
  if (below(a, b) || below(b, a)) return "lies entirely inside the solid below the plane of";
  return {};
}

bool parse_obstacles(const json& j, std::vector<ObstacleDesc>& out, std::string& error) {
  if (!require_array(j, "obstacles", error)) return false;
  if (j.size() > static_cast<std::size_t>(max_obstacles)) {
    error = "obstacles: at most " + std::to_string(max_obstacles) + " obstacles (got " +
            std::to_string(j.size()) + ")";
    return false;
  }
  std::vector<ObstacleDesc> obstacles;
  for (std::size_t i = 0; i < j.size(); ++i) {
    ObstacleDesc o;
    if (!parse_obstacle(j[i], at("obstacles", i), o, error)) return false;
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
      const std::string why = obstacle_overlap(obstacles[k], o);
      if (!why.empty()) {
        error = at("obstacles", i) + ": " + why + " obstacles[" + std::to_string(k) +
                "]; remove one of them";
        return false;
      }
    }
    obstacles.push_back(std::move(o));
  }
  out = std::move(obstacles);
  return true;
}

bool parse_self_collision(const json& j, SelfCollision& out, std::string& error) {
  const std::string p = "self_collision";
  SelfCollision self;
  if (!require_object(j, p, error) ||
      !check_keys(j, p, {"enabled", "thickness", "mu", "proximity"}, error) ||
      !read_number(j, "thickness", p, Range{0.0, 0.1, false, false}, self.thickness, error) ||
      !read_number(j, "mu", p, non_negative, self.mu, error) ||
      !read_number(j, "proximity", p, Range{0.0, 0.5, false, false}, self.proximity, error)) {
    return false;
  }
  if (const json* e = find(j, "enabled")) {
    if (!e->is_boolean()) {
      error = "self_collision.enabled: must be true or false" + got(*e);
      return false;
    }
    self.enabled = e->get<bool>();
  }
  out = self;
  return true;
}

bool parse_root(const json& root, Scenario& s, std::string& error) {
  if (!root.is_object()) {
    error = "scenario: must be a JSON object" + got(root);
    return false;
  }
  const json* version = find(root, "version");
  if (version == nullptr) {
    error = "version: required (this tela reads scenario files of version 1)";
    return false;
  }
  if (!version->is_number()) {
    error = "version: must be an integer" + got(*version);
    return false;
  }
  if (version->get<double>() != 1.0) {
    error = "version: unsupported scenario version " + json_text(*version) +
            " (this tela reads version 1)";
    return false;
  }
  s.version = 1;
  if (!check_keys(root, "", {"version", "name", "description", "mesh", "material", "solver",
                             "duration", "controls", "metrics", "seed", "obstacles",
                             "self_collision"}, error) ||
      !read_string(root, "name", "", s.name, error) ||
      !read_string(root, "description", "", s.description, error)) {
    return false;
  }
  const json* mesh = find(root, "mesh");
  if (mesh == nullptr) {
    error = "mesh: required";
    return false;
  }
  if (!parse_mesh(*mesh, s.mesh, error)) return false;
  if (const json* j = find(root, "material"); j && !parse_material(*j, s.material, error)) return false;
  if (const json* j = find(root, "solver"); j && !parse_solver(*j, s.solver, error)) return false;
  if (!read_number(root, "duration", "", Range{0.0, 3600.0, true, false}, s.duration, error)) {
    return false;
  }
  if (const json* j = find(root, "controls");
      j && !parse_controls(*j, known_node_count(s.mesh), s.controls, error)) {
    return false;
  }
  if (const json* j = find(root, "metrics"); j && !parse_metrics(*j, s.metrics, error)) return false;
  if (const json* j = find(root, "seed"); j && !parse_seed(*j, s.seed, error)) return false;
  if (const json* j = find(root, "obstacles"); j && !parse_obstacles(*j, s.obstacles, error)) return false;
  if (const json* j = find(root, "self_collision");
      j && !parse_self_collision(*j, s.self_collision, error)) {
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------
// serialization (insertion-ordered so the file reads top-down)

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

// like nlohmann's pretty printer, but arrays of scalars stay on one line ("origin": [0.0,
// 0.0, 1.0]), so vectors, index lists, vertices and faces read one per line
void write_pretty(const ordered_json& j, int indent, int depth, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent) * static_cast<std::size_t>(depth + 1), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent) * static_cast<std::size_t>(depth), ' ');
  if (j.is_object() && !j.empty()) {
    out += "{\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!first) out += ",\n";
      first = false;
      out += pad + json_text(ordered_json(it.key())) + ": ";
      write_pretty(it.value(), indent, depth + 1, out);
    }
    out += "\n" + close_pad + "}";
    return;
  }
  if (j.is_array() && !j.empty()) {
    bool scalars = true;
    for (const ordered_json& element : j) scalars = scalars && !element.is_structured();
    if (scalars) {
      out += "[";
      for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + json_text(j[i]);
      out += "]";
      return;
    }
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i) out += ",\n";
      out += pad;
      write_pretty(j[i], indent, depth + 1, out);
    }
    out += "\n" + close_pad + "]";
    return;
  }
  out += json_text(j);
}

}  // namespace

std::string json_syntax_error(const std::string& json_text) {
  SyntaxCheck check;
  if (json::sax_parse(json_text, &check)) return {};
  return check.error.empty() ? "invalid JSON" : check.error;
}

Result<Scenario> parse_scenario(const std::string& json_text) {
  if (std::string error = json_syntax_error(json_text); !error.empty()) return Result<Scenario>::failure(error);
  const json root = json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) return Result<Scenario>::failure("invalid JSON");
  Scenario scenario;
  std::string error;
  if (!parse_root(root, scenario, error)) return Result<Scenario>::failure(error);
  return Result<Scenario>::success(std::move(scenario));
}

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
  // contact sections only when used, so that contact-free scenarios read as before
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
  if (indent < 0) return json_text(j);
  std::string out;
  write_pretty(j, indent, 0, out);
  return out;
}

}  // namespace tela
