#include "mocap/resample.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tela {
namespace {

// index k of the recorded frame with times[k] <= t < times[k+1] (clamped to the ends)
int bracket(const std::vector<double>& times, double t) {
  const auto it = std::upper_bound(times.begin(), times.end(), t);
  if (it == times.begin()) return 0;
  return static_cast<int>(it - times.begin()) - 1;
}

}  // namespace

Eigen::MatrixXd resample_markers(const Recording& rec, const std::vector<int>& points, double dt, int frames) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Eigen::MatrixXd out = Eigen::MatrixXd::Constant(frames, 3 * static_cast<Eigen::Index>(points.size()), nan);
  const double max_gap = 1.5 / rec.rate;
  const double snap = 1e-9;
  for (int n = 0; n < frames; ++n) {
    const double t = n * dt;
    const int k = bracket(rec.times, t + snap);
    if (k >= rec.frame_count()) continue;
    const bool exact = std::abs(rec.times[k] - t) <= snap;
    if (!exact && (k + 1 >= rec.frame_count() || rec.times[k + 1] - rec.times[k] > max_gap || t < rec.times[k])) continue;
    for (std::size_t m = 0; m < points.size(); ++m) {
      const int p = points[m];
      if (!rec.valid(k, p)) continue;
      if (exact) {
        out.block<1, 3>(n, 3 * m) = rec.positions.block<1, 3>(k, 3 * p);
      } else if (rec.valid(k + 1, p)) {
        const double w = (t - rec.times[k]) / (rec.times[k + 1] - rec.times[k]);
        out.block<1, 3>(n, 3 * m) =
            (1 - w) * rec.positions.block<1, 3>(k, 3 * p) + w * rec.positions.block<1, 3>(k + 1, 3 * p);
      }
    }
  }
  return out;
}

Eigen::MatrixXd gap_filled_track(const Recording& rec, int point, double dt, int frames) {
  std::vector<int> valid;
  for (int f = 0; f < rec.frame_count(); ++f)
    if (rec.valid(f, point)) valid.push_back(f);
  // velocity at valid sample k from its valid neighbour on `side` (-1, +1), or the secant
  // across the gap when that neighbour is missing too
  auto tangent = [&](std::size_t k, int side, std::size_t other) -> Eigen::Vector3d {
    const long j = static_cast<long>(k) + side;
    const std::size_t n = valid.size();
    if (j >= 0 && j < static_cast<long>(n) && std::abs(valid[j] - valid[k]) == 1) {
      const int a = std::min(valid[j], valid[k]), b = std::max(valid[j], valid[k]);
      return (rec.position(b, point) - rec.position(a, point)) / (rec.times[b] - rec.times[a]);
    }
    const int a = std::min(valid[other], valid[k]), b = std::max(valid[other], valid[k]);
    return (rec.position(b, point) - rec.position(a, point)) / (rec.times[b] - rec.times[a]);
  };
  Eigen::MatrixXd out(frames, 3);
  for (int n = 0; n < frames; ++n) {
    const double t = n * dt;
    // the last valid frame at or before t, and the first after it
    const auto after = std::upper_bound(valid.begin(), valid.end(), t,
                                        [&](double time, int f) { return time < rec.times[f]; });
    if (after == valid.begin()) {
      out.row(n) = rec.position(valid.front(), point).transpose();
    } else if (after == valid.end()) {
      out.row(n) = rec.position(valid.back(), point).transpose();
    } else {
      const std::size_t kb = static_cast<std::size_t>(after - valid.begin()), ka = kb - 1;
      const int a = valid[ka], b = valid[kb];
      const double h = rec.times[b] - rec.times[a], s = (t - rec.times[a]) / h;
      if (b == a + 1) {  // no gap: linear between neighbouring frames
        out.row(n) = ((1 - s) * rec.position(a, point) + s * rec.position(b, point)).transpose();
      } else {  // a gap: cubic Hermite with the velocities on either side of it
        const Eigen::Vector3d va = tangent(ka, -1, kb), vb = tangent(kb, +1, ka);
        const double s2 = s * s, s3 = s2 * s;
        out.row(n) = ((2 * s3 - 3 * s2 + 1) * rec.position(a, point) + (s3 - 2 * s2 + s) * h * va +
                      (-2 * s3 + 3 * s2) * rec.position(b, point) + (s3 - s2) * h * vb)
                         .transpose();
      }
    }
  }
  return out;
}

}  // namespace tela
