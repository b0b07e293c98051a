// Exact triangle-triangle intersection: crossing, touching, coplanar and separated cases;
// the mesh-level count on flat, folded and self-intersecting sheets; and the exact
// orientation predicate where plain floating point gets the sign wrong.
#include "contact/intersection/orient3d.h"
#include "contact/intersection/triangle_triangle.h"
#include "contact/self_collision.h"
#include "geometry/generators.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

using V = Eigen::Vector3d;

bool tt(const V& a0, const V& a1, const V& a2, const V& b0, const V& b1, const V& b2) {
  // symmetric in the two triangles and in the vertex order
  const bool r = tela::triangles_intersect(a0, a1, a2, b0, b1, b2);
  CHECK(tela::triangles_intersect(b0, b1, b2, a0, a1, a2) == r);
  CHECK(tela::triangles_intersect(a2, a0, a1, b1, b0, b2) == r);
  return r;
}

}  // namespace

TEST_SUITE("contact") {

TEST_CASE("orient3d: exact sign on nearly coplanar points") {
  CHECK(tela::orient3d_sign(V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0.3, 0.3, 1e-300)) == 1);
  CHECK(tela::orient3d_sign(V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0.3, 0.3, -1e-300)) == -1);
  CHECK(tela::orient3d_sign(V(0, 0, 0), V(1, 0, 0), V(0, 1, 0), V(0.3, 0.3, 0)) == 0);
  // four points on the plane x + y + z = 1 given with inexact decimals: exactly coplanar only
  // if the rounded inputs are; the predicate must agree with itself under permutation
  const V a(0.1, 0.2, 0.7), b(0.3, 0.3, 0.4), c(0.6, 0.1, 0.3), d(0.2, 0.5, 0.3);
  const int s = tela::orient3d_sign(a, b, c, d);
  CHECK(tela::orient3d_sign(b, a, c, d) == -s);
  CHECK(tela::orient3d_sign(a, b, d, c) == -s);
  CHECK(tela::orient3d_sign(b, c, a, d) == s);
  // large coordinates, the fourth point one unit in the last place above the plane
  const double big = 1e8, ulp = std::ldexp(1.0, -26);
  const V p(big, big, big), q(big + 1, big, big), r(big, big + 1, big);
  CHECK(tela::orient3d_sign(p, q, r, V(big + 0.5, big + 0.5, big + ulp)) == 1);
  CHECK(tela::orient3d_sign(p, q, r, V(big + 0.5, big + 0.5, big - ulp)) == -1);
  CHECK(tela::orient3d_sign(p, q, r, V(big + 0.5, big + 0.5, big)) == 0);
  // a nearly degenerate configuration where the filter must fall back to exact arithmetic:
  // a point on the line through two others, slightly perturbed
  const V a1(0.1, 0.1, 0.1), b1(0.7, 0.3, 0.9), c1(0.4, 0.9, 0.2);
  const V on = a1 + 0.3 * (b1 - a1) + 0.3 * (c1 - a1);  // rounded: within ~1e-17 of the plane
  const int s_on = tela::orient3d_sign(a1, b1, c1, on);
  CHECK(tela::orient3d_sign(b1, a1, c1, on) == -s_on);
  CHECK(tela::orient3d_sign(a1, b1, on, c1) == -s_on);
}

TEST_CASE("triangle pairs: crossing, piercing, separated, parallel") {
  const V a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  // a vertical triangle piercing the interior
  CHECK(tt(a0, a1, a2, V(0.2, 0.2, -0.5), V(0.3, 0.2, 0.5), V(0.2, 0.3, 0.5)));
  // crossing along a segment through both
  CHECK(tt(a0, a1, a2, V(-0.5, 0.3, -0.5), V(1.5, 0.3, -0.5), V(0.5, 0.3, 0.5)));
  // parallel planes 1 mm apart
  CHECK_FALSE(tt(a0, a1, a2, V(0, 0, 1e-3), V(1, 0, 1e-3), V(0, 1, 1e-3)));
  // a vertical triangle beside the hypotenuse (x + y > 1)
  CHECK_FALSE(tt(a0, a1, a2, V(0.6, 0.6, -0.5), V(0.7, 0.6, 0.5), V(0.6, 0.7, 0.5)));
  // the plane is cut but the triangles miss each other
  CHECK_FALSE(tt(a0, a1, a2, V(2, 2, -1), V(3, 2, 1), V(2, 3, 1)));
}

TEST_CASE("triangle pairs: touching at a vertex, along an edge, and vertex on a face") {
  const V a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  CHECK(tt(a0, a1, a2, V(1, 0, 0), V(2, 0, 1), V(2, 1, 1)));          // a shared point
  CHECK(tt(a0, a1, a2, V(0, 0, 0), V(1, 0, 0), V(0.5, -1, 1)));       // a shared edge
  CHECK(tt(a0, a1, a2, V(0.2, 0.2, 0), V(0.2, 0.2, 1), V(0.5, 0.5, 1)));  // vertex on the face
  CHECK_FALSE(tt(a0, a1, a2, V(0.2, 0.2, 1e-12), V(0.2, 0.2, 1), V(0.5, 0.5, 1)));  // a hair above
}

TEST_CASE("triangle pairs: coplanar overlap, containment, touching and disjoint") {
  const V a0(0, 0, 0), a1(1, 0, 0), a2(0, 1, 0);
  CHECK(tt(a0, a1, a2, V(0.5, 0.5, 0), V(-0.5, 0.5, 0), V(0.5, -0.5, 0)));    // overlapping
  CHECK(tt(a0, a1, a2, V(0.1, 0.1, 0), V(0.3, 0.1, 0), V(0.1, 0.3, 0)));      // contained
  CHECK(tt(a0, a1, a2, V(0.5, 0.5, 0), V(1, 1, 0), V(1.5, 0.2, 0)));          // touching at a point
  CHECK_FALSE(tt(a0, a1, a2, V(0.6, 0.6, 0), V(1, 1, 0), V(1.5, 0.2, 0)));    // disjoint
}

TEST_CASE("mesh check: a flat sheet and a clean fold have none, a sheet folded through itself has some") {
  tela::RectangleSpec spec;
  spec.width = 0.4;
  spec.height = 0.4;
  spec.nx = 9;
  spec.ny = 9;
  tela::Mesh mesh = tela::make_rectangle(spec);
  const tela::CollisionMesh cm = tela::collision_mesh(mesh);
  CHECK(tela::intersecting_triangle_pairs(cm.triangles, mesh.positions).empty());
  // fold along y = 0.2 onto itself with a 3 mm gap: upper half mirrored above the lower one
  tela::Positions folded = mesh.positions;
  for (int k = 0; k < mesh.node_count(); ++k) {
    const double y = folded(k, 1);
    if (y > 0.2) {
      folded(k, 1) = 0.4 - y;
      folded(k, 2) = 0.003 * (y - 0.2) / 0.05 > 0.003 ? 0.003 : 0.003 * (y - 0.2) / 0.05;
    }
  }
  CHECK(tela::intersecting_triangle_pairs(cm.triangles, folded).empty());
  // push the folded half 1 mm below the lower half in a band: they cross
  tela::Positions crossed = folded;
  for (int k = 0; k < mesh.node_count(); ++k)
    if (mesh.positions(k, 1) > 0.3) crossed(k, 2) = -0.001;
  CHECK_FALSE(tela::intersecting_triangle_pairs(cm.triangles, crossed).empty());
}

}  // TEST_SUITE
