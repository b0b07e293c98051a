// The time step with contacts (thesis §3.4): cloth on planes given as ContactConstraints by a
// test provider. Stick/slip on an incline against tan(theta) vs mu and against the analytic
// sliding law, a drop onto a floor (no penetration beyond 1 mm, inextensibility kept in
// contact), a moving belt dragging the cloth by friction, and a provider that reports
// nothing leaving the step bit for bit as it was.
#include <doctest/doctest.h>

#include "cloth/model.h"
#include "cloth/step.h"
#include "geometry/generators.h"

#include <Eigen/Geometry>

#include <array>
#include <cmath>
#include <memory>

using namespace tela;

namespace {

// An infinite plane {x : normal . x >= level}: every node closer than `proximity` (or
// below) gets a constraint, as an obstacle detector would report it.
class PlaneProvider : public ContactProvider {
 public:
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double level = 0;  // metres
  double mu = 0;
  Eigen::Vector3d surface_velocity = Eigen::Vector3d::Zero();
  double proximity = 0.005;  // metres
  long calls = 0;

  void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) override {
    ++calls;
    for (Eigen::Index k = 0; k < query.current.rows(); ++k) {
      const double gap = normal.dot(query.current.row(k).transpose()) - level;
      if (gap > proximity) continue;
      ContactConstraint c;
      c.nodes = {static_cast<int>(k), -1, -1, -1};
      c.weights = {1, 0, 0, 0};
      c.normal = normal;
      c.offset = level;
      c.mu = mu;
      c.surface_velocity = surface_velocity;
      out.push_back(c);
    }
  }
};

// Node-face contacts (thesis §3.3.2) between the free nodes of a small cloth and a held
// support made of two triangles: nodes {k, a, b, c}, weights {1, -u, -v, -w}, normal of the
// support, offset = thickness.
class SupportProvider : public ContactProvider {
 public:
  std::vector<int> cloth_nodes;                 // the nodes that may touch
  std::vector<std::array<int, 3>> triangles;    // of the support
  double thickness = 0.002;
  double mu = 0;
  double proximity = 0.005;

  void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) override {
    const Positions& x = query.current;
    for (int k : cloth_nodes)
      for (const auto& t : triangles) {
        const Eigen::Vector3d a = x.row(t[0]), b = x.row(t[1]), c = x.row(t[2]), p = x.row(k);
        const Eigen::Vector3d normal = (b - a).cross(c - a).normalized();
        // barycentric coordinates of p's projection onto the triangle's plane
        const Eigen::Vector3d v0 = b - a, v1 = c - a, v2 = p - a;
        const double d00 = v0.dot(v0), d01 = v0.dot(v1), d11 = v1.dot(v1), d20 = v2.dot(v0), d21 = v2.dot(v1);
        const double det = d00 * d11 - d01 * d01;
        const double v = (d11 * d20 - d01 * d21) / det, w = (d00 * d21 - d01 * d20) / det, u = 1 - v - w;
        if (u < 0 || v < 0 || w < 0) continue;
        if (normal.dot(p - a) - thickness > proximity) continue;
        ContactConstraint con;
        con.nodes = {k, t[0], t[1], t[2]};
        con.weights = {1, -u, -v, -w};
        con.normal = normal;
        con.offset = thickness;
        con.mu = mu;
        out.push_back(con);
      }
  }
};

class NothingProvider : public ContactProvider {
 public:
  void contacts(const ContactQuery&, std::vector<ContactConstraint>&) override {}
};

std::shared_ptr<const ClothModel> make_model(const Mesh& mesh, const ClothMaterial& material, double dt) {
  StepSettings solver;
  solver.dt = dt;
  Result<std::shared_ptr<const ClothModel>> model = build_model(mesh, material, solver, {});
  REQUIRE_MESSAGE(model.ok(), model.error);
  return *model.value;
}

ClothState rest_state(const ClothModel& model) {
  ClothState state;
  state.positions = model.rest_positions;
  state.velocities = Positions::Zero(model.node_count(), 3);
  return state;
}

