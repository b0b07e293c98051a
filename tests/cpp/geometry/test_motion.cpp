// Prescribed motions: hold, a sinusoid clamped to its window, keyframes interpolated, ramped
// in from t = 0 before the first key and held after the last.
#include "geometry/motion.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace tela;

namespace {

using V = Eigen::Vector3d;

}  // namespace

TEST_SUITE("geometry") {

TEST_CASE("motion: hold never moves") {
  PrescribedMotion hold;
  hold.amplitude = 1;  // ignored by hold
  for (double t : {0.0, 0.5, 3.0}) CHECK(motion_displacement(hold, t) == V::Zero());
}

TEST_CASE("motion: sinusoid along the unit axis, zero at start, held outside [start, stop]") {
  PrescribedMotion m;
  m.kind = MotionKind::sinusoid;
  m.axis = V(0, 3, 4);  // unit (0, 0.6, 0.8)
  m.amplitude = 0.1;
  m.frequency = 0.5;
  m.phase = 0.3;
  m.start = 1;
  m.stop = 2;
  const auto expected = [](double tau) -> V {
    return V(0, 0.6, 0.8) * (0.1 * (std::sin(2 * 3.14159265358979323846 * 0.5 * tau + 0.3) - std::sin(0.3)));
  };
  CHECK(motion_displacement(m, 0.5).norm() == 0.0);
  CHECK(motion_displacement(m, 1.0).norm() == 0.0);
  CHECK((motion_displacement(m, 1.4) - expected(0.4)).norm() < 1e-15);
  CHECK((motion_displacement(m, 2.0) - expected(1.0)).norm() < 1e-15);
  CHECK((motion_displacement(m, 7.0) - expected(1.0)).norm() < 1e-15);
}

TEST_CASE("motion: keyframes interpolate linearly, ramp in from t = 0, hold after the last") {
  PrescribedMotion m;
  m.kind = MotionKind::keyframes;
  m.keyframes = {{1.0, V(1, 0, 0)}, {3.0, V(1, 2, 0)}};
  CHECK((motion_displacement(m, 0.0) - V(0, 0, 0)).norm() < 1e-15);
  CHECK((motion_displacement(m, 0.25) - V(0.25, 0, 0)).norm() < 1e-15);
  CHECK((motion_displacement(m, 2.0) - V(1, 1, 0)).norm() < 1e-15);
  CHECK((motion_displacement(m, 5.0) - V(1, 2, 0)).norm() < 1e-15);
  // a first key at t <= 0 holds its offset before it; no keys: no motion
  m.keyframes = {{0.0, V(0, 0, 1)}, {1.0, V(0, 0, 2)}};
  CHECK((motion_displacement(m, -1.0) - V(0, 0, 1)).norm() < 1e-15);
  m.keyframes.clear();
  CHECK(motion_displacement(m, 1.0) == V::Zero());
}

}  // TEST_SUITE
