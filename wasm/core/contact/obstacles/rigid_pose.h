// The rigid motion of an obstacle and its pose at a time t: a translation d(t) (a prescribed
// motion, geometry/motion.h) and a rotation about `rotation_axis` through `pivot` (+ d(t)) at
// `angular_velocity` rad/s during [rotation_start, rotation_stop]. World position at time t
// of a body point x0 (its t = 0 position):
//   x(t) = pivot + d(t) + R(theta(t)) (x0 - pivot),  theta = w * (clamp(t, start, stop) - start).
// Rotations use the portable sine and cosine so that native and WebAssembly runs agree bit
// for bit.
#pragma once

#include "geometry/motion.h"

#include <Eigen/Core>

namespace tela {

struct RigidMotion {
  PrescribedMotion translation;            // hold: no translation
  Eigen::Vector3d rotation_axis{0, 0, 1};  // unit
  Eigen::Vector3d pivot{0, 0, 0};          // metres
  double angular_velocity = 0;             // rad/s (right-hand rule about rotation_axis)
  double rotation_start = 0, rotation_stop = 1e300;  // s
};

struct RigidPose {
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Eigen::Vector3d pivot{0, 0, 0};
  Eigen::Vector3d translation{0, 0, 0};  // d(t), metres

  Eigen::Vector3d to_world(const Eigen::Vector3d& body) const {
    return pivot + translation + rotation * (body - pivot);
  }
  Eigen::Vector3d to_body(const Eigen::Vector3d& world) const {
    return pivot + rotation.transpose() * (world - pivot - translation);
  }
  Eigen::Vector3d direction_to_world(const Eigen::Vector3d& d) const { return rotation * d; }
};

RigidPose rigid_pose(const RigidMotion& motion, double t);

// Velocity (m/s) over [t0, t1] of the material point of the obstacle that is at `world` at
// t1: (x(t1) - x(t0)) / (t1 - t0), the motion's average over the step (exact for keyframes
// and for a constant rotation about a fixed axis up to the chord of the arc).
Eigen::Vector3d surface_velocity(const RigidPose& pose_t0, const RigidPose& pose_t1, double dt,
                                 const Eigen::Vector3d& world);

}  // namespace tela
