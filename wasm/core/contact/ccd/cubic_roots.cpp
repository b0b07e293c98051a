#include "contact/ccd/cubic_roots.h"

#include <algorithm>
#include <cmath>

namespace tela {
namespace {

double eval(double a3, double a2, double a1, double a0, double t) {
  return ((a3 * t + a2) * t + a1) * t + a0;
}

}  // namespace

int cubic_roots_unit_interval(double a3, double a2, double a1, double a0, double zero_tolerance,
                              double roots[3]) {
  if (std::fabs(a3) <= zero_tolerance && std::fabs(a2) <= zero_tolerance &&
      std::fabs(a1) <= zero_tolerance && std::fabs(a0) <= zero_tolerance) {
    return -1;
  }
  // break points: 0, the critical points inside (0, 1), 1
  double breaks[4];
  int nb = 0;
  breaks[nb++] = 0.0;
  {
    // derivative 3 a3 t^2 + 2 a2 t + a1 (stable quadratic formula)
    const double qa = 3 * a3, qb = 2 * a2, qc = a1;
    double crit[2];
    int nc = 0;
    if (qa != 0) {
      const double disc = qb * qb - 4 * qa * qc;
      if (disc >= 0) {
        const double sq = std::sqrt(disc);
        const double q = -0.5 * (qb + (qb >= 0 ? sq : -sq));
        if (q != 0) {
          crit[nc++] = q / qa;
          crit[nc++] = qc / q;
        } else {
          crit[nc++] = 0;  // qb = 0 and disc = 0: double critical point at 0
        }
      }
    } else if (qb != 0) {
      crit[nc++] = -qc / qb;
    }
    if (nc == 2 && crit[0] > crit[1]) std::swap(crit[0], crit[1]);
    for (int i = 0; i < nc; ++i)
      if (crit[i] > 0 && crit[i] < 1) breaks[nb++] = crit[i];
  }
  breaks[nb++] = 1.0;

  int n = 0;
  auto push = [&](double t) {
    if (n > 0 && std::fabs(roots[n - 1] - t) <= 1e-12) return;
    if (n < 3) roots[n++] = t;
  };
  for (int i = 0; i + 1 < nb; ++i) {
    double lo = breaks[i], hi = breaks[i + 1];
    double flo = eval(a3, a2, a1, a0, lo), fhi = eval(a3, a2, a1, a0, hi);
    if (std::fabs(flo) <= zero_tolerance) {
      push(lo);
      continue;
    }
    if (std::fabs(fhi) <= zero_tolerance) {
      // the root at hi is pushed by the next piece (or here for the last one)
      if (i + 2 == nb) push(hi);
      continue;
    }
    if ((flo < 0) == (fhi < 0)) continue;
    // monotone piece with a sign change: bisection to machine precision
    for (int it = 0; it < 200 && hi - lo > 0; ++it) {
      const double mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      const double fm = eval(a3, a2, a1, a0, mid);
      if (fm == 0) {
        lo = hi = mid;
        break;
      }
      if ((fm < 0) == (flo < 0)) {
        lo = mid;
        flo = fm;
      } else {
        hi = mid;
      }
    }
    push(0.5 * (lo + hi));
  }
  return n;
}

}  // namespace tela
