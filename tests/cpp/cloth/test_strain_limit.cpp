// The strain limit (cloth/strain_limit.h): which element pairs it watches, the rows it makes
// for pairs near or beyond (1 + epsilon) of their rest distance, and that those rows are
// unilateral: shortening a pair (a fold) is never limited.
#include "cloth/strain_limit.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

// one unit quad (nodes 0-3, counter-clockwise) and one triangle (nodes 1, 4, 2) sharing edge 1-2
tela::Mesh quad_and_triangle() {
  tela::Mesh mesh;
  mesh.positions.resize(5, 3);
  mesh.positions << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0.5, 0;
  tela::Face quad, tri;
  quad.v = {0, 1, 2, 3};
  tri.v = {1, 4, 2, -1};
  mesh.faces = {quad, tri};
  return mesh;
}

}  // namespace

TEST_SUITE("cloth") {

TEST_CASE("strain limit: quad edges and diagonals, triangle edges, each pair once; off at epsilon 0") {
  const tela::Mesh mesh = quad_and_triangle();
  // quad: 4 edges + 2 diagonals; triangle: 3 edges, one (1-2) shared with the quad
  CHECK(tela::StrainLimit(mesh, 0.04).pair_count() == 8);
  CHECK(tela::StrainLimit(mesh, 0.04).enabled());
  CHECK_FALSE(tela::StrainLimit(mesh, 0.0).enabled());
  CHECK_FALSE(tela::StrainLimit().enabled());
  CHECK(tela::StrainLimit(mesh, 0.04).max_stretch(mesh.positions) == doctest::Approx(0.0));
}

TEST_CASE("strain limit: rows for stretched pairs, gap = (1 + eps) l0 - |x_a - x_b| at the linearization point") {
  const tela::Mesh mesh = quad_and_triangle();
  const double eps = 0.04;
  const tela::StrainLimit limit(mesh, eps);
  const std::vector<char> none(5, 0);
  std::vector<tela::ContactConstraint> rows;

  // at rest, and with every pair shortened (the quad folded over its diagonal 0-2): no rows
  limit.rows(mesh.positions, none, rows);
  CHECK(rows.empty());
  tela::Positions folded = mesh.positions;
  folded.row(3) << 0.5, 0.5, 0.3;  // corner 3 folded up over the diagonal 0-2: its pairs shorten
  limit.rows(folded, none, rows);
  CHECK(rows.empty());

  // node 4 pulled out: edges 1-4 and 2-4 (rest sqrt(1.25)) stretched by about 10 % and 6 %
  tela::Positions pulled = mesh.positions;
  pulled.row(4) << 2.1, 0.45, 0;
  rows.clear();
  limit.rows(pulled, none, rows);
  REQUIRE(rows.size() == 2);
  for (const tela::ContactConstraint& c : rows) {
    CAPTURE(c.nodes[0]);
    CAPTURE(c.nodes[1]);
    CHECK(c.nodes[1] == 4);
    CHECK(c.source == tela::kStrainLimitSource);
    CHECK(c.mu == 0);
    const int a = c.nodes[0], b = c.nodes[1];
    const double rest = (mesh.positions.row(a) - mesh.positions.row(b)).norm();
    const double now = (pulled.row(a) - pulled.row(b)).norm();
    CHECK(tela::contact_gap(c, pulled) == doctest::Approx((1 + eps) * rest - now));
    CHECK(tela::contact_gap(c, pulled) < 0);  // violated: the solver must pull the pair in
    // moving node 4 back along the pair direction by the violation meets the row exactly
    tela::Positions fixed = pulled;
    fixed.row(b) -= tela::contact_gap(c, pulled) * c.normal.transpose();
    CHECK(tela::contact_gap(c, fixed) == doctest::Approx(0.0).epsilon(1e-12));
  }
  CHECK(limit.max_stretch(pulled) ==
        doctest::Approx((pulled.row(2) - pulled.row(4)).norm() / std::sqrt(1.25) - 1));  // 2-4, the longer

  // a pair between the report threshold (1 + 0.8 eps) and the limit gets a row that holds
  tela::Positions near = mesh.positions;
  near.row(4) = mesh.positions.row(1) + (1 + 0.9 * eps) * (mesh.positions.row(4) - mesh.positions.row(1));
  rows.clear();
  limit.rows(near, none, rows);
  bool found = false;
  for (const tela::ContactConstraint& c : rows)
    if (c.nodes[0] == 1 && c.nodes[1] == 4) {
      found = true;
      CHECK(tela::contact_gap(c, near) > 0);
    }
  CHECK(found);

  // both nodes controlled: nothing can move them, no row
  std::vector<char> held(5, 0);
  held[1] = held[4] = 1;
  held[2] = 1;
  rows.clear();
  limit.rows(pulled, held, rows);
  CHECK(rows.empty());
}

}  // TEST_SUITE
