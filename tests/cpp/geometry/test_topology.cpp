// Mesh topology: edges, boundary edges and loops, corners, lumped areas.
#include "geometry/generators.h"
#include "geometry/topology.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

using namespace tela;

namespace {

double sum(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

Mesh rectangle(int nx, int ny, ElementKind kind, double width = 1.0, double height = 1.0) {
  RectangleSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  spec.width = width;
  spec.height = height;
  spec.elements = kind;
  return make_rectangle(spec);
}

// twice the signed area enclosed by a loop, in the xy plane
double loop_area2(const Mesh& mesh, const std::vector<int>& loop) {
  double a = 0;
  for (std::size_t k = 0; k < loop.size(); ++k) {
    const int p = loop[k], q = loop[(k + 1) % loop.size()];
    a += mesh.positions(p, 0) * mesh.positions(q, 1) - mesh.positions(q, 0) * mesh.positions(p, 1);
  }
  return a;
}

// the directed sides (a, b) of all faces, in their winding
std::set<std::pair<int, int>> face_sides(const Mesh& mesh) {
  std::set<std::pair<int, int>> sides;
  for (const Face& f : mesh.faces)
    for (int k = 0; k < f.size(); ++k) sides.insert({f.v[k], f.v[(k + 1) % f.size()]});
  return sides;
}

// each step of each loop is a side of a face traversed in the face's winding
bool loops_follow_faces(const Mesh& mesh, const BoundaryLoops& loops) {
  const std::set<std::pair<int, int>> sides = face_sides(mesh);
  for (const std::vector<int>& loop : loops.loops)
    for (std::size_t k = 0; k < loop.size(); ++k)
      if (!sides.count({loop[k], loop[(k + 1) % loop.size()]})) return false;
  return true;
}

}  // namespace

TEST_CASE("mesh_edges: counts on quad and triangle grids, sorted and unique") {
  for (auto [nx, ny] : {std::pair<int, int>{2, 2}, {3, 3}, {7, 9}, {10, 4}}) {
    const std::vector<Edge> quad_edges = mesh_edges(rectangle(nx, ny, ElementKind::quad));
    CHECK(quad_edges.size() == static_cast<std::size_t>(nx * (ny - 1) + ny * (nx - 1)));
    CHECK(std::is_sorted(quad_edges.begin(), quad_edges.end()));
    CHECK(std::adjacent_find(quad_edges.begin(), quad_edges.end()) == quad_edges.end());
    for (const Edge& e : quad_edges) CHECK(e[0] < e[1]);
    // triangles add one diagonal per cell
    for (ElementKind kind : {ElementKind::tri_right, ElementKind::tri_left})
      CHECK(mesh_edges(rectangle(nx, ny, kind)).size() ==
            static_cast<std::size_t>(nx * (ny - 1) + ny * (nx - 1) + (nx - 1) * (ny - 1)));
  }
  // quad diagonals are not edges
  const std::vector<Edge> edges = mesh_edges(rectangle(2, 2, ElementKind::quad));
  CHECK(edges == std::vector<Edge>{{0, 1}, {0, 2}, {1, 3}, {2, 3}});
}

TEST_CASE("boundary_edges: the perimeter of a grid") {
  const Mesh mesh = rectangle(5, 4, ElementKind::tri_left);
  const std::vector<Edge> edges = boundary_edges(mesh);
  CHECK(edges.size() == 2 * 4 + 2 * 3);
  CHECK(std::is_sorted(edges.begin(), edges.end()));
  const std::vector<int>& boundary = mesh.node_sets.at("boundary");
  const std::set<int> on_boundary(boundary.begin(), boundary.end());
  for (const Edge& e : edges) CHECK((on_boundary.count(e[0]) && on_boundary.count(e[1])));
}

TEST_CASE("boundary_loops: a rectangle has one loop, in order, oriented like its faces") {
  for (ElementKind kind : {ElementKind::quad, ElementKind::tri_right, ElementKind::tri_left}) {
    const int nx = 6, ny = 4;
    const Mesh mesh = rectangle(nx, ny, kind, 0.6, 0.3);
    const BoundaryLoops loops = boundary_loops(mesh);
    CHECK(loops.ok);
    CHECK(loops.message.empty());
    REQUIRE(loops.loops.size() == 1);
    CHECK(loops.loops[0].size() == static_cast<std::size_t>(2 * (nx + ny) - 4));
    // the generator's boundary set is the same loop, from the same start
    CHECK(loops.loops[0] == mesh.node_sets.at("boundary"));
    CHECK(loops_follow_faces(mesh, loops));
    // counter-clockwise: encloses +width*height
    CHECK(loop_area2(mesh, loops.loops[0]) == doctest::Approx(2 * 0.6 * 0.3));
  }
}

TEST_CASE("boundary_loops: irregular rectangle") {
  RectangleSpec spec;
  spec.elements = ElementKind::tri_irregular;
  spec.irregular_nodes = 321;
  spec.width = 0.8;
  spec.height = 0.5;
  spec.seed = 17;
  const Mesh mesh = make_rectangle(spec);
  const BoundaryLoops loops = boundary_loops(mesh);
  CHECK(loops.ok);
  REQUIRE(loops.loops.size() == 1);
  CHECK(loops.loops[0] == mesh.node_sets.at("boundary"));
  CHECK(loops_follow_faces(mesh, loops));
  CHECK(loop_area2(mesh, loops.loops[0]) == doctest::Approx(2 * 0.8 * 0.5));
}

TEST_CASE("boundary_loops: a ring has two loops, the outer (longer) first") {
  DiscSpec spec;
  spec.radius = 0.2;
  spec.inner_radius = 0.08;
  spec.rings = 5;
  spec.sectors = 40;
  const Mesh mesh = make_disc(spec);
  const BoundaryLoops loops = boundary_loops(mesh);
  CHECK(loops.ok);
  REQUIRE(loops.loops.size() == 2);
  CHECK(loops.loops[0] == mesh.node_sets.at("boundary"));
  CHECK(loops.loops[1] == mesh.node_sets.at("inner_boundary"));
  CHECK(loops_follow_faces(mesh, loops));
  // outer counter-clockwise, inner clockwise (the cloth is on the left of both)
  CHECK(loop_area2(mesh, loops.loops[0]) > 0);
  CHECK(loop_area2(mesh, loops.loops[1]) < 0);
}

TEST_CASE("boundary_loops: non-manifold input is reported") {
  SUBCASE("two triangles touching at one node (bowtie)") {
    Mesh mesh;
    mesh.positions.resize(5, 3);
    mesh.positions << 0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 1, 0, 2, 2, 0;
    mesh.faces = {Face{{0, 1, 2, -1}}, Face{{2, 3, 4, -1}}};
    const BoundaryLoops loops = boundary_loops(mesh);
    CHECK(!loops.ok);
    CHECK(loops.message.find("node 2") != std::string::npos);
    CHECK(loops.loops.empty());
    // the edge lists do not need manifoldness
    CHECK(boundary_edges(mesh).size() == 6);
  }
  SUBCASE("three triangles on one edge") {
    Mesh mesh;
    mesh.positions.resize(5, 3);
    mesh.positions << 0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1;
    mesh.faces = {Face{{0, 1, 2, -1}}, Face{{1, 0, 3, -1}}, Face{{0, 1, 4, -1}}};
    const BoundaryLoops loops = boundary_loops(mesh);
    CHECK(!loops.ok);
    CHECK(loops.message.find("(0, 1)") != std::string::npos);
  }
  SUBCASE("inconsistently oriented neighbours") {
    Mesh mesh;
    mesh.positions.resize(4, 3);
    mesh.positions << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0;
    mesh.faces = {Face{{0, 1, 2, -1}}, Face{{0, 3, 2, -1}}};
    const BoundaryLoops loops = boundary_loops(mesh);
    CHECK(!loops.ok);
    CHECK(loops.message.find("orientation") != std::string::npos);
  }
}

TEST_CASE("corner_nodes: the four corners of rectangles, none on discs and rings") {
  for (ElementKind kind : {ElementKind::quad, ElementKind::tri_right, ElementKind::tri_left,
                           ElementKind::tri_irregular}) {
    RectangleSpec spec;
    spec.nx = 7;
    spec.ny = 5;
    spec.width = 0.42;
    spec.height = 0.3;
    spec.plane = MeshPlane::yz;
    spec.elements = kind;
    const Mesh mesh = make_rectangle(spec);
    CHECK(corner_nodes(mesh) == mesh.node_sets.at("corners"));
  }
  DiscSpec disc;
  CHECK(corner_nodes(make_disc(disc)).empty());
  disc.inner_radius = 0.05;
  CHECK(corner_nodes(make_disc(disc)).empty());
  // a coarse polygon does have corners: a 6-sided ring turns by 60 degrees at each node
  disc.sectors = 6;
  CHECK(corner_nodes(make_disc(disc)).size() == 12);
  CHECK(corner_nodes(make_disc(disc), 1.1).empty());
}

TEST_CASE("lumped_areas: uniform 3x3 grid with h = 1 (docs/math.md §1.4 test vector)") {
  const Mesh mesh = rectangle(3, 3, ElementKind::quad, 2.0, 2.0);
  const std::vector<double> m = lumped_areas(mesh);
  const double expected[9] = {0.25, 0.5, 0.25, 0.5, 1.0, 0.5, 0.25, 0.5, 0.25};
  for (int k = 0; k < 9; ++k) CHECK(m[k] == doctest::Approx(expected[k]).epsilon(1e-14));
  // spacing h: interior h^2, edge h^2 / 2, corner h^2 / 4
  const Mesh fine = rectangle(5, 4, ElementKind::quad, 0.4, 0.3);  // h = 0.1
  const std::vector<double> mf = lumped_areas(fine);
  CHECK(mf[0] == doctest::Approx(0.0025));
  CHECK(mf[2] == doctest::Approx(0.005));
  CHECK(mf[5 + 2] == doctest::Approx(0.01));
  CHECK(mf[19] == doctest::Approx(0.0025));
}

TEST_CASE("lumped_areas: triangles get a third of each incident triangle") {
  const Mesh mesh = rectangle(3, 3, ElementKind::tri_right, 2.0, 2.0);
  const std::vector<double> m = lumped_areas(mesh);
  // tri_right: the bottom-left and top-right corners touch two triangles, the others one
  CHECK(m[0] == doctest::Approx(1.0 / 3));
  CHECK(m[2] == doctest::Approx(1.0 / 6));
  CHECK(m[4] == doctest::Approx(1.0));  // six triangles of area 1/2
  CHECK(sum(m) == doctest::Approx(4.0));
}

TEST_CASE("lumped_areas: sum to the total area on every mesh, also curved ones") {
  std::vector<Mesh> meshes;
  for (ElementKind kind : {ElementKind::quad, ElementKind::tri_right, ElementKind::tri_left,
                           ElementKind::tri_irregular}) {
    RectangleSpec spec;
    spec.nx = 9;
    spec.ny = 7;
    spec.width = 0.5;
    spec.height = 0.35;
    spec.elements = kind;
    meshes.push_back(make_rectangle(spec));
    spec.noise = 0.01;  // non-planar elements
    meshes.push_back(make_rectangle(spec));
  }
  DiscSpec disc;
  meshes.push_back(make_disc(disc));
  disc.inner_radius = 0.04;
  disc.noise = 0.005;
  meshes.push_back(make_disc(disc));
  for (const Mesh& mesh : meshes) {
    const std::vector<double> m = lumped_areas(mesh);
    REQUIRE(m.size() == static_cast<std::size_t>(mesh.node_count()));
    for (double mk : m) CHECK(mk > 0);
    // the same quadrature as face_areas, so the sums agree to rounding
    CHECK(sum(m) == doctest::Approx(sum(face_areas(mesh, mesh.positions))).epsilon(1e-12));
  }
  CHECK(sum(lumped_areas(meshes[0])) == doctest::Approx(0.5 * 0.35).epsilon(1e-12));
}