// A square cloth lying on the plane through the origin that contains the x axis and the
// down-slope direction (0, cos theta, -sin theta).
Mesh cloth_on_incline(double theta, int nodes) {
  RectangleSpec spec;
  spec.width = spec.height = 0.3;
  spec.nx = spec.ny = nodes;
  spec.origin = Eigen::Vector3d(-0.15, -0.15, 0);
  Mesh mesh = make_rectangle(spec);
  for (Eigen::Index k = 0; k < mesh.positions.rows(); ++k) {
    const double y = mesh.positions(k, 1);
    mesh.positions(k, 1) = y * std::cos(theta);
    mesh.positions(k, 2) = -y * std::sin(theta);
  }
  return mesh;
}

struct InclineRun {
  double slide = 0;          // mean displacement down the slope, metres
  double max_penetration = 0;
  double max_error = 0;
  bool converged = true;
};

InclineRun run_incline(double theta, double mu, double duration) {
  ClothMaterial material;
  material.alpha = 0;  // no air damping: the sliding law is then exactly parabolic
  const double dt = 0.01;
  auto model = make_model(cloth_on_incline(theta, 6), material, dt);
  ClothState state = rest_state(*model);
  PlaneProvider plane;
  plane.normal = Eigen::Vector3d(0, std::sin(theta), std::cos(theta));
  plane.mu = mu;
  StepWorkspace workspace;
  InclineRun run;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int i = 0; i < steps; ++i) {
    const StepReport report = step(*model, {}, state, workspace, &plane);
    run.converged &= report.status == StepStatus::converged;
    run.max_error = std::max(run.max_error, report.constraint_error);
    for (Eigen::Index k = 0; k < state.positions.rows(); ++k)
      run.max_penetration = std::max(run.max_penetration, -plane.normal.dot(state.positions.row(k).transpose()));
  }
  const Eigen::Vector3d down(0, std::cos(theta), -std::sin(theta));
  run.slide = ((state.positions - model->rest_positions) * down).mean();
  return run;
}

}  // namespace

