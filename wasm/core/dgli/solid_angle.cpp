#include "dgli/solid_angle.h"

#include <Eigen/Geometry>
#include <cmath>

namespace tela {

ParallelogramCorners gli_parallelogram(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                       const Eigen::Vector3d& c, const Eigen::Vector3d& d) {
  const Eigen::Vector3d ab = b - a, ac = c - a, cd = d - c;
  return {ac, Eigen::Vector3d(ac - ab), Eigen::Vector3d(ac - ab + cd), Eigen::Vector3d(ac + cd)};
}

SolidAngleTerms solid_angle_terms(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                                  const Eigen::Vector3d& r) {
  const double lp = p.norm(), lq = q.norm(), lr = r.norm();
  SolidAngleTerms terms;
  terms.numerator = p.dot(q.cross(r));
  terms.denominator = lp * lq * lr + p.dot(q) * lr + p.dot(r) * lq + q.dot(r) * lp;
  return terms;
}

double triangle_solid_angle(const Eigen::Vector3d& p, const Eigen::Vector3d& q, const Eigen::Vector3d& r) {
  const SolidAngleTerms t = solid_angle_terms(p, q, r);
  return 2 * std::atan2(t.numerator, t.denominator);
}

double triangle_solid_angle_derivative(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                                       const Eigen::Vector3d& r, const Eigen::Vector3d& dp,
                                       const Eigen::Vector3d& dq, const Eigen::Vector3d& dr) {
  const double lp = p.norm(), lq = q.norm(), lr = r.norm();
  const double n = p.dot(q.cross(r));
  const double d = lp * lq * lr + p.dot(q) * lr + p.dot(r) * lq + q.dot(r) * lp;
  // d|x| = x.dx / |x|
  const double dlp = p.dot(dp) / lp, dlq = q.dot(dq) / lq, dlr = r.dot(dr) / lr;
  const double dn = dp.dot(q.cross(r)) + p.dot(dq.cross(r)) + p.dot(q.cross(dr));
  const double dd = dlp * lq * lr + lp * dlq * lr + lp * lq * dlr +
                    (dp.dot(q) + p.dot(dq)) * lr + p.dot(q) * dlr +
                    (dp.dot(r) + p.dot(dr)) * lq + p.dot(r) * dlq +
                    (dq.dot(r) + q.dot(dr)) * lp + q.dot(r) * dlp;
  // d/de 2 atan2(n, d) = 2 (n' d - n d') / (n^2 + d^2)
  return 2 * (dn * d - n * dd) / (n * n + d * d);
}

}  // namespace tela
