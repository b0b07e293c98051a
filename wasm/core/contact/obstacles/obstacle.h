// An obstacle of the scene (thesis §3.6, §4.3.2): a shape (obstacles/shapes.h) in its body
// frame, moved by a rigid motion (obstacles/rigid_pose.h), with Coulomb friction. Queries in
// world coordinates: signed distance, closest point, outward normal. Built from the
// scenario's obstacles by the compile step (sim/compile.h).
#pragma once

#include "contact/obstacles/rigid_pose.h"
#include "contact/obstacles/shapes.h"
#include "contact/obstacles/surface_point.h"

#include <variant>

namespace tela {

using ObstacleShape = std::variant<Plane, Box, Sphere, Cylinder, Stick, NeedleField>;

struct Obstacle {
  ObstacleShape shape;
  double mu = 0;  // Coulomb friction coefficient, >= 0
  RigidMotion motion;
};

// The shape of `obstacle` (body frame) at world point p, posed by `pose`.
SurfacePoint obstacle_closest(const Obstacle& obstacle, const RigidPose& pose, const Eigen::Vector3d& p);

// At time t (s).
SurfacePoint obstacle_closest_at(const Obstacle& obstacle, double t, const Eigen::Vector3d& p);

}  // namespace tela
