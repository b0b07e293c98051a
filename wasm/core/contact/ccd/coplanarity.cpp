#include "contact/ccd/coplanarity.h"

#include "contact/ccd/cubic_roots.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace tela {
namespace {

double det3(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  return a.dot(b.cross(c));
}

}  // namespace

std::array<double, 4> coplanarity_cubic(const MovingPoints& p) {
  const Eigen::Vector3d v4 = p.t1[3] - p.t0[3];
  Eigen::Vector3d x[3], v[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = p.t0[i] - p.t0[3];
    v[i] = (p.t1[i] - p.t0[i]) - v4;
  }
  // thesis eq. 3.3
  const double a3 = det3(v[0], v[1], v[2]);
  const double a2 = det3(x[0], v[1], v[2]) + det3(v[0], x[1], v[2]) + det3(v[0], v[1], x[2]);
  const double a1 = det3(x[0], x[1], v[2]) + det3(x[0], v[1], x[2]) + det3(v[0], x[1], x[2]);
  const double a0 = det3(x[0], x[1], x[2]);
  return {a3, a2, a1, a0};
}

CoplanarTimes coplanar_times(const MovingPoints& p) {
  // scale of the geometry: largest extent of the points over both ends
  double length = 0;
  for (int i = 0; i < 3; ++i) {
    length = std::max(length, (p.t0[i] - p.t0[3]).lpNorm<Eigen::Infinity>());
    length = std::max(length, (p.t1[i] - p.t1[3]).lpNorm<Eigen::Infinity>());
  }
  CoplanarTimes out;
  if (length == 0) {
    out.count = -1;
    return out;
  }
  const std::array<double, 4> a = coplanarity_cubic(p);
  // the coefficients are sums of products of three lengths: round-off ~ 1e-15 length^3;
  // a relative 1e-13 separates "zero" from a genuine (if tiny) volume
  const double tolerance = 1e-13 * length * length * length;
  out.count = cubic_roots_unit_interval(a[0], a[1], a[2], a[3], tolerance, out.tau);
  return out;
}

}  // namespace tela
