#include "contact/obstacles/rigid_pose.h"

#include "base/portable_math.h"

#include <algorithm>

#include <Eigen/Geometry>

namespace tela {

RigidPose rigid_pose(const RigidMotion& motion, double t) {
  RigidPose pose;
  pose.pivot = motion.pivot;
  pose.translation = motion_displacement(motion.translation, t);
  if (motion.angular_velocity != 0) {
    const double tau = std::clamp(t, motion.rotation_start, motion.rotation_stop) - motion.rotation_start;
    const double angle = motion.angular_velocity * tau;
    double s = 0, c = 1;
    portable_sin_cos_turns(angle / (2.0 * 3.14159265358979323846), &s, &c);
    // Rodrigues: R = c I + s [k]x + (1 - c) k k^T
    const Eigen::Vector3d k = motion.rotation_axis;
    Eigen::Matrix3d cross;
    cross << 0, -k.z(), k.y(), k.z(), 0, -k.x(), -k.y(), k.x(), 0;
    pose.rotation = c * Eigen::Matrix3d::Identity() + s * cross + (1 - c) * (k * k.transpose());
  }
  return pose;
}

Eigen::Vector3d surface_velocity(const RigidPose& pose_t0, const RigidPose& pose_t1, double dt,
                                 const Eigen::Vector3d& world) {
  const Eigen::Vector3d body = pose_t1.to_body(world);
  return (world - pose_t0.to_world(body)) / dt;
}

}  // namespace tela
