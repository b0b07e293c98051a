#include "contact/obstacle_contacts.h"

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

constexpr double kCcdTolerance = 1e-9;
// source ids (self-contacts have 0): obstacle i: 1 + i (node rows), and sub-items (stick segment,
// needle tip) as (1 + i) * kSourceStride + 1 + item
constexpr int kSourceStride = 100000;

// the polyline subdivided so that no edge is longer than `segment`
std::vector<V> subdivide(const std::vector<V>& points, double segment) {
  std::vector<V> out;
  if (points.empty()) return out;
  out.push_back(points.front());
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    const V a = points[i], b = points[i + 1];
    const int pieces = std::max(1, static_cast<int>(std::ceil((b - a).norm() / segment)));
    for (int k = 1; k <= pieces; ++k) out.push_back(a + (b - a) * (static_cast<double>(k) / pieces));
  }
  return out;
}

double clearance_of(const ContactSettings& settings) { return 0.5 * settings.thickness; }

}  // namespace

ObstacleContacts::ObstacleContacts(const Mesh& mesh, const std::vector<Obstacle>& obstacles,
                                   const ContactSettings& settings, const std::vector<char>& controlled)
    : obstacles_(obstacles), settings_(settings), controlled_(controlled), mesh_(collision_mesh(mesh)) {
  for (const Obstacle& o : obstacles_) {
    const Stick* stick = std::get_if<Stick>(&o.shape);
    const NeedleField* needles = std::get_if<NeedleField>(&o.shape);
    stick_points_.push_back(stick ? subdivide(stick->points, stick->segment) : std::vector<V>{});
    tips_.push_back(needles ? needle_tips(*needles) : std::vector<V>{});
  }
}

void ObstacleContacts::obstacle_rows(int index, const ContactQuery& q, std::vector<ContactConstraint>& out) const {
  const Obstacle& o = obstacles_[index];
  const RigidPose pose0 = rigid_pose(o.motion, q.t0), pose1 = rigid_pose(o.motion, q.t1);
  const double dt = q.t1 - q.t0;
  const double clearance = clearance_of(settings_);
  const int n = static_cast<int>(q.current.rows());
  for (int k = 0; k < n; ++k) {
    if (controlled_[k]) continue;
    const V p = row(q.current, k);
    const SurfacePoint s = obstacle_closest(o, pose1, p);
    const double reach = clearance + kProximity + (p - row(q.start, k)).norm();
    if (!(s.distance < reach)) continue;
    ContactConstraint c;
    c.nodes = {k, -1, -1, -1};
    c.weights = {1, 0, 0, 0};
    c.normal = s.normal;
    c.offset = s.normal.dot(s.closest) + clearance;
    c.mu = o.mu;
    c.surface_velocity = dt > 0 ? surface_velocity(pose0, pose1, dt, s.closest) : V::Zero();
    c.source = 1 + index;
    out.push_back(c);
  }
}

