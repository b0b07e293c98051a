// dGLI cloth coordinates: boundary extraction, segment choice, invariances, sign changes
// under folding (thesis Fig. 7.1), state parsers.
#include "dgli/cloth_boundary.h"
#include "dgli/cloth_coordinates.h"
#include "dgli/cloth_state_input.h"
#include "dgli/symmetric_distance.h"
#include "geometry/generators.h"
#include "base/portable_math.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace tela;

namespace {

Mesh square(int n, ElementKind kind = ElementKind::quad, double side = 0.4) {
  RectangleSpec spec;
  spec.width = spec.height = side;
  spec.nx = spec.ny = n;
  spec.elements = kind;
  return make_rectangle(spec);
}

Positions rotated(const Positions& p, double turns, const Eigen::Vector3d& shift) {
  double s = 0, c = 0;
  portable_sin_cos_turns(turns, &s, &c);
  Positions out = p;
  for (Eigen::Index k = 0; k < p.rows(); ++k) {
    out(k, 0) = c * p(k, 0) - s * p(k, 1) + shift.x();
    out(k, 1) = s * p(k, 0) + c * p(k, 1) + shift.y();
    out(k, 2) = p(k, 2) + shift.z();
  }
  return out;
}

// fold of the bottom-left corner region u + v < c over the line u + v = c, lifted by h
Point3 fold_corner(const Point3& p, double c, double h) {
  if (p.x() + p.y() >= c) return p;
  const double d = (c - p.x() - p.y());  // reflection across u + v = c: p + d (1, 1)
  return Point3(p.x() + d, p.y() + d, p.z() + h);
}

}  // namespace

