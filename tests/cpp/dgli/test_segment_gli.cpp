// Segment GLI, linking numbers and the segment dGLI (docs/math.md §5.1-5.2).
#include "dgli/segment_dgli.h"
#include "dgli/segment_gli.h"
#include "base/portable_random.h"

#include <doctest/doctest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <random>

using namespace tela;

namespace {

using Polygon = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

// n-gon on the circle centre + r (cos a u + sin a v)
Polygon circle(const Point3& centre, const Point3& u, const Point3& v, double r, int n, double phase = 0) {
  Polygon p(n, 3);
  for (int k = 0; k < n; ++k) {
    double s = 0, c = 0;
    portable_sin_cos_turns(phase + static_cast<double>(k) / n, &s, &c);
    p.row(k) = (centre + r * (c * u + s * v)).transpose();
  }
  return p;
}

Point3 random_point(std::mt19937_64& rng, double half = 1.0) {
  return Point3(uniform_real(rng, -half, half), uniform_real(rng, -half, half), uniform_real(rng, -half, half));
}

double segment_distance(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
  // brute force on a fine grid is enough for choosing test data
  double best = 1e300;
  for (int i = 0; i <= 200; ++i)
    for (int j = 0; j <= 200; ++j)
      best = std::min(best, ((a + (b - a) * (i / 200.0)) - (c + (d - c) * (j / 200.0))).norm());
  return best;
}

// a careful central difference of the well-conditioned solid-angle GLI with one Richardson
// step (error O(h^4)); a check of the analytic derivative, not its implementation
double dgli_by_differences(const Point3& a, const Point3& b, const Point3& c, const Point3& d,
                           const Point3& e, double h) {
  auto central = [&](double step) {
    return (segment_gli_solid_angle(a, b + step * e, c, d + step * e) -
            segment_gli_solid_angle(a, b - step * e, c, d - step * e)) / (2 * step);
  };
  return (4 * central(h / 2) - central(h)) / 3;
}

Eigen::Matrix3d rotation_about_z(double turns) {
  double s = 0, c = 0;
  portable_sin_cos_turns(turns, &s, &c);
  Eigen::Matrix3d r;
  r << c, -s, 0, s, c, 0, 0, 0, 1;
  return r;
}

}  // namespace

