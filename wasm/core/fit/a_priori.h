// The a-priori forecast of delta and alpha (thesis §4.2.3, eq. 4.6, Table 4.6):
//   delta = d0 + d1 S + d2 V + d3 rho,   alpha = a0 + a1 S + a2 V + a3 rho
// S: normalized area (1 for A3, 2 for A2); V (m^2/s^2): the mean of the highest 50 % of the
// squared marker speeds over time and nodes; rho in kg/m^2. Used as a starting guess and
// shown beside the fit.
#pragma once

#include <Eigen/Core>
#include <array>

namespace tela {

struct APrioriCoefficients {
  std::array<double, 4> delta;  // d0 .. d3
  std::array<double, 4> alpha;  // a0 .. a3
};

// Table 4.6: repetition 1 (with a hanger) or 2 (bare hands).
APrioriCoefficients table_4_6(int repetition);

struct APrioriEstimate {
  double size = 0;    // S
  double speed = 0;   // V, m^2/s^2
  double delta = 0, alpha = 0;  // kg/m^2, kg/(m^2 s)
};

// S = area / area of A3 (0.297 m x 0.420 m).
double size_measure(double area);

// V from resampled marker positions (#frames by 3 #markers, NaN = missing) at step dt.
// Speeds are central differences over +-`half_span` samples (default 5: 0.1 s at 100 Hz), so
// that 1 mm of marker noise does not dominate them; only spans with both ends visible count.
double speed_measure(const Eigen::MatrixXd& markers, double dt, int half_span = 5);

APrioriEstimate a_priori_parameters(double area, double speed, double rho, const APrioriCoefficients& c);

}  // namespace tela
