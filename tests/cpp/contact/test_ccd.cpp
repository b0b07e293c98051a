// Cubic CCD (thesis §3.3.1): roots of the coplanarity cubic, node-face and edge-edge hits and
// misses, including parallel, touching and coplanar motions.
#include "contact/ccd/coplanarity.h"
#include "contact/ccd/cubic_roots.h"
#include "contact/ccd/edge_edge.h"
#include "contact/ccd/point_triangle.h"
#include "base/portable_random.h"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>

namespace {

using V = Eigen::Vector3d;
constexpr double tol = 1e-9;

}  // namespace

TEST_SUITE("contact") {

TEST_CASE("cubic roots in [0, 1]: simple, triple, double (touching) and none") {
  double r[3];
  // (t - 0.2)(t - 0.5)(t - 0.9)
  int n = tela::cubic_roots_unit_interval(1, -1.6, 0.73, -0.09, 1e-15, r);
  REQUIRE(n == 3);
  CHECK(r[0] == doctest::Approx(0.2).epsilon(1e-12));
  CHECK(r[1] == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(r[2] == doctest::Approx(0.9).epsilon(1e-12));
  // roots outside: (t + 1)(t - 2)(t - 3)
  CHECK(tela::cubic_roots_unit_interval(1, -4, 1, 6, 1e-15, r) == 0);
  // double root at 0.5 (tangential touch, no sign change): (t - 0.5)^2 (t + 1)
  n = tela::cubic_roots_unit_interval(1, 0, -0.75, 0.25, 1e-15, r);
  REQUIRE(n == 1);
  CHECK(r[0] == doctest::Approx(0.5).epsilon(1e-9));
  // linear and constant cases
  n = tela::cubic_roots_unit_interval(0, 0, 2, -1, 1e-15, r);
  REQUIRE(n == 1);
  CHECK(r[0] == doctest::Approx(0.5));
  CHECK(tela::cubic_roots_unit_interval(0, 0, 0, 1, 1e-15, r) == 0);
  CHECK(tela::cubic_roots_unit_interval(0, 0, 0, 0, 1e-15, r) == -1);
  // root exactly at the end of the step (touching at t1)
  n = tela::cubic_roots_unit_interval(0, 0, 1, -1, 1e-15, r);
  REQUIRE(n == 1);
  CHECK(r[0] == 1.0);
}

TEST_CASE("the coplanarity cubic matches the determinant at random times") {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    tela::MovingPoints m;
    for (int i = 0; i < 4; ++i) {
      m.t0[i] = V(tela::uniform_real(rng, -1, 1), tela::uniform_real(rng, -1, 1), tela::uniform_real(rng, -1, 1));
      m.t1[i] = V(tela::uniform_real(rng, -1, 1), tela::uniform_real(rng, -1, 1), tela::uniform_real(rng, -1, 1));
    }
    const auto a = tela::coplanarity_cubic(m);
    for (double tau : {0.0, 0.3, 0.77, 1.0}) {
      const V x1 = m.at(0, tau) - m.at(3, tau), x2 = m.at(1, tau) - m.at(3, tau), x3 = m.at(2, tau) - m.at(3, tau);
      const double det = x1.dot(x2.cross(x3));
      CHECK(((a[0] * tau + a[1]) * tau + a[2]) * tau + a[3] == doctest::Approx(det).epsilon(1e-10));
    }
  }
}

TEST_CASE("node-face CCD: a node falling through a triangle hits it, one falling beside misses") {
  const V a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  // through the interior at tau = 0.5
  auto r = tela::point_triangle_ccd(a, b, c, V(0.2, 0.2, 1), a, b, c, V(0.2, 0.2, -1), tol);
  CHECK(r.hit);
  CHECK(r.tau == doctest::Approx(0.5));
  // beside the triangle (x + y > 1)
  CHECK_FALSE(tela::point_triangle_ccd(a, b, c, V(0.8, 0.8, 1), a, b, c, V(0.8, 0.8, -1), tol).hit);
  // stops short of the face
  CHECK_FALSE(tela::point_triangle_ccd(a, b, c, V(0.2, 0.2, 1), a, b, c, V(0.2, 0.2, 0.01), tol).hit);
  // the triangle moves up through a resting node
  CHECK(tela::point_triangle_ccd(a, b, c, V(0.3, 0.3, 0.5), a + V(0, 0, 1), b + V(0, 0, 1), c + V(0, 0, 1),
                                 V(0.3, 0.3, 0.5), tol).hit);
}

TEST_CASE("node-face CCD: touching at the end of the step, on an edge and at a vertex") {
  const V a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  const auto end = tela::point_triangle_ccd(a, b, c, V(0.2, 0.2, 1), a, b, c, V(0.2, 0.2, 0), tol);
  CHECK(end.hit);
  CHECK(end.tau == 1.0);
  CHECK(tela::point_triangle_ccd(a, b, c, V(0.5, 0, 1), a, b, c, V(0.5, 0, -1), tol).hit);  // edge
  CHECK(tela::point_triangle_ccd(a, b, c, V(0, 0, 1), a, b, c, V(0, 0, -1), tol).hit);      // vertex
  // just outside the edge by 1 micrometre: a miss
  CHECK_FALSE(tela::point_triangle_ccd(a, b, c, V(0.5, -1e-6, 1), a, b, c, V(0.5, -1e-6, -1), tol).hit);
}

TEST_CASE("node-face CCD: motion parallel to the face never hits; motion within its plane does") {
  const V a(0, 0, 0), b(1, 0, 0), c(0, 1, 0);
  // parallel to the plane, 1 mm above it, across the triangle
  CHECK_FALSE(tela::point_triangle_ccd(a, b, c, V(-1, 0.2, 1e-3), a, b, c, V(2, 0.2, 1e-3), tol).hit);
  // within the plane, from outside into the triangle (coplanar throughout: the cubic vanishes)
  const auto in_plane = tela::point_triangle_ccd(a, b, c, V(-1, 0.2, 0), a, b, c, V(0.5, 0.2, 0), tol);
  CHECK(in_plane.hit);
  CHECK(in_plane.tau == doctest::Approx(2.0 / 3.0).epsilon(1e-6));
  // within the plane but passing beside the triangle
  CHECK_FALSE(tela::point_triangle_ccd(a, b, c, V(-1, 1.5, 0), a, b, c, V(2, 1.5, 0), tol).hit);
}

TEST_CASE("edge-edge CCD: crossing edges hit, passing edges miss") {
  // edge 1 along x at height z moving down through edge 2 along y at z = 0
  const V q0(0.5, -1, 0), q1(0.5, 1, 0);
  const auto r = tela::edge_edge_ccd(V(0, 0, 1), V(1, 0, 1), q0, q1, V(0, 0, -1), V(1, 0, -1), q0, q1, tol);
  CHECK(r.hit);
  CHECK(r.tau == doctest::Approx(0.5));
  // edge 1 passes beyond the end of edge 2 (y = 2 > 1)
  CHECK_FALSE(tela::edge_edge_ccd(V(0, 2, 1), V(1, 2, 1), q0, q1, V(0, 2, -1), V(1, 2, -1), q0, q1, tol).hit);
  // edge 1 is too short to reach edge 2 (x in [0, 0.4])
  CHECK_FALSE(tela::edge_edge_ccd(V(0, 0, 1), V(0.4, 0, 1), q0, q1, V(0, 0, -1), V(0.4, 0, -1), q0, q1, tol).hit);
  // the two edges end touching at an end point (touching at t1)
  const auto touch = tela::edge_edge_ccd(V(0.5, 1, 1), V(0.5, 3, 1), q0, q1, V(0.5, 1, 0), V(0.5, 3, 0), q0, q1, tol);
  CHECK(touch.hit);
}

TEST_CASE("edge-edge CCD: parallel edges crossing, parallel edges passing, and skew near misses") {
  // parallel edges (always coplanar): edge 1 along x moves down through edge 2 along x
  const V q0(0, 0, 0), q1(1, 0, 0);
  const auto cross = tela::edge_edge_ccd(V(0.2, 0, 0.7), V(1.2, 0, 0.7), q0, q1, V(0.2, 0, -0.3), V(1.2, 0, -0.3),
                                         q0, q1, tol);
  CHECK(cross.hit);
  CHECK(cross.tau == doctest::Approx(0.7).epsilon(1e-6));
  // parallel, but offset sideways by 1 cm: the edges pass each other
  CHECK_FALSE(tela::edge_edge_ccd(V(0.2, 0.01, 0.7), V(1.2, 0.01, 0.7), q0, q1, V(0.2, 0.01, -0.3),
                                  V(1.2, 0.01, -0.3), q0, q1, tol).hit);
  // parallel and disjoint along their line (x in [2, 3])
  CHECK_FALSE(tela::edge_edge_ccd(V(2, 0, 1), V(3, 0, 1), q0, q1, V(2, 0, -1), V(3, 0, -1), q0, q1, tol).hit);
  // skew edges that stop 1 micrometre short of each other
  const V p0(0.5, -1, 0), p1(0.5, 1, 0);
  CHECK_FALSE(tela::edge_edge_ccd(V(0, 0, 1), V(1, 0, 1), p0, p1, V(0, 0, 1e-6), V(1, 0, 1e-6), p0, p1, tol).hit);
}

TEST_CASE("CCD agrees with a fine time sampling on random motions") {
  // a reference: the sign of the signed volume changes and the 2-D test passes at the root
  std::mt19937_64 rng(11);
  int hits = 0;
  for (int trial = 0; trial < 1000; ++trial) {
    V p[4], q[4];
    for (int i = 0; i < 4; ++i) {
      p[i] = V(tela::uniform_real(rng, 0, 1), tela::uniform_real(rng, 0, 1), tela::uniform_real(rng, -0.2, 0.2));
      q[i] = p[i] + V(tela::uniform_real(rng, -0.3, 0.3), tela::uniform_real(rng, -0.3, 0.3),
                      tela::uniform_real(rng, -0.6, 0.6));
    }
    const bool ccd = tela::point_triangle_ccd(p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3], tol).hit;
    // reference: bisection on each sign change of the signed distance over 2000 samples
    bool ref = false;
    auto at = [&](int i, double t) { return V(p[i] + t * (q[i] - p[i])); };
    auto vol = [&](double t) {
      return (at(1, t) - at(0, t)).cross(at(2, t) - at(0, t)).dot(at(3, t) - at(0, t));
    };
    for (int k = 0; k < 2000 && !ref; ++k) {
      double lo = k / 2000.0, hi = (k + 1) / 2000.0;
      double flo = vol(lo), fhi = vol(hi);
      if ((flo < 0) == (fhi < 0)) continue;
      for (int it = 0; it < 100; ++it) {
        const double mid = 0.5 * (lo + hi);
        if ((vol(mid) < 0) == (flo < 0)) lo = mid; else hi = mid;
      }
      const double t = 0.5 * (lo + hi);
      // inside test by barycentric coordinates of the projected point
      const V a = at(0, t), b = at(1, t), c = at(2, t), x = at(3, t);
      const V n = (b - a).cross(c - a);
      const double area = n.squaredNorm();
      const double u = (c - b).cross(x - b).dot(n) / area, v = (a - c).cross(x - c).dot(n) / area;
      ref = u >= -1e-9 && v >= -1e-9 && 1 - u - v >= -1e-9;
    }
    hits += ref;
    CHECK(ccd == ref);
  }
  CHECK(hits > 20);  // the sample exercises both outcomes
}

}  // TEST_SUITE
