#include "mocap/resample.h"

#include <algorithm>
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
      const int a = *(after - 1), b = *after;
      const double w = (t - rec.times[a]) / (rec.times[b] - rec.times[a]);
      out.row(n) = ((1 - w) * rec.position(a, point) + w * rec.position(b, point)).transpose();
    }
  }
  return out;
}

}  // namespace tela
