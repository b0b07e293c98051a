// The mesh section: a rectangle, a disc or ring (generated), or an explicit mesh.
#include "scenario/parse_sections.h"

#include "base/json_read.h"

#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>

namespace tela {
namespace {

using json = nlohmann::json;

constexpr int max_grid_nodes_per_side = 1000;
constexpr int max_irregular_nodes = 200000;
constexpr int max_disc_rings = 1000;
constexpr int max_disc_sectors = 1000;
constexpr double kPi = 3.14159265358979323846;

// The generators move every node off the sheet's plane by a random amount of standard
// deviation `noise` (geometry/generators.h). Beyond half the mean node spacing the rest shape
// is a crumpled surface rather than a sheet with small defects: a clear error instead of a
// simulation of that.
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
      !read_number(m, "width", p, kPositive, r.width, error) ||
      !read_number(m, "height", p, kPositive, r.height, error) ||
      !read_int(m, "nx", p, 2, max_grid_nodes_per_side, r.nx, error) ||
      !read_int(m, "ny", p, 2, max_grid_nodes_per_side, r.ny, error) ||
      !read_enum(m, "elements", p, {"quad", "tri", "tri_left", "tri_irregular"}, r.elements, error) ||
      !read_int(m, "nodes", p, 0, max_irregular_nodes, r.nodes, error) ||
      !read_enum(m, "plane", p, {"xy", "xz", "yz"}, r.plane, error) ||
      !read_vec3(m, "origin", p, r.origin, error) ||
      !read_number(m, "noise", p, kNonNegative, r.noise, error)) {
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
      !read_number(m, "radius", p, kPositive, d.radius, error) ||
      // a ring needs two circles (inner and outer boundary); a disc one circle around its centre
      !read_int(m, "rings", p, ring ? 2 : 1, max_disc_rings, d.rings, error) ||
      !read_int(m, "sectors", p, 3, max_disc_sectors, d.sectors, error) ||
      !read_enum(m, "plane", p, {"xy", "xz", "yz"}, d.plane, error) ||
      !read_vec3(m, "center", p, d.center, error) ||
      !read_number(m, "noise", p, kNonNegative, d.noise, error)) {
    return false;
  }
  if (!ring) {
    d.inner_radius = 0.0;
    return check_noise(d.noise, kPi * d.radius * d.radius, d.rings * d.sectors, error);
  }
  const json* inner = find_member(m, "inner_radius");
  if (inner == nullptr) {
    error = "mesh.inner_radius: required for a ring (0 < inner_radius < radius)";
    return false;
  }
  return number_value(*inner, "mesh.inner_radius",
                      NumberRange{0.0, d.radius, true, true}, d.inner_radius, error) &&
         check_noise(d.noise, kPi * (d.radius * d.radius - d.inner_radius * d.inner_radius),
                     d.rings * d.sectors, error);
}

bool parse_explicit_mesh(const json& m, ExplicitMeshDesc& e, std::string& error) {
  if (!check_keys(m, "mesh", {"type", "vertices", "faces"}, error)) return false;
  const json* vertices = find_member(m, "vertices");
  if (vertices == nullptr) {
    error = "mesh.vertices: required for type \"mesh\"";
    return false;
  }
  if (!require_array(*vertices, "mesh.vertices", error)) return false;
  std::vector<double> coordinates;
  coordinates.reserve(3 * vertices->size());
  const bool triples = !vertices->empty() && vertices->front().is_array();
  for (std::size_t i = 0; i < vertices->size(); ++i) {
    const std::string path = element_path("mesh.vertices", i);
    if (triples) {
      Eigen::Vector3d v;
      if (!vec3_value((*vertices)[i], path, v, error)) return false;
      coordinates.insert(coordinates.end(), {v.x(), v.y(), v.z()});
    } else {
      double x = 0;
      if (!number_value((*vertices)[i], path, kAnyNumber, x, error)) return false;
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

  const json* faces = find_member(m, "faces");
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
    const std::string path = element_path("mesh.faces", f);
    if (!require_array(face, path, error)) return false;
    if (face.size() != 3 && face.size() != 4) {
      error = path + ": must have 3 or 4 node indices (got " + std::to_string(face.size()) + ")";
      return false;
    }
    std::vector<int> nodes;
    for (std::size_t k = 0; k < face.size(); ++k) {
      int node = 0;
      if (!int_value(face[k], element_path(path, k), 0, INT_MAX, node, error)) return false;
      if (static_cast<std::size_t>(node) >= vertex_count) {
        error = element_path(path, k) + ": node index " + std::to_string(node) + " out of range (" +
                std::to_string(vertex_count) + " vertices)";
        return false;
      }
      for (int previous : nodes) {
        if (previous == node) {
          error = element_path(path, k) + ": node index " + std::to_string(node) +
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

}  // namespace

bool parse_mesh(const json& m, MeshDesc& out, std::string& error) {
  if (!require_object(m, "mesh", error)) return false;
  const json* type = find_member(m, "type");
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

int known_node_count(const MeshDesc& mesh) {
  if (const auto* e = std::get_if<ExplicitMeshDesc>(&mesh)) {
    return static_cast<int>(e->vertices.size() / 3);
  }
  if (const auto* r = std::get_if<RectangleMeshDesc>(&mesh)) {
    if (r->elements != "tri_irregular") return r->nx * r->ny;
  }
  return -1;
}

}  // namespace tela
