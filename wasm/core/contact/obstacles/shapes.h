// The obstacle shapes (thesis §3.6, §4.3.2) in their body frame (the obstacle at t = 0), SI
// units, and their closest points: one function per shape, each in its own file
// (obstacles/<shape>.cpp).
#pragma once

#include "contact/obstacles/surface_point.h"

#include <Eigen/Core>
#include <vector>

namespace tela {

// Half-space below the plane through `point` with outward unit `normal`.
struct Plane {
  Eigen::Vector3d point{0, 0, 0};
  Eigen::Vector3d normal{0, 0, 1};
};

// Solid axis-aligned box: `center`, full edge lengths `size` along x, y, z.
struct Box {
  Eigen::Vector3d center{0, 0, 0};
  Eigen::Vector3d size{1, 1, 1};
};

struct Sphere {
  Eigen::Vector3d center{0, 0, 0};
  double radius = 0.1;
};

// Solid cylinder: `center`, unit `axis`, `radius`; `length` > 0: capped by flat discs at
// center +- axis length/2 (rims are edges); length 0: infinite.
struct Cylinder {
  Eigen::Vector3d center{0, 0, 0};
  Eigen::Vector3d axis{0, 0, 1};
  double radius = 0.1;
  double length = 0;
};

// Stick: the capsule chain of radius `radius` around the polyline `points` (>= 2); its edges
// are subdivided to at most `segment` metres for the edge-edge contacts.
struct Stick {
  std::vector<Eigen::Vector3d> points;
  double radius = 0.1;
  double segment = 0.02;
};

// Needle field on the ground plane z = center.z (the ground is part of the obstacle): needles
// of profile sqrt(c1 r) + sqrt(h / c2) = 1 (r <= 1/c1) on a count_x by count_y grid of
// `spacing`, centred on `center`, cusps at their tips (thesis §3.6.3).
struct NeedleField {
  Eigen::Vector3d center{0, 0, 0};
  double spacing = 0.15;
  int count_x = 3, count_y = 3;
  double c1 = 20, c2 = 0.075;
};

SurfacePoint plane_closest(const Plane& plane, const Eigen::Vector3d& p);

// Faces, edges and corners.
SurfacePoint box_closest(const Box& box, const Eigen::Vector3d& p);

SurfacePoint sphere_closest(const Sphere& sphere, const Eigen::Vector3d& p);

SurfacePoint cylinder_closest(const Cylinder& cylinder, const Eigen::Vector3d& p);

// Height h(x, y) = c2 (1 - sqrt(c1 r))^2 for r < 1/c1 around each needle axis, 0 elsewhere.
// The distance is the first-order estimate (z - z_ground - h) / sqrt(1 + |grad h|^2) with the
// normal (-grad h, 1) / sqrt(1 + |grad h|^2); the tips (cusps) are point obstacles
// (needle_tips).
SurfacePoint needle_field_closest(const NeedleField& needles, const Eigen::Vector3d& p);
std::vector<Eigen::Vector3d> needle_tips(const NeedleField& needles);

SurfacePoint stick_closest(const Stick& stick, const Eigen::Vector3d& p);

}  // namespace tela
