#include "geometry/delaunay.h"

#include <algorithm>
#include <cassert>
#include <tuple>

namespace tela {
namespace {

struct Point {
  double x, y;
};

// twice the signed area of (a, b, c): > 0 when counter-clockwise
double orient(const Point& a, const Point& b, const Point& c) {
  return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}

// > 0 when d lies strictly inside the circumcircle of the counter-clockwise triangle (a, b, c)
// (Shewchuk's incircle determinant, with coordinates taken relative to d)
double incircle(const Point& a, const Point& b, const Point& c, const Point& d) {
  const double adx = a.x - d.x, ady = a.y - d.y;
  const double bdx = b.x - d.x, bdy = b.y - d.y;
  const double cdx = c.x - d.x, cdy = c.y - d.y;
  const double alift = adx * adx + ady * ady;
  const double blift = bdx * bdx + bdy * bdy;
  const double clift = cdx * cdx + cdy * cdy;
  return alift * (bdx * cdy - cdx * bdy) + blift * (cdx * ady - adx * cdy) +
         clift * (adx * bdy - bdx * ady);
}

// a directed edge a -> b of triangle t (counter-clockwise, so t lies on its left)
struct HalfEdge {
  int a, b, t;
  bool operator<(const HalfEdge& o) const { return std::tie(a, b) < std::tie(o.a, o.b); }
};

using Triangle = std::array<int, 3>;

// Marks as bad the cavity of point p: the triangles whose circumcircle contains p, then
// shrinks it until it is a star-shaped disc around p (connected through edges to the
// triangles containing p, every boundary edge seen counter-clockwise from p). In exact
// arithmetic the shrinking never triggers; with rounding it keeps near-ties consistent.
// Returns the boundary half-edges of the cavity (the new triangles are (a, b, p)).
std::vector<HalfEdge> find_cavity(const std::vector<Triangle>& tris, const std::vector<Point>& pts,
                                  int p, std::vector<char>& bad) {
  const Point& q = pts[p];
  const int count = static_cast<int>(tris.size());
  bad.assign(count, 0);
  std::vector<char> seed(count, 0);
  for (int t = 0; t < count; ++t) {
    const Point& a = pts[tris[t][0]];
    const Point& b = pts[tris[t][1]];
    const Point& c = pts[tris[t][2]];
    // seeds: the triangles that contain p, boundary included (two when p is on an edge)
    if (orient(a, b, q) >= 0 && orient(b, c, q) >= 0 && orient(c, a, q) >= 0)
      seed[t] = bad[t] = 1;
    else if (incircle(a, b, c, q) > 0)
      bad[t] = 1;
  }

  std::vector<HalfEdge> edges, boundary;
  std::vector<int> stack;
  for (;;) {
    edges.clear();
    for (int t = 0; t < count; ++t)
      if (bad[t])
        for (int i = 0; i < 3; ++i) edges.push_back({tris[t][i], tris[t][(i + 1) % 3], t});
    std::sort(edges.begin(), edges.end());
    // the bad triangle across half-edge e, or -1
    auto across = [&](const HalfEdge& e) {
      const HalfEdge key{e.b, e.a, -1};
      auto it = std::lower_bound(edges.begin(), edges.end(), key);
      return (it != edges.end() && it->a == e.b && it->b == e.a) ? it->t : -1;
    };

    // keep only what is connected (through edges) to the seeds
    std::vector<char> reached(count, 0);
    stack.clear();
    for (int t = 0; t < count; ++t)
      if (seed[t]) {
        reached[t] = 1;
        stack.push_back(t);
      }
    while (!stack.empty()) {
      const int t = stack.back();
      stack.pop_back();
      for (int i = 0; i < 3; ++i) {
        const int u = across({tris[t][i], tris[t][(i + 1) % 3], t});
        if (u >= 0 && !reached[u]) {
          reached[u] = 1;
          stack.push_back(u);
        }
      }
    }
    bool changed = false;
    for (int t = 0; t < count; ++t)
      if (bad[t] && !reached[t]) {
        bad[t] = 0;
        changed = true;
      }
    if (changed) continue;

    // boundary half-edges must see p on their left, otherwise drop their triangle
    boundary.clear();
    for (const HalfEdge& e : edges) {
      if (across(e) >= 0) continue;
      if (orient(pts[e.a], pts[e.b], q) > 0) {
        boundary.push_back(e);
      } else if (!seed[e.t]) {
        bad[e.t] = 0;
        changed = true;
      }
    }
    if (!changed) return boundary;
  }
}

}  // namespace

std::vector<Triangle> delaunay_triangulate(const Points2& points) {
  const int n = static_cast<int>(points.rows());
  if (n < 3) return {};

  // normalize to the unit box with one scale for both axes (keeps circles circles)
  const Eigen::Vector2d lo = points.colwise().minCoeff().transpose();
  const Eigen::Vector2d hi = points.colwise().maxCoeff().transpose();
  const double extent = std::max(hi.x() - lo.x(), hi.y() - lo.y());
  const double scale = extent > 0 ? 1.0 / extent : 1.0;
  std::vector<Point> pts(n + 3);
  for (int i = 0; i < n; ++i)
    pts[i] = {(points(i, 0) - lo.x()) * scale, (points(i, 1) - lo.y()) * scale};

  // a super-triangle about 100 units from the unit box: a circle through two neighbouring
  // hull points and a super vertex has a radius of about 100, so it bulges into the box by
  // about spacing^2 / 800 and holds no input point; the hull edges therefore survive
  const double m = 100.0;
  pts[n] = {-m, -m};
  pts[n + 1] = {3 * m, -m};
  pts[n + 2] = {-m, 3 * m};
  std::vector<Triangle> tris{{n, n + 1, n + 2}};

  // skip exact duplicates: the first of equal points (lowest index) is kept
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int i, int j) {
    return std::tie(pts[i].x, pts[i].y, i) < std::tie(pts[j].x, pts[j].y, j);
  });
  std::vector<char> duplicate(n, 0);
  for (int k = 1; k < n; ++k)
    if (pts[order[k]].x == pts[order[k - 1]].x && pts[order[k]].y == pts[order[k - 1]].y)
      duplicate[order[k]] = 1;

  std::vector<char> bad;
  std::vector<Triangle> kept;
  for (int p = 0; p < n; ++p) {
    if (duplicate[p]) continue;
    const std::vector<HalfEdge> boundary = find_cavity(tris, pts, p, bad);
    kept.clear();
    for (std::size_t t = 0; t < tris.size(); ++t)
      if (!bad[t]) kept.push_back(tris[t]);
    for (const HalfEdge& e : boundary) kept.push_back({e.a, e.b, p});
    tris.swap(kept);
  }

  // drop the triangles that touch the super-triangle
  std::vector<Triangle> result;
  for (const Triangle& t : tris)
    if (t[0] < n && t[1] < n && t[2] < n) result.push_back(t);
  return result;
}

}  // namespace tela