void ObstacleContacts::stick_rows(int index, const ContactQuery& q, double omega,
                                  std::vector<ContactConstraint>& out) const {
  const Obstacle& o = obstacles_[index];
  const std::vector<V>& body = stick_points_[index];
  const RigidPose pose0 = rigid_pose(o.motion, q.t0), pose1 = rigid_pose(o.motion, q.t1);
  const double dt = q.t1 - q.t0;
  const double tau = std::get<Stick>(o.shape).radius + clearance_of(settings_);
  const double shift = omega * tau;
  std::vector<V> a0(body.size()), a1(body.size());
  for (std::size_t i = 0; i < body.size(); ++i) {
    a0[i] = pose0.to_world(body[i]);
    a1[i] = pose1.to_world(body[i]);
  }
  // broad phase: stick edges against cloth edges, swept and inflated by tau
  std::vector<Aabb> stick_boxes(body.size() - 1), cloth_boxes(mesh_.edges.size());
  for (std::size_t i = 0; i + 1 < body.size(); ++i) {
    Aabb b = Aabb::of_point(a0[i]);
    b.expand(a0[i + 1]);
    b.expand(a1[i]);
    b.expand(a1[i + 1]);
    b.inflate(tau);
    stick_boxes[i] = b;
  }
  for (std::size_t e = 0; e < mesh_.edges.size(); ++e) {
    const auto& E = mesh_.edges[e];
    Aabb b = Aabb::of_point(row(q.start, E[0]));
    b.expand(row(q.start, E[1]));
    b.expand(row(q.current, E[0]));
    b.expand(row(q.current, E[1]));
    cloth_boxes[e] = b;
  }
  const double cell = std::max(mesh_.mean_edge_length, tau);
  for (const auto& [i, e] : overlapping_pairs(stick_boxes, cloth_boxes, false, cell)) {
    const auto& E = mesh_.edges[e];
    if (controlled_[E[0]] && controlled_[E[1]]) continue;
    const V x0 = row(q.start, E[0]), x1 = row(q.start, E[1]);
    const V X0 = row(q.current, E[0]), X1 = row(q.current, E[1]);
    const SegmentSegmentClosest at_start = segment_segment_closest(x0, x1, a0[i], a0[i + 1]);
    const V gap0 = (x0 + at_start.s * (x1 - x0)) - (a0[i] + at_start.t * (a0[i + 1] - a0[i]));
    V nu0 = (x1 - x0).cross(a0[i + 1] - a0[i]);
    if (nu0.norm() <= 1e-12 * (x1 - x0).norm() * (a0[i + 1] - a0[i]).norm()) nu0 = gap0;
    bool crossing = false;
    if (nu0.norm() > 0) {
      nu0.normalize();
      if (gap0.dot(nu0) < 0) nu0 = -nu0;  // from the stick to the cloth edge at t0
      const V d = shift * nu0;
      crossing = edge_edge_ccd(x0 - d, x1 - d, a0[i] + d, a0[i + 1] + d, X0 - d, X1 - d, a1[i] + d,
                               a1[i + 1] + d, kCcdTolerance).hit;
    }
    const SegmentSegmentClosest now = segment_segment_closest(X0, X1, a1[i], a1[i + 1]);
    // closest at a joint of two stick edges: the neighbouring edge answers (its normal is the
    // stick's, this one's would point along the stick)
    const bool at_joint = (now.t <= 0 && i > 0) || (now.t >= 1 && static_cast<std::size_t>(i) + 2 < body.size());
    if (!crossing && (at_joint || !(now.distance < tau + kProximity))) continue;
    const V cloth_point = X0 + now.s * (X1 - X0);
    const V stick_point = a1[i] + now.t * (a1[i + 1] - a1[i]);
    V nu = cloth_point - stick_point;
    const bool interior = now.s > 0 && now.s < 1 && now.t > 0 && now.t < 1 && !now.parallel;
    if (interior || nu.norm() <= 1e-12) nu = (X1 - X0).cross(a1[i + 1] - a1[i]);
    if (nu.norm() <= 1e-12 * (X1 - X0).norm() * (a1[i + 1] - a1[i]).norm()) nu = gap0;
    if (nu.norm() == 0) continue;
    nu.normalize();
    // orientation: the cloth side at the start (stick at t0, same frozen weights)
    const V start_cloth = (1 - now.s) * x0 + now.s * x1;
    const V start_stick = (1 - now.t) * a0[i] + now.t * a0[i + 1];
    if (nu.dot(start_cloth - start_stick) < 0) nu = -nu;
    ContactConstraint c;
    c.nodes = {E[0], E[1], -1, -1};
    c.weights = {1 - now.s, now.s, 0, 0};
    c.normal = nu;
    c.offset = nu.dot(stick_point) + tau;
    c.mu = o.mu;
    c.surface_velocity = dt > 0 ? V((stick_point - start_stick) / dt) : V::Zero();
    c.source = (1 + index) * kSourceStride + 1 + i;
    out.push_back(c);
  }
}

