// Sampled test surfaces with seeded noise and non-uniform density, and their known topology.
#pragma once

#include "geometry/mesh.h"
#include "base/portable_math.h"
#include "base/portable_random.h"

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

namespace tela::morse_test {

constexpr double kPi = 3.14159265358979323846;

inline double cos_turns(double t) {
  double s = 0, c = 0;
  portable_sin_cos_turns(t, &s, &c);
  return c;
}
inline double sin_turns(double t) {
  double s = 0, c = 0;
  portable_sin_cos_turns(t, &s, &c);
  return s;
}

// Rejection sampling of `count` points from a parametrised surface x(u, v), (u, v) uniform in
// [0, 1)^2, accepted with probability area_weight(u, v) * density(u, v) (both <= 1), then
// moved by Gaussian noise of standard deviation `noise` along each axis.
inline Positions sample_surface(int count, std::uint64_t seed, double noise,
                                const std::function<Eigen::Vector3d(double, double)>& surface,
                                const std::function<double(double, double)>& acceptance) {
  std::mt19937_64 rng(seed);
  Positions points(count, 3);
  int made = 0;
  while (made < count) {
    const double u = uniform01(rng), v = uniform01(rng);
    if (uniform01(rng) >= acceptance(u, v)) continue;
    const Eigen::Vector3d p = surface(u, v);
    for (int a = 0; a < 3; ++a) points(made, a) = p(a) + noise * standard_normal(rng);
    ++made;
  }
  return points;
}

// density varying by a factor of 3 across the surface
inline double ramp(double u) { return 0.34 + 0.66 * u; }

inline Positions sphere(int count, std::uint64_t seed) {
  return sample_surface(
      count, seed, 0.004,
      [](double u, double v) {
        const double z = 2 * u - 1, r = std::sqrt(std::max(0.0, 1 - z * z));
        return Eigen::Vector3d(r * cos_turns(v), r * sin_turns(v), z);
      },
      [](double u, double) { return ramp(u); });
}

inline Positions torus(int count, std::uint64_t seed) {
  const double big = 1.0, small = 0.4;
  return sample_surface(
      count, seed, 0.004,
      [=](double u, double v) {
        const double ring = big + small * cos_turns(v);
        return Eigen::Vector3d(ring * cos_turns(u), ring * sin_turns(u), small * sin_turns(v));
      },
      [=](double u, double v) { return (big + small * cos_turns(v)) / (big + small) * ramp(u); });
}

// the (2,3) torus knot c(t), t in turns
inline Eigen::Vector3d knot_curve(double t) {
  const double ring = 2 + cos_turns(3 * t);
  return Eigen::Vector3d(ring * cos_turns(2 * t), ring * sin_turns(2 * t), sin_turns(3 * t));
}
constexpr double kKnotTube = 0.25;

inline Positions knotted_torus(int count, std::uint64_t seed) {
  auto frame = [](double t, Eigen::Vector3d* tangent, Eigen::Vector3d* normal, Eigen::Vector3d* binormal) {
    const double dt = 1e-6;
    *tangent = (knot_curve(t + dt) - knot_curve(t - dt)).normalized();
    *normal = tangent->cross(Eigen::Vector3d::UnitZ()).normalized();  // the knot is never vertical
    *binormal = tangent->cross(*normal);
  };
  auto speed = [](double t) { return (knot_curve(t + 1e-6) - knot_curve(t - 1e-6)).norm() / 2e-6; };
  double max_speed = 0;
  for (int i = 0; i < 1000; ++i) max_speed = std::max(max_speed, speed(i / 1000.0));
  return sample_surface(
      count, seed, 0.002,
      [=](double u, double v) {
        Eigen::Vector3d t, nn, b;
        frame(u, &t, &nn, &b);
        return Eigen::Vector3d(knot_curve(u) + kKnotTube * (cos_turns(v) * nn + sin_turns(v) * b));
      },
      [=](double u, double) { return speed(u) / max_speed * (0.5 + 0.5 * u); });
}

inline Positions square_cloth(int count, std::uint64_t seed, double wave) {
  return sample_surface(
      count, seed, 0.002,
      [=](double u, double v) {
        return Eigen::Vector3d(u, v, wave * sin_turns(u) * sin_turns(v) + 0.5 * wave * cos_turns(1.5 * u));
      },
      [](double u, double v) { return ramp(0.5 * (u + v)); });
}

inline Positions open_cylinder(int count, std::uint64_t seed) {
  return sample_surface(
      count, seed, 0.003,
      [](double u, double v) { return Eigen::Vector3d(0.5 * cos_turns(u), 0.5 * sin_turns(u), 1.5 * v); },
      [](double, double v) { return ramp(v); });
}

// an ellipsoid with four round holes (the thesis's vest has the same topology)
inline Positions holed_ellipsoid(int count, std::uint64_t seed) {
  const Eigen::Vector3d holes[4] = {Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0, 0, -1),
                                    Eigen::Vector3d(1, 1, 0).normalized(), Eigen::Vector3d(-1, 0.3, 0.2).normalized()};
  return sample_surface(
      count, seed, 0.003,
      [](double u, double v) {
        const double z = 2 * u - 1, r = std::sqrt(std::max(0.0, 1 - z * z));
        return Eigen::Vector3d(1.0 * r * cos_turns(v), 0.75 * r * sin_turns(v), 0.6 * z);
      },
      [=](double u, double v) {
        const double z = 2 * u - 1, r = std::sqrt(std::max(0.0, 1 - z * z));
        const Eigen::Vector3d s(r * cos_turns(v), r * sin_turns(v), z);
        for (const Eigen::Vector3d& h : holes)
          if (s.dot(h) > 0.85) return 0.0;
        return 0.5 + 0.5 * u;
      });
}

// a Moebius strip of width 0.3 around the unit circle (non-orientable, one boundary curve)
inline Positions moebius_strip(int count, std::uint64_t seed) {
  return sample_surface(
      count, seed, 0.002,
      [](double u, double v) {
        const double w = 0.3 * (v - 0.5);
        const double ring = 1 + w * cos_turns(u / 2);
        return Eigen::Vector3d(ring * cos_turns(u), ring * sin_turns(u), w * sin_turns(u / 2));
      },
      [](double, double v) { return ramp(v); });
}

}  // namespace tela::morse_test
