// The pose of a moving obstacle at a time t (scenario.h ObstacleMotion):
//   x(t) = pivot + d(t) + R(theta(t)) (x0 - pivot)
// where x0 is the body (t = 0) position. Rotations use the portable sine and cosine so that
// native and WebAssembly runs agree bit for bit.
#pragma once

#include "scenario/scenario.h"

#include <Eigen/Core>

namespace tela {

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

RigidPose rigid_pose(const ObstacleMotion& motion, double t);

// Velocity (m/s) over [t0, t1] of the material point of the obstacle that is at `world` at
// t1: (x(t1) - x(t0)) / (t1 - t0), the motion's average over the step (exact for keyframes
// and for a constant rotation about a fixed axis up to the chord of the arc).
Eigen::Vector3d surface_velocity(const RigidPose& pose_t0, const RigidPose& pose_t1, double dt,
                                 const Eigen::Vector3d& world);

}  // namespace tela
