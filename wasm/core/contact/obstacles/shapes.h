// Closest points of the obstacle shapes in their body frame (the obstacle at t = 0). One
// function per shape, each in its own file (obstacles/<shape>.cpp). Fields: scenario.h.
#pragma once

#include "contact/obstacles/surface_point.h"
#include "scenario/scenario.h"

#include <Eigen/Core>

namespace tela {

// Half-space below the plane through `point` with normal `normal` (unit).
SurfacePoint plane_closest(const ObstacleDesc& plane, const Eigen::Vector3d& p);

// Solid axis-aligned box (`center`, full edge lengths `size`): faces, edges and corners.
SurfacePoint box_closest(const ObstacleDesc& box, const Eigen::Vector3d& p);

SurfacePoint sphere_closest(const ObstacleDesc& sphere, const Eigen::Vector3d& p);

// Solid cylinder: `center`, unit `axis`, `radius`; `length` > 0: capped by flat discs at
// center +- axis length/2 (rims are edges); length 0: infinite.
SurfacePoint cylinder_closest(const ObstacleDesc& cylinder, const Eigen::Vector3d& p);

// Needle field on the ground plane z = center.z (the ground is part of the obstacle):
// height h(x, y) = c2 (1 - sqrt(c1 r))^2 for r < 1/c1 around each needle axis, 0 elsewhere.
// The distance is the first-order estimate (z - z_ground - h) / sqrt(1 + |grad h|^2) with the
// normal (-grad h, 1) / sqrt(1 + |grad h|^2); the tips (cusps) are point obstacles
// (needle_tips). Needles are on a count_x by count_y grid of `spacing`, centred on `center`.
SurfacePoint needle_field_closest(const ObstacleDesc& needles, const Eigen::Vector3d& p);
std::vector<Eigen::Vector3d> needle_tips(const ObstacleDesc& needles);

// Stick: the capsule chain of radius `radius` around the polyline `points`.
SurfacePoint stick_closest(const ObstacleDesc& stick, const Eigen::Vector3d& p);

}  // namespace tela
