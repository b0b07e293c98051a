// Broad phase: the uniform grid finds exactly the overlapping pairs that all-pairs testing
// finds, on random boxes and on the swept primitives of random crumpled meshes.
#include "contact/broad_phase/uniform_grid.h"
#include "contact/self_collision.h"
#include "geometry/generators.h"
#include "base/portable_random.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <limits>

namespace {

using V = Eigen::Vector3d;

std::vector<std::pair<int, int>> brute_force(const std::vector<tela::Aabb>& a, const std::vector<tela::Aabb>& b,
                                             bool same) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < static_cast<int>(a.size()); ++i)
    for (int j = same ? i + 1 : 0; j < static_cast<int>(b.size()); ++j)
      if (a[i].overlaps(b[j])) out.emplace_back(i, j);
  return out;
}

tela::Aabb random_box(std::mt19937_64& rng, double extent, double size) {
  const V c(tela::uniform_real(rng, 0, extent), tela::uniform_real(rng, 0, extent), tela::uniform_real(rng, 0, extent));
  const V h(tela::uniform_real(rng, 0, size), tela::uniform_real(rng, 0, size), tela::uniform_real(rng, 0, size));
  return tela::Aabb{c - h, c + h};
}

}  // namespace

TEST_SUITE("contact") {

TEST_CASE("uniform grid = all pairs on random boxes (one set and two sets, any cell size)") {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<tela::Aabb> a, b;
    const int na = 50 + tela::uniform_index(rng, 200), nb = 50 + tela::uniform_index(rng, 200);
    for (int i = 0; i < na; ++i) a.push_back(random_box(rng, 1.0, 0.05));
    for (int i = 0; i < nb; ++i) b.push_back(random_box(rng, 1.0, trial % 2 ? 0.2 : 0.02));
    const double cell = trial % 3 == 0 ? 0.01 : trial % 3 == 1 ? 0.1 : 0.7;
    CHECK(tela::overlapping_pairs(a, a, true, cell) == brute_force(a, a, true));
    CHECK(tela::overlapping_pairs(a, b, false, cell) == brute_force(a, b, false));
  }
}

TEST_CASE("uniform grid: far-away boxes and boxes with NaN or infinite corners (a diverged cloth)") {
  // without clamping, a box with a NaN low corner and a finite high one would walk the cells
  // from the cast of NaN (undefined; INT64_MIN on x86) to its high corner: a hang
  std::mt19937_64 rng(11);
  std::vector<tela::Aabb> a;
  for (int i = 0; i < 60; ++i) a.push_back(random_box(rng, 1.0, 0.05));
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  a.push_back(tela::Aabb{V(nan, 0.2, 0.2), V(0.5, 0.5, 0.5)});
  a.push_back(tela::Aabb{V(0.2, 0.2, 0.2), V(nan, nan, nan)});
  a.push_back(tela::Aabb{V(1e300, 1e300, 1e300), V(1e300, 1e300, 1e300)});
  a.push_back(tela::Aabb{V(-1e300, 0.3, 0.3), V(-1e300, 0.4, 0.4)});
  a.push_back(tela::Aabb{V(1e300, 1e300, 1e300), V(1e300, 1e300, 1e300)});  // overlaps the one above
  a.push_back(tela::Aabb{V(0.3, 0.3, 0.3), V(inf, 0.4, 0.4)});
  std::vector<std::pair<int, int>> expected;
  for (const auto& [i, j] : brute_force(a, a, true))
    if (a[i].lo.allFinite() && a[i].hi.allFinite() && a[j].lo.allFinite() && a[j].hi.allFinite())
      expected.emplace_back(i, j);
  for (double cell : {0.01, 0.1})
    CHECK(tela::overlapping_pairs(a, a, true, cell) == expected);
  const std::vector<std::pair<int, int>> pairs = tela::overlapping_pairs(a, a, true, 0.01);
  CHECK(std::find(pairs.begin(), pairs.end(), std::make_pair(62, 64)) != pairs.end());
}

TEST_CASE("uniform grid = all pairs for the swept node, triangle and edge boxes of crumpled meshes") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 5; ++trial) {
    tela::RectangleSpec spec;
    spec.width = 0.5;
    spec.height = 0.5;
    spec.nx = 12;
    spec.ny = 12;
    tela::Mesh mesh = tela::make_rectangle(spec);
    const tela::CollisionMesh cm = tela::collision_mesh(mesh);
    // crumple: random displacements of the order of the edge length, and a random motion
    tela::Positions start = mesh.positions, end = mesh.positions;
    for (int k = 0; k < mesh.node_count(); ++k) {
      for (int c = 0; c < 3; ++c) start(k, c) += tela::uniform_real(rng, -0.05, 0.05);
      for (int c = 0; c < 3; ++c) end(k, c) = start(k, c) + tela::uniform_real(rng, -0.02, 0.02);
    }
    std::vector<tela::Aabb> nodes, tris, edges;
    for (int k = 0; k < mesh.node_count(); ++k) {
      tela::Aabb box = tela::Aabb::of_point(start.row(k).transpose());
      box.expand(end.row(k).transpose());
      box.inflate(0.003);
      nodes.push_back(box);
    }
    for (const auto& t : cm.triangles) {
      tela::Aabb box = nodes[t[0]];
      for (int i = 1; i < 3; ++i) {
        box.lo = box.lo.cwiseMin(nodes[t[i]].lo);
        box.hi = box.hi.cwiseMax(nodes[t[i]].hi);
      }
      tris.push_back(box);
    }
    for (const auto& e : cm.edges) {
      tela::Aabb box = nodes[e[0]];
      box.lo = box.lo.cwiseMin(nodes[e[1]].lo);
      box.hi = box.hi.cwiseMax(nodes[e[1]].hi);
      edges.push_back(box);
    }
    const auto node_face = tela::overlapping_pairs(nodes, tris, false, cm.mean_edge_length);
    const auto edge_edge = tela::overlapping_pairs(edges, edges, true, cm.mean_edge_length);
    CHECK(node_face == brute_force(nodes, tris, false));
    CHECK(edge_edge == brute_force(edges, edges, true));
    // and far fewer than all pairs
    CHECK(node_face.size() < nodes.size() * tris.size() / 4);
  }
}

}  // TEST_SUITE
