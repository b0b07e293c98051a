// The contact providers: rows for nodes near obstacles (normal, offset, surface velocity),
// needle cusps and stick edges (contact/obstacle_contacts.h); self-collision rows for a node
// that crosses a face or comes within the thickness, and the final omega = 0 check
// (contact/self_collision_contacts.h).
#include "contact/obstacle_contacts.h"
#include "contact/self_collision.h"
#include "contact/self_collision_contacts.h"
#include "geometry/generators.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

using V = Eigen::Vector3d;

// two separate triangles: a lower one (nodes 0-2) at z = 0 and a single node 3 above it
tela::Mesh two_layer_mesh() {
  tela::Mesh mesh;
  mesh.positions.resize(6, 3);
  mesh.positions << 0, 0, 0, 1, 0, 0, 0, 1, 0,  //
      0.2, 0.2, 0.5, 1.2, 0.2, 0.5, 0.2, 1.2, 0.5;
  tela::Face a, b;
  a.v = {0, 1, 2, -1};
  b.v = {3, 4, 5, -1};
  mesh.faces = {a, b};
  return mesh;
}

std::vector<tela::ContactConstraint> rows_of(tela::ContactProvider& provider, const tela::Positions& start,
                                             const tela::Positions& current, double t0 = 0, double t1 = 0.01) {
  std::vector<tela::ContactConstraint> rows;
  provider.contacts(tela::ContactQuery{start, current, t0, t1, 0, 0}, rows);
  return rows;
}

// a 30 cm sheet of 4 x 4 nodes at height z over one needle (tip at 7.5 cm, under the interior
// of a face), and the provider for that needle
struct SheetOverNeedle {
  tela::Mesh mesh;
  tela::ObstacleContacts provider;
};
SheetOverNeedle sheet_over_needle(double z) {
  tela::RectangleSpec spec;
  spec.width = 0.3;
  spec.height = 0.3;
  spec.nx = 4;
  spec.ny = 4;
  spec.origin = V(-0.15 + 0.013, -0.15 + 0.021, z);
  tela::Mesh mesh = tela::make_rectangle(spec);
  const tela::Obstacle needles{tela::NeedleField{V(0, 0, 0), 0.15, 1, 1, 20, 0.075}, 0.3};
  tela::ObstacleContacts provider(mesh, {needles}, tela::ContactSettings{}, std::vector<char>(mesh.node_count(), 0));
  return {std::move(mesh), std::move(provider)};
}

}  // namespace

