#include "contact/obstacles/obstacle.h"

namespace tela {
namespace {

SurfacePoint closest(const Plane& s, const Eigen::Vector3d& p) { return plane_closest(s, p); }
SurfacePoint closest(const Box& s, const Eigen::Vector3d& p) { return box_closest(s, p); }
SurfacePoint closest(const Sphere& s, const Eigen::Vector3d& p) { return sphere_closest(s, p); }
SurfacePoint closest(const Cylinder& s, const Eigen::Vector3d& p) { return cylinder_closest(s, p); }
SurfacePoint closest(const Stick& s, const Eigen::Vector3d& p) { return stick_closest(s, p); }
SurfacePoint closest(const NeedleField& s, const Eigen::Vector3d& p) { return needle_field_closest(s, p); }

}  // namespace

SurfacePoint obstacle_closest(const Obstacle& obstacle, const RigidPose& pose, const Eigen::Vector3d& p) {
  const Eigen::Vector3d body = pose.to_body(p);
  SurfacePoint s = std::visit([&](const auto& shape) { return closest(shape, body); }, obstacle.shape);
  s.closest = pose.to_world(s.closest);
  s.normal = pose.direction_to_world(s.normal);
  return s;
}

SurfacePoint obstacle_closest_at(const Obstacle& obstacle, double t, const Eigen::Vector3d& p) {
  return obstacle_closest(obstacle, rigid_pose(obstacle.motion, t), p);
}

}  // namespace tela