TEST_SUITE("contact_step") {

TEST_CASE("cloth on an incline sticks when tan(theta) < mu") {
  const double mu = 0.5;
  for (double tan_theta : {0.2, 0.4, 0.49}) {
    CAPTURE(tan_theta);
    const InclineRun run = run_incline(std::atan(tan_theta), mu, 0.5);
    CHECK(run.converged);
    CHECK(std::abs(run.slide) < 1e-9);  // a flat cloth is rigid here: no creep at all
    CHECK(run.max_penetration < 1e-3);
    CHECK(run.max_error <= 1e-3);
  }
}

TEST_CASE("cloth on an incline slides when tan(theta) > mu, at the Coulomb acceleration") {
  // rho a = delta g (sin - mu cos) along the slope (thesis eq. 2.18 with a plane contact)
  const double mu = 0.5;
  const ClothMaterial material;
  const double duration = 0.5;
  for (double tan_theta : {0.51, 0.55, 0.7, 1.0}) {
    CAPTURE(tan_theta);
    const double theta = std::atan(tan_theta);
    const InclineRun run = run_incline(theta, mu, duration);
    const double a = material.delta / material.rho * kGravity * (std::sin(theta) - mu * std::cos(theta));
    // implicit Euler: x_N = a dt^2 N (N + 1) / 2
    const int steps = 50;
    const double expected = a * 0.01 * 0.01 * steps * (steps + 1) / 2;
    CHECK(run.converged);
    // the flat cloth moves rigidly, so the discrete law holds to rounding
    CHECK(run.slide == doctest::Approx(expected).epsilon(1e-6));
    CHECK(run.max_penetration < 1e-3);
    CHECK(run.max_error <= 1e-3);
  }
}

TEST_CASE("cloth dropped on a floor never sinks 1 mm below it and stays inextensible") {
  RectangleSpec spec;
  spec.width = spec.height = 0.4;
  spec.nx = spec.ny = 9;
  spec.noise = 0.003;
  spec.seed = 5;
  Mesh mesh = make_rectangle(spec);
  // tilted by 25 degrees about the x axis, lowest edge 5 cm above the floor
  const double tilt = 25 * 3.14159265358979323846 / 180;
  for (Eigen::Index k = 0; k < mesh.positions.rows(); ++k) {
    const double y = mesh.positions(k, 1), z = mesh.positions(k, 2);
    mesh.positions(k, 1) = y * std::cos(tilt) - z * std::sin(tilt);
    mesh.positions(k, 2) = 0.05 + y * std::sin(tilt) + z * std::cos(tilt);
  }
  auto model = make_model(mesh, ClothMaterial{}, 0.01);
  ClothState state = rest_state(*model);
  PlaneProvider floor;
  floor.mu = 0.3;
  StepWorkspace workspace;
  double lowest = 1, worst_error = 0;
  int contact_steps = 0;
  for (int i = 0; i < 150; ++i) {
    const StepReport report = step(*model, {}, state, workspace, &floor);
    REQUIRE(report.status != StepStatus::non_finite);
    REQUIRE(report.status != StepStatus::diverged);
    lowest = std::min(lowest, state.positions.col(2).minCoeff());
    if (report.contacts > 0) {
      ++contact_steps;
      worst_error = std::max(worst_error, report.constraint_error);
    }
  }
  CHECK(contact_steps > 50);
  CHECK(lowest > -1e-3);
  CHECK(worst_error <= model->solver.tolerance);
  // at rest on the floor after 1.5 s (the 3 mm noise of the rest shape is not developable,
  // so the cloth cannot lie entirely flat: a few wrinkles of about a centimetre remain)
  CHECK(state.positions.col(2).mean() < 0.005);
  CHECK(state.positions.col(2).maxCoeff() < 0.02);
  CHECK(state.velocities.rowwise().norm().maxCoeff() < 0.02);
}

TEST_CASE("a moving belt drags a resting cloth up to its speed by friction") {
  RectangleSpec spec;
  spec.width = spec.height = 0.2;
  spec.nx = spec.ny = 5;
  auto model = make_model(make_rectangle(spec), ClothMaterial{}, 0.01);
  ClothState state = rest_state(*model);
  PlaneProvider belt;
  belt.mu = 0.6;
  belt.surface_velocity = Eigen::Vector3d(0.1, 0, 0);
  StepWorkspace workspace;
  for (int i = 0; i < 100; ++i) step(*model, {}, state, workspace, &belt);
  // friction accelerates at most mu delta g / rho ~ 2.8 m/s^2 (and air damping resists): 0.1 m/s
  // is reached within 0.05 s, after which the cloth sticks to the belt
  CHECK(state.velocities.col(0).mean() == doctest::Approx(0.1).epsilon(0.02));
  CHECK(std::abs(state.velocities.col(1).mean()) < 1e-4);
}

TEST_CASE("node-face contacts with a held support: the cloth rests at the thickness, sticks or slides") {
  // support: a 1 m square of two triangles tilted by theta about x, held by a control; cloth:
  // a 0.2 m square 5 x 5 parallel to it, 1 cm above, dropped
  auto run = [](double tan_theta, double mu, double duration, double& slide, double& worst_gap) {
    const double theta = std::atan(tan_theta);
    const Eigen::Vector3d e1(1, 0, 0), e2(0, std::cos(theta), -std::sin(theta));
    const Eigen::Vector3d normal = e1.cross(e2);
    RectangleSpec spec;
    spec.width = spec.height = 0.2;
    spec.nx = spec.ny = 5;
    const Mesh cloth = make_rectangle(spec);
    Mesh mesh;
    const int m = cloth.node_count();
    mesh.positions.resize(m + 4, 3);
    for (int k = 0; k < m; ++k)
      mesh.positions.row(k) = (0.01 * normal + (cloth.positions(k, 0) - 0.1) * e1 + (cloth.positions(k, 1) - 0.1) * e2).transpose();
    const double corner[4][2] = {{-0.5, -0.5}, {0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}};
    for (int i = 0; i < 4; ++i) mesh.positions.row(m + i) = (corner[i][0] * e1 + corner[i][1] * e2).transpose();
    mesh.faces = cloth.faces;
    Face f1, f2;
    f1.v = {m, m + 1, m + 2, -1};
    f2.v = {m, m + 2, m + 3, -1};
    mesh.faces.push_back(f1);
    mesh.faces.push_back(f2);
    const std::vector<int> support = {m, m + 1, m + 2, m + 3};
    ClothMaterial material;
    material.alpha = 0;
    StepSettings solver;
    auto built = build_model(mesh, material, solver, support);
    REQUIRE_MESSAGE(built.ok(), built.error);
    const ClothModel& model = **built.value;
    std::vector<ControlTrack> tracks(1);
    tracks[0].nodes = support;  // motion: hold
    ClothState state = rest_state(model);
    SupportProvider provider;
    for (int k = 0; k < m; ++k) provider.cloth_nodes.push_back(k);
    provider.triangles = {{m, m + 1, m + 2}, {m, m + 2, m + 3}};
    provider.mu = mu;
    StepWorkspace workspace;
    worst_gap = 1;
    const int steps = static_cast<int>(std::lround(duration / solver.dt));
    Positions start = state.positions;
    for (int i = 0; i < steps; ++i) {
      if (i == steps / 2) start = state.positions;  // landed (after about 0.07 s)
      const StepReport report = step(model, tracks, state, workspace, &provider);
      REQUIRE(report.status == StepStatus::converged);
      for (int k = 0; k < m; ++k) worst_gap = std::min(worst_gap, normal.dot(state.positions.row(k).transpose()));
    }
    slide = 0;
    for (int k = 0; k < m; ++k) slide += (state.positions.row(k) - start.row(k)).dot(e2.transpose()) / m;
  };
  // slide: mean displacement down the slope over the second half of the run (after landing)
  double slide = 0, gap = 0;
  run(0.3, 0.5, 0.6, slide, gap);
  CHECK(gap > 0.002 - 1e-3);      // never more than 1 mm inside the thickness
  CHECK(std::abs(slide) < 1e-4);  // tan(theta) < mu: stuck
  run(0.3, 0.1, 0.6, slide, gap);
  CHECK(gap > 0.002 - 1e-3);
  // tan(theta) > mu: slides, at least as fast as from rest at (delta/rho) g (sin - mu cos)
  const ClothMaterial material;
  const double a = material.delta / material.rho * kGravity * (std::sin(std::atan(0.3)) - 0.1 * std::cos(std::atan(0.3)));
  CHECK(slide > 0.5 * a * 0.3 * 0.3);
}

TEST_CASE("malformed constraints are skipped and accept() can send a substep back") {
  class Picky : public PlaneProvider {
   public:
    int rejections = 0, max_attempt = 0;
    void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) override {
      PlaneProvider::contacts(query, out);
      max_attempt = std::max(max_attempt, query.attempt);
      ContactConstraint bad;
      bad.nodes = {1000000, -1, -1, -1};
      bad.weights = {1, 0, 0, 0};
      out.push_back(bad);
      ContactConstraint nan;
      nan.nodes = {0, -1, -1, -1};
      nan.weights = {1, 0, 0, 0};
      nan.normal = Eigen::Vector3d(std::nan(""), 0, 1);
      nan.source = 7;
      out.push_back(nan);
    }
    bool accept(const ContactQuery&) override { return ++rejections > 2; }  // reject twice
  };
  RectangleSpec spec;
  spec.width = spec.height = 0.2;
  spec.nx = spec.ny = 4;
  auto model = make_model(make_rectangle(spec), ClothMaterial{}, 0.01);
  ClothState state = rest_state(*model);
  Picky floor;
  StepWorkspace workspace;
  const StepReport report = step(*model, {}, state, workspace, &floor);
  CHECK(report.status == StepStatus::converged);
  CHECK(floor.max_attempt == 2);
  CHECK(report.contacts > 0);
  CHECK(state.positions.allFinite());
  CHECK(state.positions.col(2).minCoeff() > -1e-9);
}