TEST_SUITE("contact") {

TEST_CASE("provider: a node near the floor gets a row n . x >= n . closest + tau0 / 2") {
  tela::Mesh mesh = two_layer_mesh();
  const tela::Obstacle floor{tela::Plane{V(0, 0, -0.003), V(0, 0, 1)}, 0.4};
  const tela::ContactSettings settings;  // thickness 3 mm
  tela::ObstacleContacts provider(mesh, {floor}, settings, std::vector<char>(6, 0));
  const auto rows = rows_of(provider, mesh.positions, mesh.positions);
  // nodes 0-2 are 3 mm above the floor (within 1.5 mm + 5 mm), nodes 3-5 are far
  REQUIRE(rows.size() == 3);
  for (const auto& r : rows) {
    CHECK(r.nodes[0] < 3);
    CHECK(r.nodes[1] == -1);
    CHECK(r.weights[0] == 1.0);
    CHECK((r.normal - V(0, 0, 1)).norm() < 1e-15);
    CHECK(r.offset == doctest::Approx(-0.003 + 0.0015));
    CHECK(r.mu == 0.4);
    CHECK(tela::contact_gap(r, mesh.positions) == doctest::Approx(0.0015));
    CHECK(r.source == 1);
  }
  // penetration: depth below the surface, not below the clearance
  tela::Positions inside = mesh.positions;
  inside(0, 2) = -0.005;
  CHECK(provider.penetration(inside, 0) == doctest::Approx(0.002));
}

TEST_CASE("provider: a spinning sphere hands its surface velocity to friction") {
  tela::Mesh mesh = two_layer_mesh();
  const V center(0.2, 0.2 - 0.3, 0.5);  // node 3 sits on the sphere's +y side, 1 mm out
  tela::Obstacle sphere{tela::Sphere{center, 0.299}, 0.5};
  sphere.motion.pivot = center;
  sphere.motion.rotation_axis = V(0, 0, 1);
  sphere.motion.angular_velocity = 2.0;
  tela::ObstacleContacts provider(mesh, {sphere}, tela::ContactSettings{}, std::vector<char>(6, 0));
  const auto rows = rows_of(provider, mesh.positions, mesh.positions, 1.0, 1.001);
  const tela::ContactConstraint* r = nullptr;
  for (const auto& row : rows)
    if (row.nodes[0] == 3) r = &row;
  REQUIRE(r != nullptr);
  CHECK((r->normal - V(0, 1, 0)).norm() < 1e-12);
  // omega x (closest - centre) = 2 z x 0.299 y = -0.598 x
  CHECK((r->surface_velocity - V(-0.598, 0, 0)).norm() < 1e-3);
}

TEST_CASE("self-collision: a node falling through a face gets a row that holds at the start") {
  tela::Mesh mesh = two_layer_mesh();
  const tela::CollisionMesh cm = tela::collision_mesh(mesh);
  tela::Positions start = mesh.positions, current = mesh.positions;
  current.row(3) = V(0.2, 0.2, -0.2);  // node 3 passes through triangle 0-1-2
  current.row(4) = V(1.2, 0.2, -0.2);
  current.row(5) = V(0.2, 1.2, -0.2);
  tela::SelfCollisionSettings settings;
  const auto contacts = tela::self_collisions(cm, start, current, std::vector<char>(6, 0), settings);
  bool found = false;
  for (const auto& c : contacts) {
    if (c.kind != tela::SelfPairKind::node_face || c.a != 3) continue;
    found = true;
    CHECK(c.crossing);
    CHECK(c.row.nodes == std::array<int, 4>{3, 0, 1, 2});
    CHECK((c.row.normal - V(0, 0, 1)).norm() < 1e-12);  // oriented toward node 3's side at the start
    CHECK(tela::contact_gap(c.row, start) == doctest::Approx(0.5 - 0.003));
    CHECK(tela::contact_gap(c.row, current) < 0);  // violated where the iterate went
    // barycentric weights of (0.2, 0.2) in the triangle
    CHECK(c.row.weights[1] == doctest::Approx(-0.6));
    CHECK(c.row.weights[2] == doctest::Approx(-0.2));
    CHECK(c.row.weights[3] == doctest::Approx(-0.2));
  }
  CHECK(found);
  // the final omega = 0 check rejects the crossing, and accepts a motion that stops above
  tela::ContactSettings self;
  self.self_collision = true;
  tela::SelfCollisionContacts provider(mesh, self, std::vector<char>(6, 0));
  CHECK_FALSE(provider.accept(tela::ContactQuery{start, current, 0, 0.01, 3, 0}));
  tela::Positions above = mesh.positions;
  for (int k = 3; k < 6; ++k) above(k, 2) = 0.0025;
  CHECK(provider.accept(tela::ContactQuery{start, above, 0, 0.01, 3, 0}));
  // ... while the proximity detection constrains that approach (2.5 mm apart, closer than
  // tau0 = 3 mm: the omega tau0 displacement of each side by 1.5 mm makes them cross)
  const auto near = rows_of(provider, start, above);
  bool constrained = false;
  for (const auto& r : near) constrained = constrained || (r.nodes[0] == 3 && r.nodes[1] == 0);
  CHECK(constrained);
}

TEST_CASE("self-collision: layers resting closer than the thickness are constrained without any crossing") {
  tela::Mesh mesh = two_layer_mesh();
  tela::Positions rest = mesh.positions;
  for (int k = 3; k < 6; ++k) rest(k, 2) = 0.002;  // 2 mm above, thickness 3 mm
  const tela::CollisionMesh cm = tela::collision_mesh(mesh);
  tela::SelfCollisionSettings settings;
  const auto contacts = tela::self_collisions(cm, rest, rest, std::vector<char>(6, 0), settings);
  bool found = false;
  for (const auto& c : contacts)
    if (c.kind == tela::SelfPairKind::node_face && c.a == 3) {
      found = true;
      CHECK(tela::contact_gap(c.row, rest) == doctest::Approx(-0.001));
    }
  CHECK(found);
  settings.close_pairs = false;
  settings.omega = 0;
  CHECK(tela::self_collisions(cm, rest, rest, std::vector<char>(6, 0), settings).empty());
}

TEST_CASE("needle cusps are point obstacles for the cloth's faces") {
  auto [mesh, provider] = sheet_over_needle(0.078);  // 3 mm above the tip
  tela::Positions current = mesh.positions;
  current.col(2).array() -= 0.01;  // the sheet moves 1 cm down: through the tip
  const auto rows = rows_of(provider, mesh.positions, current);
  int cusp_rows = 0;
  for (const auto& r : rows) {
    if (r.source != 100001) continue;  // obstacle 0, tip 0
    ++cusp_rows;
    CHECK(r.nodes[3] == -1);
    CHECK(r.weights[0] + r.weights[1] + r.weights[2] == doctest::Approx(1.0));
    CHECK((r.normal - V(0, 0, 1)).norm() < 1e-12);
    CHECK(r.offset == doctest::Approx(0.075 + 0.0015));
    CHECK(tela::contact_gap(r, mesh.positions) > 0);
    CHECK(tela::contact_gap(r, current) < 0);
  }
  CHECK(cusp_rows == 1);
}

TEST_CASE("a sheet resting on a cusp at the clearance and moving through it gets the cusp row") {
  // the sheet lies on the tip as the solver leaves it (1.5 mm above, the clearance) and falls
  // 1 cm in the step: with each side displaced by omega tau0 = the whole clearance, the
  // displaced CCD would start past the tip and the tip would be out of reach at the end (the
  // needles scene's cloth then falls through every tip)
  auto [mesh, provider] = sheet_over_needle(0.075 + 0.0015);
  for (const double fall : {0.0005, 0.01, 0.05}) {
    CAPTURE(fall);
    tela::Positions current = mesh.positions;
    current.col(2).array() -= fall;
    int cusp_rows = 0;
    for (const auto& r : rows_of(provider, mesh.positions, current))
      if (r.source == 100001) {
        ++cusp_rows;
        CHECK(tela::contact_gap(r, mesh.positions) == doctest::Approx(0).epsilon(1e-9));
        CHECK(tela::contact_gap(r, current) == doctest::Approx(-fall));
      }
    CHECK(cusp_rows == 1);
  }
}

TEST_CASE("stick edges give edge-edge rows against the cloth edges they sweep through") {
  tela::RectangleSpec spec;
  spec.width = 0.2;
  spec.height = 0.2;
  spec.nx = 3;
  spec.ny = 3;
  spec.plane = tela::MeshPlane::xz;
  spec.origin = V(-0.1, 0, 0.9);
  tela::Mesh mesh = tela::make_rectangle(spec);
  tela::Obstacle stick{tela::Stick{{V(-0.3, -0.05, 0.95), V(0.3, -0.05, 0.95)}, 0.0075, 0.05}};
  stick.motion.pivot = V(0, -0.05, 0.95);
  stick.motion.translation.kind = tela::MotionKind::keyframes;
  stick.motion.translation.keyframes = {{0.0, V(0, 0, 0)}, {0.01, V(0, 0.1, 0)}};  // through y = 0 in one step
  tela::ObstacleContacts provider(mesh, {stick}, tela::ContactSettings{}, std::vector<char>(mesh.node_count(), 0));
  const auto rows = rows_of(provider, mesh.positions, mesh.positions, 0.0, 0.01);
  int edge_rows = 0;
  for (const auto& r : rows) {
    if (r.source <= 100000) continue;
    ++edge_rows;
    CHECK(r.nodes[2] == -1);
    CHECK(r.normal.y() > 0.99);  // the cloth stays on its side of the stick at t0: +y
    CHECK(tela::contact_gap(r, mesh.positions) < 0);  // the stick went through: violated
    CHECK(r.surface_velocity.y() == doctest::Approx(10.0));
  }
  CHECK(edge_rows > 0);
}

}  // TEST_SUITE
