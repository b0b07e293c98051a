// The scene's contact provider (cloth/scene_contacts.h): obstacle rows, then the strain
// limit's rows, then self-collision rows, in that order at every call; accept() is the
// self-collision check.
#include "cloth/scene_contacts.h"

#include <doctest/doctest.h>

namespace {

using V = Eigen::Vector3d;

// two separate triangles: a lower one (nodes 0-2) at z = 0 and an upper one (nodes 3-5) 2 mm
// above it, closer than the 3 mm thickness
tela::Mesh two_layer_mesh() {
  tela::Mesh mesh;
  mesh.positions.resize(6, 3);
  mesh.positions << 0, 0, 0, 1, 0, 0, 0, 1, 0,  //
      0.2, 0.2, 0.002, 1.2, 0.2, 0.002, 0.2, 1.2, 0.002;
  tela::Face a, b;
  a.v = {0, 1, 2, -1};
  b.v = {3, 4, 5, -1};
  mesh.faces = {a, b};
  return mesh;
}

}  // namespace

TEST_SUITE("cloth") {

TEST_CASE("scene contacts: obstacle rows, then strain-limit rows, then self-collision rows") {
  const tela::Mesh mesh = two_layer_mesh();
  const tela::Obstacle floor{tela::Plane{V(0, 0, -0.001), V(0, 0, 1)}, 0.4};
  tela::ContactSettings settings;
  settings.self_collision = true;
  const std::vector<char> none(6, 0);
  tela::SceneContacts provider(mesh, {floor}, settings, none, 0.04);
  REQUIRE(provider.strain_limit().enabled());

  tela::Positions current = mesh.positions;
  current.row(1) << 1.2, 0, 0;  // the lower triangle's edges 0-1 and 1-2 stretched
  std::vector<tela::ContactConstraint> rows;
  provider.contacts(tela::ContactQuery{mesh.positions, current, 0, 0.01, 0, 0}, rows);

  // each kind of row is there, in one block, the blocks in the order obstacle, strain, self
  auto kind = [](const tela::ContactConstraint& c) {
    return c.source == tela::kStrainLimitSource ? 1 : c.source > 0 ? 0 : 2;
  };
  int counts[3] = {0, 0, 0};
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ++counts[kind(rows[i])];
    if (i > 0) CHECK(kind(rows[i - 1]) <= kind(rows[i]));
  }
  CHECK(counts[0] > 0);
  CHECK(counts[1] == 2);
  CHECK(counts[2] > 0);

  // the same rows as the parts report on their own, in that order
  std::vector<tela::ContactConstraint> parts;
  const tela::ContactQuery query{mesh.positions, current, 0, 0.01, 0, 0};
  tela::ObstacleContacts(mesh, {floor}, settings, none).contacts(query, parts);
  tela::StrainLimit(mesh, 0.04).rows(current, none, parts);
  tela::SelfCollisionContacts(mesh, settings, none).contacts(query, parts);
  REQUIRE(parts.size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    CHECK(parts[i].nodes == rows[i].nodes);
    CHECK(parts[i].source == rows[i].source);
    CHECK(parts[i].offset == rows[i].offset);
  }

  // accept(): the upper layer dropping through the lower one is rejected, staying above is not
  tela::Positions through = mesh.positions;
  for (int k = 3; k < 6; ++k) through(k, 2) = -0.2;
  CHECK_FALSE(provider.accept(tela::ContactQuery{mesh.positions, through, 0, 0.01, 3, 0}));
  CHECK(provider.accept(tela::ContactQuery{mesh.positions, mesh.positions, 0, 0.01, 3, 0}));
}

}  // TEST_SUITE
