// A prescribed motion: the displacement d(t) of a point from its rest (t = 0) position. Cloth
// controls move their nodes by it (cloth/controls.h) and obstacles translate by it
// (contact/obstacles/rigid_pose.h). Built from the scenario's motion by the compile step
// (sim/compile.h).
#pragma once

#include <Eigen/Core>
#include <vector>

namespace tela {

enum class MotionKind { hold, sinusoid, keyframes };

struct MotionKey {
  double time = 0;                  // s
  Eigen::Vector3d offset{0, 0, 0};  // displacement from the rest position, metres
};

struct PrescribedMotion {
  MotionKind kind = MotionKind::hold;
  // sinusoid: d(t) = axis / |axis| * amplitude * (sin(2 pi f tau + phase) - sin(phase)),
  // tau = clamp(t, start, stop) - start
  Eigen::Vector3d axis{1, 0, 0};
  double amplitude = 0, frequency = 0, phase = 0, start = 0, stop = 1e300;
  std::vector<MotionKey> keyframes;  // keyframes: ascending times
};

// Displacement from the rest position at time t (s), metres.
//  hold: 0.  sinusoid: as above.  keyframes: piecewise linear in time, held after the last
//  key; before the first key it ramps linearly from 0 at t = 0 (or holds it when the first
//  key is at t <= 0); no keys: 0.
Eigen::Vector3d motion_displacement(const PrescribedMotion& motion, double t);

}  // namespace tela