TEST_SUITE("dgli") {

TEST_CASE("mesh boundary: fixed start, counter-clockwise, corners from angle sums") {
  for (ElementKind kind : {ElementKind::quad, ElementKind::tri_right, ElementKind::tri_irregular}) {
    const Mesh mesh = square(9, kind);
    Result<BoundaryCurve> curve = mesh_boundary(mesh, mesh.positions);
    REQUIRE(curve.ok());
    CHECK(curve.value->nodes.front() == 0);  // the bottom-left corner
    REQUIRE(curve.value->corners.size() == 4);
    for (int i = 0; i < 4; ++i) CHECK(curve.value->corners[i] == doctest::Approx(0.4 * i).epsilon(1e-12));
    // counter-clockwise: the second point is along +x
    CHECK(curve.value->points(1, 0) > 0);
    CHECK(std::abs(curve.value->points(1, 1)) < 1e-12);
  }
}

TEST_CASE("per-side coordinates do not depend on the mesh resolution, and are invariant under translations and rotations about z") {
  CoordinateSettings settings;
  settings.per_side = 3;
  const Mesh coarse = square(7), fine = square(16, ElementKind::tri_left);
  // a non-flat state: both meshes bent by the same smooth map
  auto bend = [](Positions p) {
    for (Eigen::Index k = 0; k < p.rows(); ++k) p(k, 2) = 0.3 * p(k, 0) * p(k, 0) - 0.2 * p(k, 0) * p(k, 1);
    return p;
  };
  Result<DgliCoordinates> a = cloth_coordinates(*mesh_boundary(coarse, bend(coarse.positions)).value, settings);
  Result<DgliCoordinates> b = cloth_coordinates(*mesh_boundary(fine, bend(fine.positions)).value, settings);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(a.value->values.size() == 66);
  CHECK(a.value->undefined == 0);
  // the sides are straight in the plane and bent only in z as a function of x, so the
  // re-sampled endpoints coincide up to the chord error of the boundary polyline
  for (std::size_t i = 0; i < a.value->values.size(); ++i)
    CHECK(a.value->values[i] == doctest::Approx(b.value->values[i]).epsilon(0.05).scale(0.05));
  const Positions moved = rotated(bend(coarse.positions), 0.3711, Eigen::Vector3d(1.5, -2.0, 0.7));
  Result<DgliCoordinates> c = cloth_coordinates(*mesh_boundary(coarse, moved).value, settings);
  for (std::size_t i = 0; i < a.value->values.size(); ++i)
    CHECK(std::abs(c.value->values[i] - a.value->values[i]) < 1e-10);
  // scaling: normalized coordinates are unchanged
  settings.normalize_by_perimeter = true;
  Result<DgliCoordinates> unit = cloth_coordinates(*mesh_boundary(coarse, bend(coarse.positions)).value, settings);
  Result<DgliCoordinates> twice = cloth_coordinates(*mesh_boundary(coarse, Positions(2.0 * bend(coarse.positions))).value, settings);
  for (std::size_t i = 0; i < unit.value->values.size(); ++i)
    CHECK(std::abs(unit.value->values[i] - twice.value->values[i]) < 1e-10);
}

TEST_CASE("entries change sign when a corner folds over the cloth") {
  const Mesh mesh = square(41, ElementKind::quad, 1.0);
  CoordinateSettings settings;  // per side 2: pieces [0, 1/4] and [1/2, 3/4] of each side
  Result<std::vector<Segment>> flat = choose_segments(*mesh_boundary(mesh, mesh.positions).value, settings);
  REQUIRE(flat.ok());
  REQUIRE(flat.value->size() == 8);
  // fold the bottom-left corner over u + v = 0.8: segment 0 (bottom, x in [0, 0.25]) and
  // segment 7 (left side, y from 0.5 down to 0.25) lie in the flap
  std::vector<Segment> folded = *flat.value;
  for (Segment& s : folded)
    for (Point3& p : s) p = fold_corner(p, 0.8, 0.01);
  const DgliCoordinates before = segment_coordinates(*flat.value), after = segment_coordinates(folded);
  CHECK(before.undefined == 0);
  CHECK(after.undefined == 0);
  const double flap_flat = before.values[upper_index(0, 7, 8)];
  const double flap_folded = after.values[upper_index(0, 7, 8)];
  CHECK(std::abs(flap_flat) > 1e-2);
  // both segments are mirrored and lifted rigidly: the entry is exactly negated
  CHECK(std::abs(flap_folded + flap_flat) < 1e-10);
  // flap against the rest of the cloth: some entries change sign too
  int flips = 0;
  for (int j = 1; j < 7; ++j)
    if (before.values[upper_index(0, j, 8)] * after.values[upper_index(0, j, 8)] < 0) ++flips;
  CHECK(flips >= 1);
  // pairs away from the flap keep their values
  CHECK(after.values[upper_index(2, 4, 8)] == doctest::Approx(before.values[upper_index(2, 4, 8)]).epsilon(1e-12));
}

TEST_CASE("segment choices: all edges report adjacent pairs as undefined, alternate has none") {
  const Mesh mesh = square(5);
  const BoundaryCurve curve = *mesh_boundary(mesh, mesh.positions).value;  // 16 edges
  CoordinateSettings settings;
  settings.choice = SegmentChoice::all;
  Result<DgliCoordinates> all = cloth_coordinates(curve, settings);
  REQUIRE(all.ok());
  CHECK(all.value->segments.size() == 16);
  CHECK(all.value->values.size() == 120);
  // 16 cyclically adjacent pairs share an endpoint; collinear edges of one side that do not
  // touch are defined
  CHECK(all.value->undefined == 16);
  for (std::size_t i = 0; i < all.value->values.size(); ++i) {
    CHECK(std::isfinite(all.value->values[i]));
    if (all.value->status[i] != PairStatus::ok) CHECK(all.value->values[i] == 0.0);
  }
  CHECK(all.value->status[upper_index(0, 1, 16)] == PairStatus::shared_endpoint);
  CHECK(all.value->status[upper_index(0, 15, 16)] == PairStatus::shared_endpoint);
  settings.choice = SegmentChoice::alternate;
  Result<DgliCoordinates> alternate = cloth_coordinates(curve, settings);
  CHECK(alternate.value->segments.size() == 8);
  CHECK(alternate.value->undefined == 0);
  // odd boundary: the last edge would touch the first, so it is dropped
  Positions five(5, 3);
  five << 0, 0, 0, 1, 0, 0, 1, 1, 0, 0.5, 1.5, 0, 0, 1, 0;
  Result<std::vector<Segment>> odd = choose_segments(*polyline_boundary(five).value, settings);
  CHECK(odd.value->size() == 2);
  // requests whose coordinates would not fit are refused before anything is allocated
  // (per_side = 1e9 from the page's binding aborted the WebAssembly module)
  settings.choice = SegmentChoice::per_side;
  settings.per_side = 1000000000;
  Result<DgliCoordinates> huge = cloth_coordinates(curve, settings);
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error.find("segments: 4000000000 requested, at most 1000") != std::string::npos);
  settings.per_side = kMaxSegments / 4;
  CHECK(cloth_coordinates(curve, settings).ok());
  settings.per_side = 0;
  CHECK(cloth_coordinates(curve, settings).error.find("per_side: must be >= 1") != std::string::npos);
  Positions long_boundary(2 * kMaxSegments + 2, 3);
  for (int k = 0; k < long_boundary.rows(); ++k)
    long_boundary.row(k) << std::cos(2 * M_PI * k / long_boundary.rows()), std::sin(2 * M_PI * k / long_boundary.rows()), 0;
  settings.choice = SegmentChoice::all;
  CHECK_FALSE(cloth_coordinates(*polyline_boundary(long_boundary).value, settings).ok());
  settings.choice = SegmentChoice::alternate;
  CHECK_FALSE(cloth_coordinates(*polyline_boundary(long_boundary).value, settings).ok());
  // a state whose nodes all sit on one point (an OBJ with coinciding vertices) has no
  // boundary to measure: refused for every segment choice, instead of all-zero coordinates
  const Positions collapsed = Positions::Constant(mesh.positions.rows(), 3, 0.25);
  Result<BoundaryCurve> point = mesh_boundary(mesh, collapsed);
  REQUIRE(point.ok());
  for (SegmentChoice choice : {SegmentChoice::per_side, SegmentChoice::all, SegmentChoice::alternate}) {
    settings.choice = choice;
    settings.per_side = 2;
    CHECK(cloth_coordinates(*point.value, settings).error.find("zero length") != std::string::npos);
  }
}

