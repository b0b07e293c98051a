#include "dgli/segment_dgli.h"

#include "dgli/solid_angle.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace tela {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kContact = 1e-12;  // relative distance below which segments touch

// squared distance between the segments P1Q1 and P2Q2 (Ericson, Real-Time Collision
// Detection §5.1.9); both segments have non-zero length here
double segment_distance_squared(const Point3& p1, const Point3& q1, const Point3& p2, const Point3& q2) {
  const Point3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  const double c = d1.dot(r), b = d1.dot(d2);
  const double denom = a * e - b * b;
  double s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  double t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
  return (p1 + d1 * s - (p2 + d2 * t)).squaredNorm();
}

double cross2(const Eigen::Vector2d& u, const Eigen::Vector2d& v) { return u.x() * v.y() - u.y() * v.x(); }

}  // namespace

const char* to_string(PairStatus status) {
  switch (status) {
    case PairStatus::ok: return "ok";
    case PairStatus::shared_endpoint: return "shared_endpoint";
    case PairStatus::intersecting: return "intersecting";
    case PairStatus::degenerate: return "degenerate";
  }
  return "unknown";
}

PairStatus segment_pair_status(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
  const double l1 = (b - a).norm(), l2 = (d - c).norm();
  const double scale = std::max(l1, l2);
  if (!(scale > 0) || l1 <= kContact * scale || l2 <= kContact * scale) return PairStatus::degenerate;
  const double tol = kContact * scale;
  if ((a - c).norm() <= tol || (a - d).norm() <= tol || (b - c).norm() <= tol || (b - d).norm() <= tol)
    return PairStatus::shared_endpoint;
  if (segment_distance_squared(a, b, c, d) <= tol * tol) return PairStatus::intersecting;
  return PairStatus::ok;
}

SegmentDgli segment_dgli(const Point3& a, const Point3& b, const Point3& c, const Point3& d,
                         const Point3& normal) {
  SegmentDgli result;
  result.status = segment_pair_status(a, b, c, d);
  if (result.status != PairStatus::ok) return result;
  // 4 pi G = solid angle of the parallelogram P0..P3 (dgli/solid_angle.h). Moving B and D by
  // eps * normal moves AB and CD by eps * normal and leaves AC fixed, so the corner velocities
  // are P0' = 0, P1' = -normal, P2' = 0, P3' = normal.
  const ParallelogramCorners p = gli_parallelogram(a, b, c, d);
  const Point3 zero = Point3::Zero();
  const Point3 down = -normal;
  const double domega = triangle_solid_angle_derivative(p[0], p[1], p[2], zero, down, zero) +
                        triangle_solid_angle_derivative(p[0], p[2], p[3], zero, zero, normal);
  if (!std::isfinite(domega)) {
    result.status = PairStatus::intersecting;
    return result;
  }
  result.value = domega / (4 * kPi);
  return result;
}

SegmentDgli segment_dgli_flat(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
  SegmentDgli result;
  result.status = segment_pair_status(a, b, c, d);
  if (result.status != PairStatus::ok) return result;
  const Eigen::Vector2d ab = (b - a).head<2>(), ac = (c - a).head<2>(), cd = (d - c).head<2>();
  const Eigen::Vector2d bd = (d - b).head<2>();
  const double jacobian = cross2(cd, ab);
  // parallel segments: the parallelogram is flat, use the general form
  if (jacobian == 0) return segment_dgli(a, b, c, d);
  // the image of [0,1]^2 under x = AC + t CD - s AB, counter-clockwise
  std::array<Eigen::Vector2d, 4> corners = {ac, Eigen::Vector2d(ac - ab), Eigen::Vector2d(ac - ab + cd),
                                            Eigen::Vector2d(ac + cd)};
  double area2 = 0;
  for (int k = 0; k < 4; ++k) area2 += cross2(corners[k], corners[(k + 1) % 4]);
  if (area2 < 0) std::swap(corners[1], corners[3]);
  // docs/math.md §5.2: div(x / |x|^3) = -|x|^-3 in 2-D, so the area integral is minus the flux
  // through the edges: - sum_e [tau / (h sqrt(h^2 + tau^2))] from the edge start to its end
  double integral = 0;
  for (int k = 0; k < 4; ++k) {
    const Eigen::Vector2d& start = corners[k];
    const Eigen::Vector2d& end = corners[(k + 1) % 4];
    const Eigen::Vector2d tangent = (end - start).normalized();
    const Eigen::Vector2d outward(tangent.y(), -tangent.x());
    const double h = start.dot(outward);
    if (h == 0) continue;
    auto primitive = [h](double tau) { return tau / (h * std::sqrt(h * h + tau * tau)); };
    integral -= primitive(end.dot(tangent)) - primitive(start.dot(tangent));
  }
  // docs/math.md §5.2: d V6 along the motion = AC ^ BD; I = integral / |CD ^ AB|
  result.value = cross2(ac, bd) * integral / std::abs(jacobian) / (4 * kPi);
  return result;
}

}  // namespace tela
