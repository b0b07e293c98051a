#include "dgli/segment_gli.h"

#include "dgli/solid_angle.h"
#include "base/portable_math.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cmath>

namespace tela {
namespace {

constexpr double kPi = 3.14159265358979323846;

// asin of a dot product of unit vectors, clamped against round-off outside [-1, 1]
double clamped_asin(double x) { return std::asin(std::clamp(x, -1.0, 1.0)); }

struct GaussLegendre {
  std::array<double, 12> nodes{}, weights{};  // on [0, 1]
};

// 12-point Gauss-Legendre rule on [0, 1]: Newton's method on P_12 from the usual guesses
GaussLegendre gauss_legendre_12() {
  GaussLegendre rule;
  constexpr int n = 12;
  for (int i = 1; i <= n; ++i) {
    double sine = 0, x = 0;
    portable_sin_cos_turns((i - 0.25) / (2.0 * (n + 0.5)), &sine, &x);
    double dp = 1;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double step = p1 / dp;
      x -= step;
      if (std::abs(step) < 1e-16) break;
    }
    rule.nodes[i - 1] = 0.5 * (1 - x);
    rule.weights[i - 1] = 1.0 / ((1 - x * x) * dp * dp);  // 2 / ((1-x^2) P'^2), halved for [0, 1]
  }
  return rule;
}

}  // namespace

double segment_gli(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
  const Point3 ab = b - a, ac = c - a, ad = d - a, bc = c - b, bd = d - b;
  // thesis eq. 7.5: the numerator of the integrand is det(AB, AC, AD) = 6 x signed volume
  const double v6 = ab.dot(ac.cross(ad));
  // three collinear points make v6 = 0 too, so every normal below is well defined
  if (v6 == 0) return 0;
  const Point3 n_a = ac.cross(ad).normalized();
  const Point3 n_b = bd.cross(bc).normalized();
  const Point3 n_c = bc.cross(ac).normalized();
  const Point3 n_d = ad.cross(bd).normalized();
  // thesis eq. 7.3 (Klenin-Langowski): the unsigned solid angle, signed by det(AB, AC, AD)
  const double omega = clamped_asin(n_a.dot(n_d)) + clamped_asin(n_d.dot(n_b)) +
                       clamped_asin(n_b.dot(n_c)) + clamped_asin(n_c.dot(n_a));
  return (v6 > 0 ? omega : -omega) / (4 * kPi);
}

double segment_gli_solid_angle(const Point3& a, const Point3& b, const Point3& c, const Point3& d) {
  const ParallelogramCorners p = gli_parallelogram(a, b, c, d);
  const double omega = triangle_solid_angle(p[0], p[1], p[2]) + triangle_solid_angle(p[0], p[2], p[3]);
  return omega / (4 * kPi);
}

double segment_gli_quadrature(const Point3& a, const Point3& b, const Point3& c, const Point3& d,
                              int panels) {
  static const GaussLegendre rule = gauss_legendre_12();
  const Point3 ab = b - a, ac = c - a, cd = d - c;
  const double v6 = ab.dot(ac.cross(d - a));
  const double h = 1.0 / panels;
  double integral = 0;
  for (int ps = 0; ps < panels; ++ps)
    for (int pt = 0; pt < panels; ++pt)
      for (int i = 0; i < 12; ++i)
        for (int j = 0; j < 12; ++j) {
          const double s = (ps + rule.nodes[i]) * h, t = (pt + rule.nodes[j]) * h;
          const double r = (ac + t * cd - s * ab).norm();
          integral += rule.weights[i] * rule.weights[j] * h * h / (r * r * r);
        }
  return v6 * integral / (4 * kPi);
}

double linking_number(const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>& p,
                      const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>& q) {
  const Eigen::Index n = p.rows(), m = q.rows();
  double sum = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Point3 a = p.row(i).transpose(), b = p.row((i + 1) % n).transpose();
    for (Eigen::Index j = 0; j < m; ++j)
      sum += segment_gli(a, b, q.row(j).transpose(), q.row((j + 1) % m).transpose());
  }
  return sum;
}

}  // namespace tela
