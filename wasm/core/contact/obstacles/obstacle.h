// Queries of a (possibly moving) obstacle in world coordinates: signed distance, closest
// point, outward normal (obstacles/shapes.h, moved by obstacles/rigid_pose.h).
#pragma once

#include "contact/obstacles/rigid_pose.h"
#include "contact/obstacles/surface_point.h"
#include "scenario/scenario.h"

namespace tela {

// The shape of `obstacle` (body frame) at world point p, posed by `pose`.
SurfacePoint obstacle_closest(const ObstacleDesc& obstacle, const RigidPose& pose,
                              const Eigen::Vector3d& p);

// At time t (s).
SurfacePoint obstacle_closest_at(const ObstacleDesc& obstacle, double t, const Eigen::Vector3d& p);

}  // namespace tela
