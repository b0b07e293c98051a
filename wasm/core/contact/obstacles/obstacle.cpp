#include "contact/obstacles/obstacle.h"

#include "contact/obstacles/shapes.h"

namespace tela {

SurfacePoint obstacle_closest(const ObstacleDesc& obstacle, const RigidPose& pose,
                              const Eigen::Vector3d& p) {
  const Eigen::Vector3d body = pose.to_body(p);
  SurfacePoint s;
  if (obstacle.type == "plane") {
    s = plane_closest(obstacle, body);
  } else if (obstacle.type == "box") {
    s = box_closest(obstacle, body);
  } else if (obstacle.type == "sphere") {
    s = sphere_closest(obstacle, body);
  } else if (obstacle.type == "cylinder") {
    s = cylinder_closest(obstacle, body);
  } else if (obstacle.type == "needles") {
    s = needle_field_closest(obstacle, body);
  } else {
    s = stick_closest(obstacle, body);
  }
  s.closest = pose.to_world(s.closest);
  s.normal = pose.direction_to_world(s.normal);
  return s;
}

SurfacePoint obstacle_closest_at(const ObstacleDesc& obstacle, double t, const Eigen::Vector3d& p) {
  return obstacle_closest(obstacle, rigid_pose(obstacle.motion, t), p);
}

}  // namespace tela