TEST_CASE("relabelling the start corner is a cyclic shift of the segments") {
  const Mesh mesh = square(13);
  CoordinateSettings settings;
  // an asymmetric state: one corner folded (kinematically)
  Positions p = mesh.positions;
  for (Eigen::Index k = 0; k < p.rows(); ++k) p.row(k) = fold_corner(p.row(k).transpose(), 0.15, 0.01).transpose();
  const BoundaryCurve curve = *mesh_boundary(mesh, p).value;
  // the same polyline started at the second corner (arc length 0.4)
  const int n = static_cast<int>(curve.points.rows());
  Positions shifted(n, 3);
  for (int k = 0; k < n; ++k) shifted.row(k) = curve.points.row((k + 12) % n);
  BoundaryCurve second = *polyline_boundary(shifted).value;
  // the same corners, measured from the new start
  const double perimeter = perimeter_length(curve.points), s1 = curve.corners[1];
  for (int i = 1; i <= 4; ++i) second.corners.push_back(curve.corners[i % 4] + (i == 4 ? perimeter : 0.0) - s1);
  const DgliCoordinates a = *cloth_coordinates(curve, settings).value;
  const DgliCoordinates b = *cloth_coordinates(second, settings).value;
  const std::vector<double> a_shifted = shift_segments(a.values, 8, 2);
  for (std::size_t i = 0; i < a.values.size(); ++i) CHECK(std::abs(b.values[i] - a_shifted[i]) < 1e-10);
  CHECK(segment_count_of(28) == 8);
  CHECK(segment_count_of(27) == 0);
}

TEST_CASE("state parsers: OBJ, boundary CSV and trajectory frames, with located errors") {
  const std::string obj = "# quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nv 2 1 0\nf 1 2 3 4\nf 2/1 5/2 6/3 3/4\n";
  Result<Mesh> mesh = parse_obj_mesh(obj);
  REQUIRE(mesh.ok());
  CHECK(mesh.value->node_count() == 6);
  CHECK(mesh.value->face_count() == 2);
  Result<BoundaryCurve> curve = mesh_boundary(*mesh.value, mesh.value->positions);
  REQUIRE(curve.ok());
  CHECK(curve.value->points.rows() == 6);
  CHECK(curve.value->corners.size() == 4);
  CHECK(curve.value->ignored_loops == 0);
  // a 3 x 3 grid of quads without its middle one: the outer loop is the curve, the hole is
  // counted as ignored (callers report it)
  std::string holed_obj;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) holed_obj += "v " + std::to_string(i) + " " + std::to_string(j) + " 0\n";
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      if (i == 1 && j == 1) continue;
      const int a = 1 + i + 4 * j;
      holed_obj += "f " + std::to_string(a) + " " + std::to_string(a + 1) + " " + std::to_string(a + 5) + " " +
               std::to_string(a + 4) + "\n";
    }
  Result<Mesh> holed = parse_obj_mesh(holed_obj);
  REQUIRE(holed.ok());
  Result<BoundaryCurve> outer = mesh_boundary(*holed.value, holed.value->positions);
  REQUIRE(outer.ok());
  CHECK(outer.value->points.rows() == 12);
  CHECK(outer.value->ignored_loops == 1);
  CHECK(parse_obj_mesh("v 0 0 0\nv 1 0 x\n").error.find("line 2") != std::string::npos);
  CHECK(parse_obj_mesh("v 0 0 0\nv 1 0 0\nv 1 1 0\nf 1 2 7\n").error.find("line 4") != std::string::npos);
  CHECK(!parse_obj_mesh("v 0 0 0\nv 1 0 0\nv 1 1 0\n").ok());

  Result<Positions> points = parse_boundary_csv("x,y,z\n0,0,0\n1,0,0\n1,1,0\n# comment\n0,1,0\n");
  REQUIRE(points.ok());
  CHECK(points.value->rows() == 4);
  Result<Positions> bad = parse_boundary_csv("0,0,0\n1,0,0\n1,nan,0\n0,1,0\n");
  CHECK(bad.error.find("line 3") != std::string::npos);
  CHECK(!parse_boundary_csv("0,0,0\n1,0,0\n").ok());

  const std::string trajectory = "frame,time,node,x,y,z\n0,0,0,0,0,0\n0,0,1,1,0,0\n0,0,2,1,1,0\n1,0.1,0,0,0,1\n1,0.1,1,1,0,1\n1,0.1,2,1,1,1\n";
  Result<Positions> frame = parse_trajectory_frame(trajectory, 1, 3);
  REQUIRE(frame.ok());
  CHECK((*frame.value)(2, 2) == 1.0);
  CHECK(parse_trajectory_frame(trajectory, 5, 3).error.find("last frame is 1") != std::string::npos);
  CHECK(parse_trajectory_frame(trajectory, 1, 4).error.find("3 of the mesh's 4") != std::string::npos);
}

}  // TEST_SUITE
