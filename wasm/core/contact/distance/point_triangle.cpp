#include "contact/distance/point_triangle.h"

namespace tela {

PointTriangleClosest point_triangle_closest(const Eigen::Vector3d& p, const Eigen::Vector3d& a,
                                            const Eigen::Vector3d& b, const Eigen::Vector3d& c) {
  PointTriangleClosest r;
  const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  auto finish = [&](double u, double v, double w) {
    r.u = u;
    r.v = v;
    r.w = w;
    r.distance = (p - (u * a + v * b + w * c)).norm();
    return r;
  };
  // vertex region a
  if (d1 <= 0 && d2 <= 0) return finish(1, 0, 0);
  const Eigen::Vector3d bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return finish(0, 1, 0);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double t = d1 / (d1 - d3);
    return finish(1 - t, t, 0);
  }
  const Eigen::Vector3d cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return finish(0, 0, 1);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double t = d2 / (d2 - d6);
    return finish(1 - t, 0, t);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return finish(0, 1 - t, t);
  }
  const double sum = va + vb + vc;
  if (!(sum > 0)) {
    // degenerate triangle that slipped through the region tests: best of its three edges
    PointTriangleClosest best = finish(1, 0, 0);
    const Eigen::Vector3d* q[3] = {&a, &b, &c};
    for (int e = 0; e < 3; ++e) {
      const Eigen::Vector3d& s0 = *q[e];
      const Eigen::Vector3d& s1 = *q[(e + 1) % 3];
      const Eigen::Vector3d d = s1 - s0;
      const double len2 = d.squaredNorm();
      const double t = len2 > 0 ? std::min(1.0, std::max(0.0, (p - s0).dot(d) / len2)) : 0.0;
      const double dist = (p - (s0 + t * d)).norm();
      if (dist < best.distance) {
        double wts[3] = {0, 0, 0};
        wts[e] = 1 - t;
        wts[(e + 1) % 3] = t;
        best.u = wts[0];
        best.v = wts[1];
        best.w = wts[2];
        best.distance = dist;
      }
    }
    return best;
  }
  const double v = vb / sum, w = vc / sum;
  return finish(1 - v - w, v, w);
}

}  // namespace tela
