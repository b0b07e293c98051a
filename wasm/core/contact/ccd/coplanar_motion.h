// CCD fallback for four points that stay coplanar during the whole step (parallel edges, a
// point moving in its triangle's plane), where the coplanarity cubic vanishes identically:
// the distance is sampled at 33 times and refined around each local minimum by golden-section
// search; the first time the distance drops to `tolerance` is the contact. Our addition (the
// thesis does not treat this case); exact for distances that are unimodal between samples,
// such as parallel edges crossing each other.
#pragma once

#include "contact/ccd/coplanarity.h"
#include "contact/ccd/point_triangle.h"

#include <cmath>

namespace tela {

template <class Distance>
CcdResult coplanar_motion_contact(const Distance& distance, double tolerance) {
  constexpr int kSamples = 32;
  double d[kSamples + 1];
  for (int k = 0; k <= kSamples; ++k) d[k] = distance(static_cast<double>(k) / kSamples);
  for (int k = 0; k <= kSamples; ++k) {
    if (d[k] <= tolerance) {
      // the first touching time, by bisection between the last sample apart and this one
      double lo = static_cast<double>(k > 0 ? k - 1 : 0) / kSamples, hi = static_cast<double>(k) / kSamples;
      if (k == 0) return CcdResult{true, 0.0};
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        if (distance(mid) <= tolerance) hi = mid; else lo = mid;
      }
      return CcdResult{true, hi};
    }
    const bool local_min = (k == 0 || d[k] <= d[k - 1]) && (k == kSamples || d[k] <= d[k + 1]);
    if (!local_min) continue;
    // golden-section search for the minimum in the two intervals around the sample
    double lo = static_cast<double>(k > 0 ? k - 1 : 0) / kSamples;
    double hi = static_cast<double>(k < kSamples ? k + 1 : kSamples) / kSamples;
    const double g = 0.5 * (std::sqrt(5.0) - 1.0);
    double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
    double f1 = distance(x1), f2 = distance(x2);
    for (int it = 0; it < 80; ++it) {
      if (f1 <= tolerance) return CcdResult{true, x1};
      if (f2 <= tolerance) return CcdResult{true, x2};
      if (f1 < f2) {
        hi = x2;
        x2 = x1;
        f2 = f1;
        x1 = hi - g * (hi - lo);
        f1 = distance(x1);
      } else {
        lo = x1;
        x1 = x2;
        f1 = f2;
        x2 = lo + g * (hi - lo);
        f2 = distance(x2);
      }
    }
  }
  return CcdResult{};
}

// The first contact of four moving points (`m`) whose primitive distance at normalized time
// tau is `distance(tau)`: the roots of the coplanarity cubic where the distance is within
// `tolerance`, or the sampled search above when the points stay coplanar all step.
template <class Distance>
CcdResult first_contact(const MovingPoints& m, const Distance& distance, double tolerance) {
  const CoplanarTimes times = coplanar_times(m);
  if (times.count < 0) return coplanar_motion_contact(distance, tolerance);
  for (int i = 0; i < times.count; ++i)
    if (distance(times.tau[i]) <= tolerance) return CcdResult{true, times.tau[i]};
  return CcdResult{};
}

}  // namespace tela
