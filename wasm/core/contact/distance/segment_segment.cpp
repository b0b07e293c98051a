#include "contact/distance/segment_segment.h"

#include <algorithm>

namespace tela {

SegmentSegmentClosest segment_segment_closest(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                                              const Eigen::Vector3d& q0, const Eigen::Vector3d& q1) {
  SegmentSegmentClosest r;
  const Eigen::Vector3d d1 = p1 - p0, d2 = q1 - q0, w = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(w);
  const double tiny = 1e-30;
  double s = 0, t = 0;
  if (a <= tiny && e <= tiny) {
    r.parallel = true;
  } else if (a <= tiny) {
    r.parallel = true;
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(w);
    if (e <= tiny) {
      r.parallel = true;
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;  // >= 0
      if (denom > 1e-12 * a * e) {
        s = std::clamp((b * f - c * e) / denom, 0.0, 1.0);
      } else {
        r.parallel = true;  // any s works for the lines; start from 0 and let the clamps decide
        s = 0;
      }
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
      if (r.parallel) {
        // parallel: the overlap's midpoint is a better representative than an end
        const double s0 = std::clamp(-c / a, 0.0, 1.0), s1 = std::clamp((b - c) / a, 0.0, 1.0);
        s = 0.5 * (s0 + s1);
        t = std::clamp((b * s + f) / e, 0.0, 1.0);
      }
    }
  }
  r.s = s;
  r.t = t;
  r.distance = ((p0 + s * d1) - (q0 + t * d2)).norm();
  return r;
}

}  // namespace tela