TEST_CASE("a provider that reports nothing leaves the step exactly as without one") {
  RectangleSpec spec;
  spec.width = 0.3;
  spec.height = 0.2;
  spec.nx = 7;
  spec.ny = 5;
  spec.plane = MeshPlane::xz;
  const Mesh mesh = make_rectangle(spec);
  StepSettings solver;
  auto model = *build_model(mesh, ClothMaterial{}, solver, mesh.node_sets.at("top_corners")).value;
  std::vector<ControlTrack> tracks(1);
  tracks[0].nodes = mesh.node_sets.at("top_corners");
  tracks[0].motion.kind = MotionKind::sinusoid;
  tracks[0].motion.amplitude = 0.05;
  tracks[0].motion.frequency = 1.5;
  ClothState a = rest_state(*model), b = rest_state(*model);
  StepWorkspace wa, wb;
  NothingProvider nothing;
  for (int i = 0; i < 60; ++i) {
    const StepReport ra = step(*model, tracks, a, wa);
    const StepReport rb = step(*model, tracks, b, wb, &nothing);
    CHECK(ra.iterations == rb.iterations);
    CHECK(rb.contacts == 0);
  }
  CHECK(a.positions == b.positions);
  CHECK(a.velocities == b.velocities);
}

}  // TEST_SUITE