TEST_SUITE("dgli") {

TEST_CASE("Hopf link of two closed polygons has linking number +-1, an unlinked pair 0") {
  const Point3 ex(1, 0, 0), ey(0, 1, 0), ez(0, 0, 1);
  for (int n : {7, 24, 60}) {
    const Polygon p = circle(Point3::Zero(), ex, ey, 1.0, n);
    const Polygon linked = circle(Point3(1, 0, 0), ex, ez, 1.0, n + 3, 0.013);
    const double lk = linking_number(p, linked);
    CHECK(std::abs(std::abs(lk) - 1.0) < 1e-9);
    // reversing one curve flips the sign; the linking number is symmetric
    Polygon reversed = linked.colwise().reverse();
    CHECK(std::abs(linking_number(p, reversed) + lk) < 1e-9);
    CHECK(std::abs(linking_number(linked, p) - lk) < 1e-9);
    // moved away along x: unlinked (the curves no longer thread each other)
    const Polygon apart = circle(Point3(3.2, 0, 0), ex, ez, 1.0, n + 3, 0.013);
    CHECK(std::abs(linking_number(p, apart)) < 1e-9);
    // through the disc but not around its boundary: still unlinked
    const Polygon inside = circle(Point3(0, 0, 0), ex, ez, 0.4, n + 3, 0.013);
    CHECK(std::abs(linking_number(p, inside)) < 1e-9);
  }
  // a (2, 4) torus link: linking number 2
  Polygon twice(240, 3), axis(40, 3);
  for (int k = 0; k < 240; ++k) {
    double s1 = 0, c1 = 0, s2 = 0, c2 = 0;
    portable_sin_cos_turns(k / 240.0, &s1, &c1);
    portable_sin_cos_turns(2.0 * k / 240.0, &s2, &c2);
    const double r = 2 + 0.5 * c2;
    twice.row(k) << r * c1, r * s1, 0.5 * s2;
  }
  axis = circle(Point3(0, 0, 0), ex, ey, 2.0, 40);  // the core circle, linked twice
  CHECK(std::abs(std::abs(linking_number(twice, axis)) - 2.0) < 1e-9);
}

TEST_CASE("closed forms of the segment GLI equal the quadrature of V * I") {
  std::mt19937_64 rng(7);
  int tested = 0;
  while (tested < 40) {
    const Point3 a = random_point(rng), b = random_point(rng), c = random_point(rng), d = random_point(rng);
    const double longest = std::max((b - a).norm(), (d - c).norm());
    if (segment_distance(a, b, c, d) < 0.25 * longest) continue;
    const double quadrature = segment_gli_quadrature(a, b, c, d, 24);
    CHECK(segment_gli(a, b, c, d) == doctest::Approx(quadrature).epsilon(1e-9).scale(1.0));
    CHECK(std::abs(segment_gli(a, b, c, d) - quadrature) < 1e-10);
    CHECK(std::abs(segment_gli_solid_angle(a, b, c, d) - quadrature) < 1e-10);
    // symmetric in the two segments
    CHECK(std::abs(segment_gli(c, d, a, b) - segment_gli(a, b, c, d)) < 1e-13);
    ++tested;
  }
  // coplanar segments: the GLI vanishes
  CHECK(segment_gli(Point3(0, 0, 0), Point3(1, 0, 0), Point3(1, 1, 0), Point3(0, 1, 0)) == 0.0);
}

TEST_CASE("docs/math.md test vectors of the dGLI (1/(4 pi) included)") {
  const Point3 a(0, 0, 0), b(1, 0, 0);
  // unit square traversed counter-clockwise: bottom edge and top edge
  const SegmentDgli square = segment_dgli(a, b, Point3(1, 1, 0), Point3(0, 1, 0));
  REQUIRE(square.status == PairStatus::ok);
  CHECK(square.value == doctest::Approx(0.131848).epsilon(1e-5));
  CHECK(4 * M_PI * square.value == doctest::Approx(1.65685).epsilon(1e-5));
  const SegmentDgli square_flat = segment_dgli_flat(a, b, Point3(1, 1, 0), Point3(0, 1, 0));
  CHECK(square_flat.value == doctest::Approx(square.value).epsilon(1e-12));
  // top edge oriented like the bottom one: AC ^ BD = 0
  CHECK(std::abs(segment_dgli(a, b, Point3(0, 1, 0), Point3(1, 1, 0)).value) < 1e-15);
  // a generic coplanar pair
  const Point3 c(0.2, 0.5, 0), d(1.3, 0.9, 0);
  CHECK(std::abs(segment_dgli(a, b, c, d).value - 0.0057379050) < 1e-10);
  CHECK(std::abs(segment_dgli_flat(a, b, c, d).value - 0.0057379050) < 1e-10);
}

TEST_CASE("analytic dGLI equals a careful finite difference, in and out of the plane") {
  std::mt19937_64 rng(11);
  int tested = 0;
  while (tested < 60) {
    Point3 a = random_point(rng), b = random_point(rng), c = random_point(rng), d = random_point(rng);
    if (tested % 2 == 0) a.z() = b.z() = c.z() = d.z() = 0.3;  // half of them coplanar
    const double longest = std::max((b - a).norm(), (d - c).norm());
    if (segment_distance(a, b, c, d) < 0.2 * longest) continue;
    const SegmentDgli analytic = segment_dgli(a, b, c, d);
    REQUIRE(analytic.status == PairStatus::ok);
    const double fd = dgli_by_differences(a, b, c, d, Point3(0, 0, 1), 1e-3 * longest);
    CHECK(std::abs(analytic.value - fd) < 1e-8 * std::max(1.0, std::abs(fd)));
    if (tested % 2 == 0 && std::abs(((b - a).cross(d - c)).z()) > 1e-3) {
      CHECK(std::abs(segment_dgli_flat(a, b, c, d).value - analytic.value) < 1e-12);
    }
    // a tilted normal: the same identity for motion along any unit direction
    const Point3 n = Point3(0.3, -0.2, 1.0).normalized();
    const double fd_tilted = dgli_by_differences(a, b, c, d, n, 1e-3 * longest);
    CHECK(std::abs(segment_dgli(a, b, c, d, n).value - fd_tilted) < 1e-8 * std::max(1.0, std::abs(fd_tilted)));
    ++tested;
  }
}

TEST_CASE("dGLI is symmetric in the two segments and invariant under translations and rotations about the normal") {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 100; ++k) {
    const Point3 a = random_point(rng), b = random_point(rng), c = random_point(rng), d = random_point(rng);
    const SegmentDgli base = segment_dgli(a, b, c, d);
    if (base.status != PairStatus::ok) continue;
    const double tol = 1e-11 * std::max(1.0, std::abs(base.value));
    CHECK(std::abs(segment_dgli(c, d, a, b).value - base.value) < tol);
    const Point3 shift = random_point(rng, 5.0);
    CHECK(std::abs(segment_dgli(a + shift, b + shift, c + shift, d + shift).value - base.value) < tol);
    const Eigen::Matrix3d r = rotation_about_z(uniform01(rng));
    CHECK(std::abs(segment_dgli(r * a, r * b, r * c, r * d).value - base.value) < tol);
    // a mirror image (x -> -x) reverses the sign: reflections are not an invariance
    const Eigen::Vector3d m(-1, 1, 1);
    const SegmentDgli mirrored = segment_dgli(a.cwiseProduct(m), b.cwiseProduct(m), c.cwiseProduct(m), d.cwiseProduct(m));
    CHECK(std::abs(mirrored.value + base.value) < tol);
  }
}

