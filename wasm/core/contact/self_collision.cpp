#include "contact/self_collision.h"

#include "contact/broad_phase/uniform_grid.h"
#include "contact/ccd/edge_edge.h"
#include "contact/ccd/point_triangle.h"
#include "contact/distance/point_triangle.h"
#include "contact/distance/segment_segment.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace tela {
namespace {

using V = Eigen::Vector3d;

V row(const Positions& x, int k) { return x.row(k).transpose(); }

// CCD distance tolerance: 1 nm, far below any cloth thickness and far above round-off
constexpr double kCcdTolerance = 1e-9;

}  // namespace

CollisionMesh collision_mesh(const Mesh& mesh) {
  CollisionMesh c;
  const std::vector<int> tris = render_triangles(mesh);
  for (std::size_t i = 0; i + 2 < tris.size(); i += 3) c.triangles.push_back({tris[i], tris[i + 1], tris[i + 2]});
  for (const auto& t : c.triangles)
    for (int e = 0; e < 3; ++e) {
      const int a = t[e], b = t[(e + 1) % 3];
      c.edges.push_back({std::min(a, b), std::max(a, b)});
    }
  std::sort(c.edges.begin(), c.edges.end());
  c.edges.erase(std::unique(c.edges.begin(), c.edges.end()), c.edges.end());
  double sum = 0;
  for (const auto& e : c.edges) sum += (mesh.positions.row(e[0]) - mesh.positions.row(e[1])).norm();
  c.mean_edge_length = c.edges.empty() ? 0.0 : sum / static_cast<double>(c.edges.size());
  return c;
}