void ObstacleContacts::cusp_rows(int index, const ContactQuery& q, double omega,
                                 std::vector<ContactConstraint>& out) const {
  const Obstacle& o = obstacles_[index];
  const RigidPose pose0 = rigid_pose(o.motion, q.t0), pose1 = rigid_pose(o.motion, q.t1);
  const double clearance = clearance_of(settings_);
  // thesis §3.3.3: both sides displaced towards each other by omega times the distance to keep
  // (here the clearance), so that a cloth resting on a tip is not already past it in the
  // displaced frame (with twice that shift a cloth lying on the tips falls through them at the
  // next step)
  const double shift = omega * clearance;
  const std::vector<V>& tips = tips_[index];
  std::vector<V> tip0(tips.size()), tip1(tips.size());
  std::vector<Aabb> tip_boxes(tips.size()), tri_boxes(mesh_.triangles.size());
  for (std::size_t i = 0; i < tips.size(); ++i) {
    tip0[i] = pose0.to_world(tips[i]);
    tip1[i] = pose1.to_world(tips[i]);
    Aabb box = Aabb::of_point(tip0[i]);
    box.expand(tip1[i]);
    box.inflate(2 * clearance + kProximity);
    tip_boxes[i] = box;
  }
  for (std::size_t t = 0; t < mesh_.triangles.size(); ++t) {
    const auto& T = mesh_.triangles[t];
    Aabb box = Aabb::of_point(row(q.start, T[0]));
    for (int k = 0; k < 3; ++k) {
      box.expand(row(q.start, T[k]));
      box.expand(row(q.current, T[k]));
    }
    tri_boxes[t] = box;
  }
  const double cell = std::max(mesh_.mean_edge_length, 2 * clearance + kProximity);
  for (const auto& [i, t] : overlapping_pairs(tip_boxes, tri_boxes, false, cell)) {
    const auto& T = mesh_.triangles[t];
    if (controlled_[T[0]] && controlled_[T[1]] && controlled_[T[2]]) continue;
    const V A0 = row(q.start, T[0]), B0 = row(q.start, T[1]), C0 = row(q.start, T[2]);
    const V A1 = row(q.current, T[0]), B1 = row(q.current, T[1]), C1 = row(q.current, T[2]);
    V nu0 = (B0 - A0).cross(C0 - A0);
    bool crossing = false;
    if (nu0.norm() > 0) {
      nu0.normalize();
      const double side = (tip0[i] - A0).dot(nu0) >= 0 ? 1.0 : -1.0;
      const V d = side * shift * nu0;
      // the displaced motion finds tips coming within the proximity; the true motion those it
      // passes through (at omega = 0.5 a resting tip sits right at the displaced contact)
      crossing = point_triangle_ccd(A0 + d, B0 + d, C0 + d, tip0[i] - d, A1 + d, B1 + d, C1 + d, tip1[i] - d,
                                    kCcdTolerance).hit ||
                 point_triangle_ccd(A0, B0, C0, tip0[i], A1, B1, C1, tip1[i], kCcdTolerance).hit;
    }
    const PointTriangleClosest now = point_triangle_closest(tip1[i], A1, B1, C1);
    const bool interior = now.u > 0 && now.v > 0 && now.w > 0;
    if (!crossing && !(interior && now.distance < clearance + kProximity)) continue;
    V nu = (B1 - A1).cross(C1 - A1);
    if (nu.norm() == 0) continue;
    nu.normalize();
    const V start_point = now.u * A0 + now.v * B0 + now.w * C0;
    if (nu.dot(start_point - tip0[i]) < 0) nu = -nu;
    ContactConstraint c;
    c.nodes = {T[0], T[1], T[2], -1};
    c.weights = {now.u, now.v, now.w, 0};
    c.normal = nu;
    c.offset = nu.dot(tip1[i]) + clearance;
    c.mu = o.mu;
    c.surface_velocity = q.t1 > q.t0 ? V((tip1[i] - tip0[i]) / (q.t1 - q.t0)) : V::Zero();
    c.source = (1 + index) * kSourceStride + 1 + static_cast<int>(i);
    out.push_back(c);
  }
}

void ObstacleContacts::contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) {
  for (int i = 0; i < static_cast<int>(obstacles_.size()); ++i) {
    obstacle_rows(i, query, out);
    if (std::holds_alternative<Stick>(obstacles_[i].shape)) stick_rows(i, query, settings_.proximity, out);
    if (std::holds_alternative<NeedleField>(obstacles_[i].shape)) cusp_rows(i, query, settings_.proximity, out);
  }
}

double ObstacleContacts::penetration(const Positions& positions, double t) const {
  double depth = 0;
  for (const Obstacle& o : obstacles_) {
    const RigidPose pose = rigid_pose(o.motion, t);
    for (int k = 0; k < positions.rows(); ++k) {
      const SurfacePoint s = obstacle_closest(o, pose, row(positions, k));
      depth = std::max(depth, -s.distance);
    }
  }
  return depth;
}

}  // namespace tela
