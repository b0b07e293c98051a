#include "fit/a_priori.h"

#include <algorithm>
#include <functional>
#include <vector>

namespace tela {

APrioriCoefficients table_4_6(int repetition) {
  if (repetition == 2)
    return {{-0.0359, -0.0117, 0.0780, 0.7890}, {0.2155, -0.1711, 1.4410, 1.9387}};
  return {{-0.0223, -0.0178, 0.0714, 0.7664}, {0.2082, -0.1481, 1.1804, 1.7440}};
}

double size_measure(double area) { return area / (0.297 * 0.420); }

double speed_measure(const Eigen::MatrixXd& markers, double dt, int half_span) {
  std::vector<double> squared;
  const Eigen::Index frames = markers.rows(), points = markers.cols() / 3;
  for (Eigen::Index f = half_span; f + half_span < frames; ++f)
    for (Eigen::Index p = 0; p < points; ++p) {
      const double a = markers(f - half_span, 3 * p), b = markers(f + half_span, 3 * p);
      if (!(a == a) || !(b == b)) continue;
      const Eigen::Vector3d v = (markers.block<1, 3>(f + half_span, 3 * p) - markers.block<1, 3>(f - half_span, 3 * p)).transpose() /
                                (2 * half_span * dt);
      squared.push_back(v.squaredNorm());
    }
  if (squared.empty()) return 0;
  std::sort(squared.begin(), squared.end(), std::greater<double>());
  const std::size_t top = std::max<std::size_t>(1, squared.size() / 2);
  double sum = 0;
  for (std::size_t k = 0; k < top; ++k) sum += squared[k];
  return sum / top;
}

APrioriEstimate a_priori_parameters(double area, double speed, double rho, const APrioriCoefficients& c) {
  APrioriEstimate out;
  out.size = size_measure(area);
  out.speed = speed;
  out.delta = c.delta[0] + c.delta[1] * out.size + c.delta[2] * speed + c.delta[3] * rho;
  out.alpha = c.alpha[0] + c.alpha[1] * out.size + c.alpha[2] * speed + c.alpha[3] * rho;
  return out;
}

}  // namespace tela