TEST_CASE("undefined segment pairs are reported by status, never as NaN") {
  const Point3 a(0, 0, 0), b(1, 0, 0);
  const SegmentDgli adjacent = segment_dgli(a, b, b, Point3(1, 1, 0));
  CHECK(adjacent.status == PairStatus::shared_endpoint);
  CHECK(adjacent.value == 0.0);
  const SegmentDgli crossing = segment_dgli(a, b, Point3(0.5, -1, 0), Point3(0.5, 1, 0));
  CHECK(crossing.status == PairStatus::intersecting);
  CHECK(crossing.value == 0.0);
  const SegmentDgli crossing_3d = segment_dgli(a, b, Point3(0.5, 0, -1), Point3(0.5, 0, 1));
  CHECK(crossing_3d.status == PairStatus::intersecting);
  const SegmentDgli overlapping = segment_dgli(a, b, Point3(0.5, 0, 0), Point3(2, 0, 0));
  CHECK(overlapping.status == PairStatus::intersecting);
  CHECK(segment_dgli(a, a, Point3(0, 1, 0), Point3(1, 1, 0)).status == PairStatus::degenerate);
  // near contact the value is large but finite
  const SegmentDgli near = segment_dgli(a, b, Point3(0.5, 1e-6, 0), Point3(0.5, 1, 0));
  CHECK(near.status == PairStatus::ok);
  CHECK(std::isfinite(near.value));
  // parallel, same line, apart: defined and finite
  const SegmentDgli collinear = segment_dgli(a, b, Point3(2, 0, 0), Point3(3, 0, 0));
  CHECK(collinear.status == PairStatus::ok);
  CHECK(std::isfinite(collinear.value));
  CHECK(std::string(to_string(PairStatus::shared_endpoint)) == "shared_endpoint");
}

}  // TEST_SUITE
