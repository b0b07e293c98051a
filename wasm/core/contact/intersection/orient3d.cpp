#include "contact/intersection/orient3d.h"

#include <cmath>
#include <vector>

namespace tela {
namespace {

using Expansion = std::vector<double>;  // non-overlapping components, increasing magnitude

// error-free transformations (Knuth two-sum, Dekker split / two-product)
inline void two_sum(double a, double b, double& x, double& y) {
  x = a + b;
  const double bv = x - a;
  const double av = x - bv;
  y = (a - av) + (b - bv);
}

inline void split(double a, double& hi, double& lo) {
  const double c = 134217729.0 * a;  // 2^27 + 1
  const double abig = c - a;
  hi = c - abig;
  lo = a - hi;
}

inline void two_product(double a, double b, double& x, double& y) {
  x = a * b;
  double ahi, alo, bhi, blo;
  split(a, ahi, alo);
  split(b, bhi, blo);
  const double err1 = x - (ahi * bhi);
  const double err2 = err1 - (alo * bhi);
  const double err3 = err2 - (ahi * blo);
  y = (alo * blo) - err3;
}

// sum of two expansions (Shewchuk's linear expansion-sum with zero elimination, done as
// repeated grow-expansion: simple and exact)
Expansion grow(const Expansion& e, double b) {
  Expansion h;
  h.reserve(e.size() + 1);
  double q = b;
  for (double c : e) {
    double sum, err;
    two_sum(q, c, sum, err);
    if (err != 0) h.push_back(err);
    q = sum;
  }
  if (q != 0 || h.empty()) h.push_back(q);
  return h;
}

Expansion add(const Expansion& a, const Expansion& b) {
  Expansion out = a;
  for (double c : b) out = grow(out, c);
  return out;
}

Expansion scale(const Expansion& e, double b) {
  Expansion out{0.0};
  for (double c : e) {
    double p, err;
    two_product(c, b, p, err);
    out = grow(out, err);
    out = grow(out, p);
  }
  return out;
}

Expansion multiply(const Expansion& a, const Expansion& b) {
  Expansion out{0.0};
  for (double c : b) out = add(out, scale(a, c));
  return out;
}

Expansion difference(double a, double b) {
  double x, y;
  two_sum(a, -b, x, y);
  return y != 0 ? Expansion{y, x} : Expansion{x};
}

Expansion negate(Expansion e) {
  for (double& c : e) c = -c;
  return e;
}

int sign_of(const Expansion& e) {
  // the largest non-zero component decides (components do not overlap)
  for (auto it = e.rbegin(); it != e.rend(); ++it)
    if (*it != 0) return *it > 0 ? 1 : -1;
  return 0;
}

int orient3d_exact(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                   const Eigen::Vector3d& d) {
  Expansion u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k) {
    u[k] = difference(b[k], a[k]);
    v[k] = difference(c[k], a[k]);
    w[k] = difference(d[k], a[k]);
  }
  // u . (v x w)
  const Expansion cx = add(multiply(v[1], w[2]), negate(multiply(v[2], w[1])));
  const Expansion cy = add(multiply(v[2], w[0]), negate(multiply(v[0], w[2])));
  const Expansion cz = add(multiply(v[0], w[1]), negate(multiply(v[1], w[0])));
  const Expansion det = add(add(multiply(u[0], cx), multiply(u[1], cy)), multiply(u[2], cz));
  return sign_of(det);
}

}  // namespace

int orient3d_sign(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c,
                  const Eigen::Vector3d& d) {
  const double ux = b.x() - a.x(), uy = b.y() - a.y(), uz = b.z() - a.z();
  const double vx = c.x() - a.x(), vy = c.y() - a.y(), vz = c.z() - a.z();
  const double wx = d.x() - a.x(), wy = d.y() - a.y(), wz = d.z() - a.z();
  const double t1 = vy * wz, t2 = vz * wy, t3 = vz * wx, t4 = vx * wz, t5 = vx * wy, t6 = vy * wx;
  const double det = ux * (t1 - t2) + uy * (t3 - t4) + uz * (t5 - t6);
  const double permanent = std::fabs(ux) * (std::fabs(t1) + std::fabs(t2)) +
                           std::fabs(uy) * (std::fabs(t3) + std::fabs(t4)) +
                           std::fabs(uz) * (std::fabs(t5) + std::fabs(t6));
  // Shewchuk's o3derrboundA is 7.77e-16 for det computed from exact differences; the
  // differences here are rounded too, so a generous 1e-14 keeps the filter conservative
  const double bound = 1e-14 * permanent;
  if (det > bound) return 1;
  if (det < -bound) return -1;
  return orient3d_exact(a, b, c, d);
}

}  // namespace tela
