// Bowyer-Watson Delaunay triangulation: validity on degenerate input, empty circles.
#include "geometry/delaunay.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

using namespace tela;

namespace {

// twice the signed area of triangle t
double area2(const Points2& p, const std::array<int, 3>& t) {
  const Eigen::Vector2d a = p.row(t[0]), b = p.row(t[1]), c = p.row(t[2]);
  return (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
}

// a valid triangulation of the convex hull: all triangles counter-clockwise, each interior
// edge shared by exactly two triangles in opposite directions, areas summing to `hull_area`
void check_triangulation(const Points2& p, const std::vector<std::array<int, 3>>& tris,
                         double hull_area) {
  double total = 0;
  std::vector<std::array<int, 2>> sides;
  for (const std::array<int, 3>& t : tris) {
    CHECK(area2(p, t) > 0);
    total += 0.5 * area2(p, t);
    for (int k = 0; k < 3; ++k) sides.push_back({t[k], t[(k + 1) % 3]});
  }
  std::sort(sides.begin(), sides.end());
  CHECK(std::adjacent_find(sides.begin(), sides.end()) == sides.end());  // no side twice
  CHECK(total == doctest::Approx(hull_area).epsilon(1e-12));
}

}  // namespace

TEST_CASE("delaunay_triangulate: a regular grid (all cocircular quadruples)") {
  const int n = 12;
  Points2 points(n * n, 2);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) points.row(j * n + i) << i * 0.1, j * 0.1;
  const std::vector<std::array<int, 3>> tris = delaunay_triangulate(points);
  CHECK(tris.size() == static_cast<std::size_t>(2 * (n - 1) * (n - 1)));
  double area = 0;
  for (const std::array<int, 3>& t : tris) {
    const Eigen::Vector2d a = points.row(t[0]), b = points.row(t[1]), c = points.row(t[2]);
    const double area2 = (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
    CHECK(area2 == doctest::Approx(0.01));  // every triangle is half a grid cell
    area += 0.5 * area2;
  }
  CHECK(area == doctest::Approx(1.21).epsilon(1e-12));
}

TEST_CASE("delaunay_triangulate: duplicates skipped, collinear input gives nothing") {
  Points2 points(5, 2);
  points << 0, 0, 1, 0, 0, 1, 1, 0, 1, 1;  // node 3 duplicates node 1
  const std::vector<std::array<int, 3>> tris = delaunay_triangulate(points);
  CHECK(tris.size() == 2);
  for (const std::array<int, 3>& t : tris)
    for (int v : t) CHECK(v != 3);
  Points2 line(4, 2);
  line << 0, 0, 1, 0, 2, 0, 3, 0;
  CHECK(delaunay_triangulate(line).empty());
}

TEST_CASE("delaunay_triangulate: a jittered grid of 5000 points, near-cocircular points") {
  // near-degenerate input: a 70x70 grid, every point moved by at most 1e-13
  std::mt19937_64 rng(3);
  const int n = 70;
  Points2 points(n * n + 100, 2);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const double dx = (static_cast<double>(rng() >> 11) / 9007199254740992.0 - 0.5) * 2e-13;
      const double dy = (static_cast<double>(rng() >> 11) / 9007199254740992.0 - 0.5) * 2e-13;
      points.row(j * n + i) << i + (i > 0 && i < n - 1 ? dx : 0), j + (j > 0 && j < n - 1 ? dy : 0);
    }
  // plus 100 random points inside
  for (int k = 0; k < 100; ++k)
    points.row(n * n + k) << 1 + 67 * (static_cast<double>(rng() >> 11) / 9007199254740992.0),
        1 + 67 * (static_cast<double>(rng() >> 11) / 9007199254740992.0);
  const std::vector<std::array<int, 3>> tris = delaunay_triangulate(points);
  check_triangulation(points, tris, (n - 1) * (n - 1));
  // Euler for a triangulated convex polygon: T = 2 n - b - 2, b = 4 (n - 1) boundary points
  CHECK(tris.size() == static_cast<std::size_t>(2 * (n * n + 100) - 4 * (n - 1) - 2));
}

TEST_CASE("delaunay_triangulate: random points, empty circles, deterministic") {
  std::mt19937_64 rng(8);
  Points2 points(400, 2);
  for (int i = 0; i < 400; ++i)
    points.row(i) << static_cast<double>(rng() >> 11) / 9007199254740992.0,
        static_cast<double>(rng() >> 11) / 9007199254740992.0;
  const std::vector<std::array<int, 3>> tris = delaunay_triangulate(points);
  CHECK(tris == delaunay_triangulate(points));
  int violations = 0;
  for (const std::array<int, 3>& t : tris) {
    CHECK(area2(points, t) > 0);
    const Eigen::Vector2d a = points.row(t[0]), b = points.row(t[1]), c = points.row(t[2]);
    const Eigen::Vector2d ab = b - a, ac = c - a;
    const double d = 2 * (ab.x() * ac.y() - ab.y() * ac.x());
    const Eigen::Vector2d centre =
        a + Eigen::Vector2d(ac.y() * ab.squaredNorm() - ab.y() * ac.squaredNorm(),
                            ab.x() * ac.squaredNorm() - ac.x() * ab.squaredNorm()) / d;
    const double radius = (a - centre).norm();
    for (int i = 0; i < 400; ++i)
      if (i != t[0] && i != t[1] && i != t[2] &&
          (points.row(i).transpose() - centre).norm() < radius * (1 - 1e-9))
        ++violations;
  }
  CHECK(violations == 0);
}

TEST_CASE("delaunay_triangulate: 600 points on one circle, far from the origin, shuffled") {
  // every quadruple is cocircular up to rounding, the hardest case for the incircle test
  const double pi = 3.14159265358979323846;
  const int n = 600;
  Points2 points(n, 2);
  for (int s = 0; s < n; ++s)
    points.row(s) << 1e3 + std::cos(2 * pi * s / n), 1e3 + std::sin(2 * pi * s / n);
  std::mt19937_64 rng(5);
  for (int i = n - 1; i > 0; --i) {
    const int j = static_cast<int>(rng() % static_cast<std::uint64_t>(i + 1));
    const Eigen::RowVector2d row = points.row(i);
    points.row(i) = points.row(j);
    points.row(j) = row;
  }
  const std::vector<std::array<int, 3>> tris = delaunay_triangulate(points);
  CHECK(tris.size() == static_cast<std::size_t>(n - 2));
  double total = 0;
  for (const std::array<int, 3>& t : tris) {
    CHECK(area2(points, t) > 0);
    total += 0.5 * area2(points, t);
  }
  CHECK(total == doctest::Approx(0.5 * n * std::sin(2 * pi / n)).epsilon(1e-9));
}
