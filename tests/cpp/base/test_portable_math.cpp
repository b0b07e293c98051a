// Portable elementary functions and random numbers: accuracy against the C library and
// the moments of the distributions.
#include "base/portable_math.h"
#include "base/portable_random.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace tela;

TEST_CASE("portable_log agrees with std::log to a couple of ulps") {
  double worst = 0;
  for (double x : {1e-300, 1e-16, 1.1102230246251565e-16, 0.3, 0.5, 0.7071067811865476, 0.99999,
                   1.0, 1.00001, 1.5, 2.0, 10.0, 12345.678, 1e300}) {
    const double expected = std::log(x);
    const double err = std::abs(portable_log(x) - expected);
    CHECK(err <= 4e-16 * std::max(1.0, std::abs(expected)));
  }
  std::mt19937_64 rng(1);
  for (int k = 0; k < 100000; ++k) {
    const double x = 1.0 - uniform01(rng);  // (0, 1], as in Box-Muller
    const double expected = std::log(x);
    worst = std::max(worst, std::abs(portable_log(x) - expected) /
                                std::max(1e-300, std::abs(expected)));
  }
  CHECK(worst < 1e-15);
  CHECK(portable_log(1.0) == 0.0);
}

TEST_CASE("portable_tanh agrees with std::tanh to a couple of ulps; odd, 0 at 0, +-1 far out") {
  std::mt19937_64 rng(2);
  double worst = 0;
  for (int k = 0; k < 100000; ++k) {
    const double x = (uniform01(rng) - 0.5) * (k % 2 ? 50.0 : 2.0);  // [-25, 25] and [-1, 1]
    const double expected = std::tanh(x);
    worst = std::max(worst, std::abs(portable_tanh(x) - expected) / std::max(1e-300, std::abs(expected)));
    CHECK(portable_tanh(-x) == -portable_tanh(x));
  }
  MESSAGE("portable_tanh worst relative error " << worst);
  CHECK(worst < 1e-15);
  for (double x : {1e-300, 1e-10, 0.5, 1.0, 19.9})
    CHECK(std::abs(portable_tanh(x) - std::tanh(x)) <= 4e-16 * std::abs(std::tanh(x)));
  CHECK(portable_tanh(0.0) == 0.0);
  CHECK(portable_tanh(30.0) == 1.0);
  CHECK(portable_tanh(-1e300) == -1.0);
}

TEST_CASE("portable_sin_cos_turns agrees with std::sin, std::cos; exact at quarter turns") {
  const double pi = 3.14159265358979323846;
  double worst = 0;
  for (int k = -2000; k <= 2000; ++k) {
    const double turns = k / 997.0;
    double s = 0, c = 0;
    portable_sin_cos_turns(turns, &s, &c);
    worst = std::max(worst, std::abs(s - std::sin(2 * pi * turns)));
    worst = std::max(worst, std::abs(c - std::cos(2 * pi * turns)));
  }
  CHECK(worst < 2e-15);
  const double quarter[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  for (int q = 0; q < 4; ++q) {
    double s = 7, c = 7;
    portable_sin_cos_turns(0.25 * q, &s, &c);
    CHECK(s == quarter[q][0]);
    CHECK(c == quarter[q][1]);
  }
}

TEST_CASE("portable random: uniform and normal moments, reproducible") {
  std::mt19937_64 rng(123), again(123);
  const int n = 200000;
  double u_sum = 0, u_min = 1, u_max = 0, z_sum = 0, z_sq = 0, z_4 = 0;
  for (int k = 0; k < n; ++k) {
    const double u = uniform01(rng);
    u_sum += u;
    u_min = std::min(u_min, u);
    u_max = std::max(u_max, u);
    const double z = standard_normal(rng);
    z_sum += z;
    z_sq += z * z;
    z_4 += z * z * z * z;
  }
  CHECK(u_min >= 0.0);
  CHECK(u_max < 1.0);
  CHECK(u_sum / n == doctest::Approx(0.5).epsilon(0.01));
  CHECK(std::abs(z_sum / n) < 0.01);                        // standard error 0.0022
  CHECK(z_sq / n == doctest::Approx(1.0).epsilon(0.015));  // standard error 0.0032
  CHECK(z_4 / n == doctest::Approx(3.0).epsilon(0.05));    // kurtosis of a normal
  CHECK(uniform01(again) == std::ldexp(static_cast<double>(std::mt19937_64(123)() >> 11), -53));
  int counts[5] = {0, 0, 0, 0, 0};
  for (int k = 0; k < 50000; ++k) ++counts[uniform_index(rng, 5)];
  for (int c : counts) CHECK(c == doctest::Approx(10000).epsilon(0.05));
}
