// Bending and shearing: zero on the rest state and for rigid motions, shear force equal to
// minus the gradient of the shear energy (finite differences), drape coefficient of a flat
// ring = 100 %.
#include <doctest/doctest.h>

#include "cloth/metrics.h"
#include "cloth/model.h"
#include "cloth/shear.h"
#include "geometry/generators.h"

#include <Eigen/Geometry>
#include <cmath>

using namespace tela;

namespace {

std::shared_ptr<const ClothModel> model_of(const Mesh& mesh, ClothMaterial material) {
  Result<std::shared_ptr<const ClothModel>> model = build_model(mesh, material, StepSettings{}, {});
  REQUIRE_MESSAGE(model.ok(), model.error);
  return *model.value;
}

Mesh sheet(ElementKind kind) {
  RectangleSpec spec;
  spec.width = 0.3;
  spec.height = 0.2;
  spec.nx = 7;
  spec.ny = 5;
  spec.elements = kind;
  return make_rectangle(spec);
}

}  // namespace

TEST_CASE("bending matrix: no force on flat or rigidly moved states, positive when bent") {
  for (ElementKind kind : {ElementKind::quad, ElementKind::tri_right}) {
    ClothMaterial material;
    material.kappa = 1.0;
    const Mesh mesh = sheet(kind);
    const auto model = model_of(mesh, material);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.4, Eigen::Vector3d(1, -1, 2).normalized()).toRotationMatrix();
    const Positions moved = (mesh.positions * R.transpose()).rowwise() + Eigen::RowVector3d(1, 2, 3);
    const Eigen::MatrixXd force = model->bending * moved;
    CHECK(force.cwiseAbs().maxCoeff() < 1e-9);
    Positions bent = mesh.positions;
    for (Eigen::Index k = 0; k < bent.rows(); ++k) bent(k, 2) = 2.0 * bent(k, 0) * bent(k, 0);
    const Eigen::MatrixXd Kb = model->bending * bent;
    const double energy = (bent.transpose() * Kb).trace();
    CHECK(energy > 1e-3);
  }
}

TEST_CASE("shear force is minus the gradient of the shear energy") {
  ClothMaterial material;
  material.shear = 2.5;
  Mesh mesh = sheet(ElementKind::quad);
  const auto model = model_of(mesh, material);
  CHECK(model->shear_rows.rows() == mesh.node_count());
  // the hard F constraints are dropped when shearing energy is on
  for (ConstraintKind kind : model->constraints.kind) CHECK(kind != ConstraintKind::metric_f);
  CHECK(shear_energy(*model, mesh.positions) < 1e-20);

  Positions x = mesh.positions;
  for (Eigen::Index k = 0; k < x.rows(); ++k) {
    x(k, 0) += 0.02 * std::sin(3.0 * k);
    x(k, 2) += 0.03 * std::cos(5.0 * k);
  }
  Eigen::VectorXd force = Eigen::VectorXd::Zero(3 * x.rows());
  add_shear_force(*model, x, force);
  const double h = 1e-6;
  double worst = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    Positions xp = x, xm = x;
    xp.data()[i] += h;
    xm.data()[i] -= h;
    const double fd = -(shear_energy(*model, xp) - shear_energy(*model, xm)) / (2 * h);
    worst = std::max(worst, std::abs(fd - force[i]) / (1e-8 + std::abs(fd)));
  }
  CHECK(worst < 1e-5);
}

TEST_CASE("drape coefficient of the flat ring is 100 % and of a fully hanging ring about 0") {
  DiscSpec ring;
  ring.radius = 0.15;
  ring.inner_radius = 0.09;
  ring.rings = 8;
  ring.sectors = 96;
  const Mesh mesh = make_disc(ring);
  const Eigen::Vector3d center(0, 0, 0);
  CHECK(drape_coefficient(mesh, mesh.positions, center, 0.09) ==
        doctest::Approx(100.0).epsilon(0.01));
  // fold the ring straight down along the table edge: its shadow is the table edge only
  Positions hanging = mesh.positions;
  for (Eigen::Index k = 0; k < hanging.rows(); ++k) {
    const double r = std::hypot(hanging(k, 0), hanging(k, 1));
    hanging(k, 0) *= 0.09 / r;
    hanging(k, 1) *= 0.09 / r;
    hanging(k, 2) = -(r - 0.09);
  }
  CHECK(drape_coefficient(mesh, hanging, center, 0.09) < 1.0);
}

TEST_CASE("state hash: equal positions give equal hashes, one ulp changes it") {
  Positions a = Positions::Random(20, 3);
  Positions b = a;
  CHECK(positions_hash(a) == positions_hash(b));
  b(7, 1) = std::nextafter(b(7, 1), 10.0);
  CHECK(positions_hash(a) != positions_hash(b));
  CHECK(positions_hash(a).size() == 16);
}