std::vector<SelfContact> self_collisions(const CollisionMesh& mesh, const Positions& start,
                                         const Positions& current, const std::vector<char>& fixed,
                                         const SelfCollisionSettings& settings) {
  std::vector<SelfContact> out;
  const double tau0 = settings.thickness;
  const double shift = settings.omega * tau0;
  const double margin = std::max(tau0, 2 * shift) + 1e-12;
  const int n = static_cast<int>(start.rows());

  // swept, inflated boxes
  std::vector<Aabb> node_boxes(n), tri_boxes(mesh.triangles.size()), edge_boxes(mesh.edges.size());
  for (int k = 0; k < n; ++k) {
    Aabb b = Aabb::of_point(row(start, k));
    b.expand(row(current, k));
    b.inflate(0.5 * margin);
    node_boxes[k] = b;
  }
  auto swept = [&](const int* nodes, int count) {
    Aabb b = node_boxes[nodes[0]];
    for (int i = 1; i < count; ++i) {
      b.lo = b.lo.cwiseMin(node_boxes[nodes[i]].lo);
      b.hi = b.hi.cwiseMax(node_boxes[nodes[i]].hi);
    }
    return b;
  };
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) tri_boxes[t] = swept(mesh.triangles[t].data(), 3);
  for (std::size_t e = 0; e < mesh.edges.size(); ++e) edge_boxes[e] = swept(mesh.edges[e].data(), 2);
  const double cell = std::max(mesh.mean_edge_length, margin);

  // node-face
  for (const auto& [k, t] : overlapping_pairs(node_boxes, tri_boxes, false, cell)) {
    const auto& tri = mesh.triangles[t];
    if (k == tri[0] || k == tri[1] || k == tri[2]) continue;
    if (fixed[k] && fixed[tri[0]] && fixed[tri[1]] && fixed[tri[2]]) continue;
    const V a0 = row(start, tri[0]), b0 = row(start, tri[1]), c0 = row(start, tri[2]), p0 = row(start, k);
    const V a1 = row(current, tri[0]), b1 = row(current, tri[1]), c1 = row(current, tri[2]),
            p1 = row(current, k);
    // displace toward each other along the triangle normal at the start (thesis §3.3.3)
    V nu0 = (b0 - a0).cross(c0 - a0);
    const double nu0_norm = nu0.norm();
    bool crossing = false;
    if (nu0_norm > 0) {
      nu0 /= nu0_norm;
      const double side = (p0 - a0).dot(nu0) >= 0 ? 1.0 : -1.0;
      const V d = side * shift * nu0;  // node moves by -d, triangle by +d
      crossing = point_triangle_ccd(a0 + d, b0 + d, c0 + d, p0 - d, a1 + d, b1 + d, c1 + d, p1 - d,
                                    kCcdTolerance).hit;
    }
    // response at `current`
    const PointTriangleClosest closest = point_triangle_closest(p1, a1, b1, c1);
    const bool interior = closest.u > 0 && closest.v > 0 && closest.w > 0;
    const bool close = settings.close_pairs && interior && closest.distance < tau0;
    if (!crossing && !close) continue;
    V nu = (b1 - a1).cross(c1 - a1);
    if (nu.norm() == 0) continue;  // degenerate triangle: its edges carry the contact
    nu.normalize();
    const double h_start =
        nu.dot(p0 - (closest.u * a0 + closest.v * b0 + closest.w * c0));
    if (h_start < 0) nu = -nu;
    SelfContact c;
    c.kind = SelfPairKind::node_face;
    c.a = k;
    c.b = t;
    c.crossing = crossing;
    c.row.nodes = {k, tri[0], tri[1], tri[2]};
    c.row.weights = {1.0, -closest.u, -closest.v, -closest.w};
    c.row.normal = nu;
    c.row.offset = tau0;
    c.row.mu = settings.mu;
    c.row.surface_velocity.setZero();
    out.push_back(c);
  }

  // edge-edge
  for (const auto& [e, f] : overlapping_pairs(edge_boxes, edge_boxes, true, cell)) {
    const auto& E = mesh.edges[e];
    const auto& F = mesh.edges[f];
    if (E[0] == F[0] || E[0] == F[1] || E[1] == F[0] || E[1] == F[1]) continue;
    if (fixed[E[0]] && fixed[E[1]] && fixed[F[0]] && fixed[F[1]]) continue;
    const V p0 = row(start, E[0]), p1 = row(start, E[1]), q0 = row(start, F[0]), q1 = row(start, F[1]);
    const V P0 = row(current, E[0]), P1 = row(current, E[1]), Q0 = row(current, F[0]),
            Q1 = row(current, F[1]);
    const SegmentSegmentClosest at_start = segment_segment_closest(p0, p1, q0, q1);
    V nu0 = (p1 - p0).cross(q1 - q0);
    const V gap0 = (p0 + at_start.s * (p1 - p0)) - (q0 + at_start.t * (q1 - q0));
    if (nu0.norm() <= 1e-12 * (p1 - p0).norm() * (q1 - q0).norm()) nu0 = gap0;
    bool crossing = false;
    if (nu0.norm() > 0) {
      nu0.normalize();
      if (gap0.dot(nu0) < 0) nu0 = -nu0;  // points from edge F to edge E at the start
      const V d = shift * nu0;            // E moves by -d, F by +d
      crossing = edge_edge_ccd(p0 - d, p1 - d, q0 + d, q1 + d, P0 - d, P1 - d, Q0 + d, Q1 + d,
                               kCcdTolerance).hit;
    }
    const SegmentSegmentClosest closest = segment_segment_closest(P0, P1, Q0, Q1);
    const bool interior = closest.s > 0 && closest.s < 1 && closest.t > 0 && closest.t < 1 && !closest.parallel;
    const bool close = settings.close_pairs && interior && closest.distance < tau0;
    if (!crossing && !close) continue;
    V nu = (P1 - P0).cross(Q1 - Q0);
    const V gap1 = (P0 + closest.s * (P1 - P0)) - (Q0 + closest.t * (Q1 - Q0));
    const bool clamped = !interior;
    if (clamped && gap1.norm() > 1e-12) nu = gap1;
    if (nu.norm() <= 1e-12 * (P1 - P0).norm() * (Q1 - Q0).norm()) nu = gap0;
    if (nu.norm() == 0) continue;
    nu.normalize();
    const double h_start = nu.dot((1 - closest.s) * p0 + closest.s * p1 - (1 - closest.t) * q0 - closest.t * q1);
    if (h_start < 0) nu = -nu;
    SelfContact c;
    c.kind = SelfPairKind::edge_edge;
    c.a = e;
    c.b = f;
    c.crossing = crossing;
    c.row.nodes = {E[0], E[1], F[0], F[1]};
    c.row.weights = {1 - closest.s, closest.s, -(1 - closest.t), -closest.t};
    c.row.normal = nu;
    c.row.offset = tau0;
    c.row.mu = settings.mu;
    c.row.surface_velocity.setZero();
    out.push_back(c);
  }
  return out;
}

}  // namespace tela
