#include "base/portable_math.h"

#include <cassert>
#include <cmath>

namespace tela {

double portable_log(double x) {
  assert(x > 0);
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)); frexp and the scaling by 2 are exact
  int e = 0;
  double m = std::frexp(x, &e);  // m in [1/2, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  // log m = 2 atanh s = 2 (s + s^3/3 + s^5/5 + ...), s = (m-1)/(m+1), |s| <= 0.1716;
  // s^2 <= 0.0295 so 12 terms leave a truncation error below 1e-19
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double series = 1.0 / 25.0;
  for (int k = 11; k >= 0; --k) series = 1.0 / (2 * k + 1) + s2 * series;
  // ln 2 split in a part with few significant bits (e * ln2_hi is exact) and the rest
  const double ln2_hi = 6.93147180369123816490e-01;
  const double ln2_lo = 1.90821492927058770002e-10;
  const double de = static_cast<double>(e);
  return de * ln2_hi + (de * ln2_lo + 2.0 * s * series);
}

namespace {

// e^z - 1 for z <= 0: for |z| <= 1 the Taylor series in nested form z (1 + z/2 (1 + z/3 (...)))
// to z^27 (truncation below 1e-28), else e^z = 2^k e^r with r = z - k ln 2 in
// [-ln2/2, ln2/2] (ldexp is exact) and the series of e^r in nested form
double expm1_nonpositive(double z) {
  if (z >= -1.0) {
    double p = 1.0;
    for (int k = 27; k >= 2; --k) p = 1.0 + z / k * p;
    return z * p;
  }
  const double ln2_hi = 6.93147180369123816490e-01;
  const double ln2_lo = 1.90821492927058770002e-10;
  const double k = std::floor(z / 0.69314718055994530942 + 0.5);
  const double r = (z - k * ln2_hi) - k * ln2_lo;
  double p = 1.0;
  for (int n = 20; n >= 1; --n) p = 1.0 + r / n * p;
  return std::ldexp(p, static_cast<int>(k)) - 1.0;
}

}  // namespace

double portable_tanh(double x) {
  // tanh |x| = -u / (2 + u), u = e^(-2|x|) - 1 (no cancellation near 0)
  const double a = std::abs(x);
  if (a > 20.0) return x > 0 ? 1.0 : -1.0;
  const double u = expm1_nonpositive(-2.0 * a);
  const double t = -u / (2.0 + u);
  return x < 0 ? -t : t;
}

void portable_sin_cos_turns(double turns, double* sine, double* cosine) {
  // reduce to the nearest quarter turn q and a remainder r in [-1/8, 1/8] turn
  const double t = turns - std::floor(turns);     // [0, 1)
  const double q = std::floor(4.0 * t + 0.5);     // 0..4 (floor is exact)
  const double r = t - 0.25 * q;
  const double x = 6.28318530717958647692 * r;   // radians, |x| <= pi/4
  const double x2 = x * x;
  // Taylor series to x^19 (sin) and x^20 (cos), error below 1e-20 for |x| <= pi/4:
  // sin x = x sum_k (-1)^k x^2k / (2k+1)!,  cos x = sum_k (-1)^k x^2k / (2k)!
  double sin_coeff[10], cos_coeff[10];
  double factorial = 1.0;  // exact in double up to 20!
  for (int k = 0; k < 10; ++k) {
    const double sign = (k % 2 == 0) ? 1.0 : -1.0;
    if (k > 0) factorial *= (2 * k - 1) * (2 * k);
    cos_coeff[k] = sign / factorial;  // (2k)!
    sin_coeff[k] = sign / (factorial * (2 * k + 1));  // (2k+1)!
  }
  double s = 0.0, c = 0.0;
  for (int k = 9; k >= 0; --k) {
    s = sin_coeff[k] + x2 * s;
    c = cos_coeff[k] + x2 * c;
  }
  s *= x;
  // rotate by q quarter turns
  switch (static_cast<int>(q) % 4) {
    case 0: *sine = s; *cosine = c; break;
    case 1: *sine = c; *cosine = -s; break;
    case 2: *sine = -s; *cosine = -c; break;
    default: *sine = -c; *cosine = s; break;
  }
}

}  // namespace tela
