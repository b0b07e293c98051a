// Obstacles: signed distances, closest points and outward normals against analytic values,
// normals against finite differences of the distance, rigid motion and surface velocity.
#include "contact/obstacles/obstacle.h"
#include "contact/obstacles/shapes.h"
#include "base/portable_random.h"

#include <doctest/doctest.h>

#include <cmath>

namespace {

using V = Eigen::Vector3d;
using tela::Obstacle;

tela::SurfacePoint query(const Obstacle& o, const V& p) {
  return tela::obstacle_closest_at(o, 0.0, p);
}

// central differences of the signed distance
V fd_gradient(const Obstacle& o, const V& p, double h = 1e-6) {
  V g;
  for (int k = 0; k < 3; ++k) {
    V e = V::Zero();
    e[k] = h;
    g[k] = (query(o, p + e).distance - query(o, p - e).distance) / (2 * h);
  }
  return g;
}

void check_consistent(const Obstacle& o, const V& p) {
  const tela::SurfacePoint s = query(o, p);
  CAPTURE(o.shape.index());
  CAPTURE(p.transpose());
  CHECK(s.normal.norm() == doctest::Approx(1.0));
  // the closest point is on the surface, at the signed distance along the normal
  CHECK((p - s.closest).norm() == doctest::Approx(std::fabs(s.distance)).epsilon(1e-9));
  CHECK(query(o, s.closest).distance == doctest::Approx(0.0).epsilon(1e-9).scale(1));
  CHECK((s.closest + s.distance * s.normal - p).norm() < 1e-9);
  // the normal is the gradient of the distance
  CHECK((fd_gradient(o, p) - s.normal).norm() < 1e-5);
}

}  // namespace

