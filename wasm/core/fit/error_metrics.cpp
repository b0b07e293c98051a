#include "fit/error_metrics.h"

#include <algorithm>
#include <cmath>

namespace tela {

FrameError frame_error(const Positions& simulated, const std::vector<int>& marker_nodes,
                       const std::vector<double>& marker_weights, const double* recorded) {
  FrameError out;
  double weighted = 0, weight = 0, sum = 0, sum_sq = 0;
  for (std::size_t m = 0; m < marker_nodes.size(); ++m) {
    const double* r = recorded + 3 * m;
    if (!(r[0] == r[0])) continue;
    const int k = marker_nodes[m];
    const double dx = simulated(k, 0) - r[0], dy = simulated(k, 1) - r[1], dz = simulated(k, 2) - r[2];
    const double d2 = dx * dx + dy * dy + dz * dz;
    weighted += marker_weights[m] * d2;
    weight += marker_weights[m];
    const double d = std::sqrt(d2);
    sum += d;
    sum_sq += d2;
    ++out.visible;
  }
  if (out.visible == 0) return out;
  out.e_cm = 100.0 * std::sqrt(weighted / weight);
  const double mean = sum / out.visible;
  out.s_cm = 100.0 * std::sqrt(std::max(0.0, sum_sq / out.visible - mean * mean));
  return out;
}

ErrorSummary time_mean(const std::vector<FrameError>& frames, double begin, double end) {
  ErrorSummary out;
  double e = 0, s = 0;
  for (const FrameError& f : frames) {
    if (f.visible == 0 || f.time < begin - 1e-9 || f.time > end + 1e-9) continue;
    e += f.e_cm;
    s += f.s_cm;
    ++out.frames;
  }
  if (out.frames) {
    out.mean_error_cm = e / out.frames;
    out.mean_sd_cm = s / out.frames;
  }
  return out;
}

}  // namespace tela
