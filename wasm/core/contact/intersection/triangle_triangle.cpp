#include "contact/intersection/triangle_triangle.h"

#include "contact/broad_phase/uniform_grid.h"
#include "contact/intersection/orient3d.h"

#include <algorithm>

#include <Eigen/Geometry>

namespace tela {
namespace {

using V = Eigen::Vector3d;

// exact 2-D orientation of the projections that drop coordinate `drop`
int orient2d(const V& a, const V& b, const V& c, int drop) {
  auto lift = [drop](const V& p) {
    V q = p;
    q[drop] = 0;
    return q;
  };
  V up = lift(a);
  up[drop] = 1;
  return orient3d_sign(lift(a), lift(b), lift(c), up);
}

// closed segments (p, q) and (r, s), collinear-aware, in the projection dropping `drop`
bool segments_intersect_2d(const V& p, const V& q, const V& r, const V& s, int drop) {
  const int o1 = orient2d(p, q, r, drop), o2 = orient2d(p, q, s, drop);
  const int o3 = orient2d(r, s, p, drop), o4 = orient2d(r, s, q, drop);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  auto on_segment = [drop](const V& a, const V& b, const V& x) {
    // x collinear with a, b: within their bounding box (in the projected coordinates)
    for (int k = 0; k < 3; ++k) {
      if (k == drop) continue;
      if (x[k] < std::min(a[k], b[k]) || x[k] > std::max(a[k], b[k])) return false;
    }
    return true;
  };
  if (o1 == 0 && on_segment(p, q, r)) return true;
  if (o2 == 0 && on_segment(p, q, s)) return true;
  if (o3 == 0 && on_segment(r, s, p)) return true;
  if (o4 == 0 && on_segment(r, s, q)) return true;
  if (o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0) return false;
  return false;
}

bool point_in_triangle_2d(const V& p, const V& a, const V& b, const V& c, int drop) {
  const int o1 = orient2d(a, b, p, drop), o2 = orient2d(b, c, p, drop), o3 = orient2d(c, a, p, drop);
  const bool has_neg = o1 < 0 || o2 < 0 || o3 < 0;
  const bool has_pos = o1 > 0 || o2 > 0 || o3 > 0;
  return !(has_neg && has_pos);
}

// the coordinate to drop for a plane through a, b, c (largest normal component); for a
// degenerate triangle any axis along which the points are not all collinear
int drop_axis(const V& a, const V& b, const V& c) {
  const V n = (b - a).cross(c - a);
  int drop = 0;
  n.cwiseAbs().maxCoeff(&drop);
  return drop;
}

bool segment_triangle_coplanar(const V& s, const V& e, const V& a, const V& b, const V& c) {
  const int drop = drop_axis(a, b, c);
  return point_in_triangle_2d(s, a, b, c, drop) || point_in_triangle_2d(e, a, b, c, drop) ||
         segments_intersect_2d(s, e, a, b, drop) || segments_intersect_2d(s, e, b, c, drop) ||
         segments_intersect_2d(s, e, c, a, drop);
}

bool triangles_coplanar_intersect(const V& a0, const V& a1, const V& a2, const V& b0,
                                  const V& b1, const V& b2) {
  const int drop = drop_axis(a0, a1, a2);
  const V* a[3] = {&a0, &a1, &a2};
  const V* b[3] = {&b0, &b1, &b2};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (segments_intersect_2d(*a[i], *a[(i + 1) % 3], *b[j], *b[(j + 1) % 3], drop)) return true;
  return point_in_triangle_2d(a0, b0, b1, b2, drop) || point_in_triangle_2d(b0, a0, a1, a2, drop);
}

}  // namespace

bool segment_triangle_intersect(const V& s, const V& e, const V& a, const V& b, const V& c) {
  const int os = orient3d_sign(a, b, c, s), oe = orient3d_sign(a, b, c, e);
  if (os == oe && os != 0) return false;
  if (os == 0 && oe == 0) return segment_triangle_coplanar(s, e, a, b, c);
  // the segment meets the plane at one point: inside the closed triangle iff the three
  // orientations of the segment's line against the edges agree (zeros allowed)
  const int o1 = orient3d_sign(s, e, a, b), o2 = orient3d_sign(s, e, b, c), o3 = orient3d_sign(s, e, c, a);
  const bool has_neg = o1 < 0 || o2 < 0 || o3 < 0;
  const bool has_pos = o1 > 0 || o2 > 0 || o3 > 0;
  return !(has_neg && has_pos);
}

bool triangles_intersect(const V& a0, const V& a1, const V& a2, const V& b0, const V& b1, const V& b2) {
  const int s0 = orient3d_sign(b0, b1, b2, a0), s1 = orient3d_sign(b0, b1, b2, a1),
            s2 = orient3d_sign(b0, b1, b2, a2);
  if (s0 == s1 && s1 == s2 && s0 != 0) return false;
  const int t0 = orient3d_sign(a0, a1, a2, b0), t1 = orient3d_sign(a0, a1, a2, b1),
            t2 = orient3d_sign(a0, a1, a2, b2);
  if (t0 == t1 && t1 == t2 && t0 != 0) return false;
  if (s0 == 0 && s1 == 0 && s2 == 0) return triangles_coplanar_intersect(a0, a1, a2, b0, b1, b2);
  // not coplanar: the intersection (if any) is a segment whose ends lie on edges of the
  // triangles, so some edge of one meets the other
  return segment_triangle_intersect(a0, a1, b0, b1, b2) || segment_triangle_intersect(a1, a2, b0, b1, b2) ||
         segment_triangle_intersect(a2, a0, b0, b1, b2) || segment_triangle_intersect(b0, b1, a0, a1, a2) ||
         segment_triangle_intersect(b1, b2, a0, a1, a2) || segment_triangle_intersect(b2, b0, a0, a1, a2);
}

std::vector<std::pair<int, int>> intersecting_triangle_pairs(const std::vector<std::array<int, 3>>& triangles,
                                                             const Positions& positions) {
  std::vector<Aabb> boxes(triangles.size());
  double edge_sum = 0;
  for (std::size_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    Aabb box = Aabb::of_point(positions.row(tri[0]).transpose());
    box.expand(positions.row(tri[1]).transpose());
    box.expand(positions.row(tri[2]).transpose());
    boxes[t] = box;
    edge_sum += (box.hi - box.lo).maxCoeff();
  }
  const double cell = triangles.empty() ? 1.0 : std::max(1e-9, edge_sum / static_cast<double>(triangles.size()));
  std::vector<std::pair<int, int>> out;
  for (const auto& [i, j] : overlapping_pairs(boxes, boxes, true, cell)) {
    const auto& A = triangles[i];
    const auto& B = triangles[j];
    int shared = 0, sa = -1, sb = -1;
    for (int p = 0; p < 3; ++p)
      for (int q = 0; q < 3; ++q)
        if (A[p] == B[q]) {
          ++shared;
          sa = p;
          sb = q;
        }
    auto x = [&](int node) -> V { return positions.row(node).transpose(); };
    bool hit = false;
    if (shared >= 2) {
      continue;  // neighbours across an edge (or duplicates): never an intersection here
    } else if (shared == 1) {
      // meet away from the common vertex: the edge opposite it in one crosses the other
      hit = segment_triangle_intersect(x(A[(sa + 1) % 3]), x(A[(sa + 2) % 3]), x(B[0]), x(B[1]), x(B[2])) ||
            segment_triangle_intersect(x(B[(sb + 1) % 3]), x(B[(sb + 2) % 3]), x(A[0]), x(A[1]), x(A[2]));
    } else {
      hit = triangles_intersect(x(A[0]), x(A[1]), x(A[2]), x(B[0]), x(B[1]), x(B[2]));
    }
    if (hit) out.emplace_back(i, j);
  }
  return out;
}

}  // namespace tela