TEST_SUITE("contact") {

TEST_CASE("plane: signed distance along the (normalized) normal") {
  const Obstacle o{tela::Plane{V(0, 0, 0.75), V(1, 0, 1).normalized()}};
  const auto s = query(o, V(1, 0, 0.75));
  CHECK(s.distance == doctest::Approx(std::sqrt(0.5)));
  check_consistent(o, V(0.3, -2, 1.4));
  check_consistent(o, V(-0.3, 2, -1.4));
}

TEST_CASE("sphere: distance |p - c| - R and radial normal") {
  const Obstacle o{tela::Sphere{V(0, 0, 0.35), 0.35}};
  const auto s = query(o, V(0, 0.5, 0.35));
  CHECK(s.distance == doctest::Approx(0.15));
  CHECK((s.normal - V(0, 1, 0)).norm() < 1e-12);
  CHECK(query(o, V(0.1, 0, 0.35)).distance == doctest::Approx(-0.25));
  check_consistent(o, V(0.3, 0.2, 0.9));
  check_consistent(o, V(0.05, -0.1, 0.3));
}

TEST_CASE("box: faces, edges and corners outside, nearest face inside") {
  const Obstacle o{tela::Box{V(0, 0, 0.375), V(1.0, 0.5, 0.75)}};  // a table, top at z = 0.75
  // above the top face
  auto s = query(o, V(0.1, 0.1, 0.8));
  CHECK(s.distance == doctest::Approx(0.05));
  CHECK((s.normal - V(0, 0, 1)).norm() < 1e-12);
  // beyond the top edge at y = 0.25: distance to the edge line
  s = query(o, V(0.0, 0.28, 0.79));
  CHECK(s.distance == doctest::Approx(0.05));
  CHECK((s.normal - V(0, 0.6, 0.8)).norm() < 1e-12);
  // beyond a corner
  s = query(o, V(0.5 + 0.01, 0.25 + 0.02, 0.75 + 0.02));
  CHECK(s.distance == doctest::Approx(0.03));
  CHECK((s.closest - V(0.5, 0.25, 0.75)).norm() < 1e-12);
  // inside, 1 cm below the top and far from the other faces
  s = query(o, V(0, 0, 0.74));
  CHECK(s.distance == doctest::Approx(-0.01));
  CHECK((s.normal - V(0, 0, 1)).norm() < 1e-12);
  for (const V& p : {V(0.2, -0.1, 0.9), V(0.7, 0.1, 0.8), V(0.6, 0.4, 0.9), V(-0.6, -0.3, 0.2), V(0.1, 0.05, 0.7)})
    check_consistent(o, p);
}

TEST_CASE("cylinder: lateral surface, caps, rims, inside, and the infinite cylinder") {
  const Obstacle o{tela::Cylinder{V(0.3, 0, 0.9), V(0, 1, 0), 0.1, 2.0}};
  auto s = query(o, V(0.3, 0.2, 1.05));  // above the axis
  CHECK(s.distance == doctest::Approx(0.05));
  CHECK((s.normal - V(0, 0, 1)).norm() < 1e-12);
  s = query(o, V(0.3, 1.1, 0.9));  // beyond the cap at y = 1, on the axis
  CHECK(s.distance == doctest::Approx(0.1));
  CHECK((s.normal - V(0, 1, 0)).norm() < 1e-12);
  s = query(o, V(0.3 + 0.1 + 0.03, 1.04, 0.9));  // beyond the rim
  CHECK(s.distance == doctest::Approx(0.05));
  s = query(o, V(0.32, 0.0, 0.9));  // inside, nearest the lateral surface
  CHECK(s.distance == doctest::Approx(-0.08));
  s = query(o, V(0.3, 0.98, 0.9));  // inside, nearest a cap
  CHECK(s.distance == doctest::Approx(-0.02));
  for (const V& p : {V(0.5, 0.3, 1.1), V(0.3, 1.3, 0.95), V(0.45, -1.1, 0.8), V(0.33, 0.2, 0.88)})
    check_consistent(o, p);
  const Obstacle inf{tela::Cylinder{V(0.3, 0, 0.9), V(0, 1, 0), 0.1, 0.0}};  // infinite
  CHECK(query(inf, V(0.3, 50, 1.05)).distance == doctest::Approx(0.05));
  check_consistent(inf, V(0.5, 7, 1.1));
}

TEST_CASE("needle field: flat ground between needles, the profile near a needle, its tip") {
  const tela::NeedleField needles{V(0, 0, 0), 0.15, 2, 1, 20, 0.075};
  const Obstacle o{needles};
  // needles at x = -0.075 and 0.075, y = 0; between them (r = 0.075 > 1/c1) the ground
  CHECK(query(o, V(0, 0, 0.02)).distance == doctest::Approx(0.02));
  const auto tips = tela::needle_tips(needles);
  REQUIRE(tips.size() == 2);
  CHECK((tips[1] - V(0.075, 0, 0.075)).norm() < 1e-15);
  // on the profile h(r) = c2 (1 - sqrt(c1 r))^2 the distance is 0
  const double r = 0.0125, h = 0.075 * std::pow(1 - std::sqrt(20 * r), 2);
  CHECK(query(o, V(0.075 + r, 0, h)).distance == doctest::Approx(0).scale(1).epsilon(1e-12));
  CHECK(query(o, V(0.075 + r, 0, h + 0.01)).distance > 0);
  CHECK(query(o, V(0.075 + r, 0, h - 0.01)).distance < 0);
  // the normal is (-grad h, 1) / norm: with dh/dr = -c2 sqrt(c1 / r) (1 - sqrt(c1 r))
  const double g = 0.075 * std::sqrt(20 / r) * (1 - std::sqrt(20 * r));
  const auto s = query(o, V(0.075 + r, 0, h));
  CHECK((s.normal - V(g, 0, 1).normalized()).norm() < 1e-12);
}

TEST_CASE("stick: capsule chain distance and normal") {
  const Obstacle o{tela::Stick{{V(-0.375, 0, 1), V(0.375, 0, 1)}, 0.0075}};
  auto s = query(o, V(0.1, 0.05, 1));
  CHECK(s.distance == doctest::Approx(0.05 - 0.0075));
  CHECK((s.normal - V(0, 1, 0)).norm() < 1e-12);
  s = query(o, V(0.475, 0, 1));  // beyond an end: the hemispherical cap
  CHECK(s.distance == doctest::Approx(0.1 - 0.0075));
  check_consistent(o, V(0.2, 0.03, 1.04));
}

TEST_CASE("moving obstacles: a rotating sphere's surface velocity is omega x r") {
  Obstacle o{tela::Sphere{V(0, 0, 0.35), 0.35}};
  o.motion.pivot = V(0, 0, 0.35);
  o.motion.rotation_axis = V(0, 0, 1);
  o.motion.angular_velocity = 3.14159265358979323846;
  o.motion.rotation_start = 1.0;
  o.motion.rotation_stop = 2.0;
  const double dt = 1e-4;
  const tela::RigidPose p0 = tela::rigid_pose(o.motion, 1.5), p1 = tela::rigid_pose(o.motion, 1.5 + dt);
  const V equator(0.35, 0, 0.35);
  const V v = tela::surface_velocity(p0, p1, dt, equator);
  CHECK((v - V(0, 0.35 * 3.14159265358979323846, 0)).norm() < 1e-3);
  // the geometry of a sphere spinning about its centre does not change
  CHECK(tela::obstacle_closest(o, p1, V(0.5, 0.1, 0.4)).distance ==
        doctest::Approx(query(o, V(0.5, 0.1, 0.4)).distance));
  // before the rotation starts it is at rest
  CHECK(tela::surface_velocity(tela::rigid_pose(o.motion, 0.5), tela::rigid_pose(o.motion, 0.5 + dt), dt, equator)
            .norm() == 0.0);
}

TEST_CASE("moving obstacles: a translated and rotated box is queried in its body frame") {
  Obstacle o{tela::Box{V(0, 0, 0), V(2, 2, 2)}};
  o.motion.pivot = V(0, 0, 0);
  o.motion.translation.kind = tela::MotionKind::keyframes;
  o.motion.translation.keyframes = {{0.0, V(0, 0, 0)}, {1.0, V(1, 0, 0)}};
  o.motion.rotation_axis = V(0, 0, 1);
  o.motion.angular_velocity = 3.14159265358979323846 / 4;  // 45 degrees at t = 1
  const tela::RigidPose pose = tela::rigid_pose(o.motion, 1.0);
  // the rotated box's corner (1, 1) now points along +x: its tip at x = 1 + sqrt(2)
  const auto s = tela::obstacle_closest(o, pose, V(1 + std::sqrt(2.0) + 0.1, 0, 0));
  CHECK(s.distance == doctest::Approx(0.1));
  CHECK((s.normal - V(1, 0, 0)).norm() < 1e-9);
  // translation velocity: 1 m/s along x during [0, 1]
  const V v = tela::surface_velocity(tela::rigid_pose(o.motion, 0.5), tela::rigid_pose(o.motion, 0.5 + 1e-5), 1e-5,
                                     V(1.5, 0, 1));
  CHECK(v.x() == doctest::Approx(1.0).epsilon(1e-3));
}

}  // TEST_SUITE
