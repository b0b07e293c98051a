// The constraint tensors (thesis Algorithm 1, eq. 2.16): test vectors of docs/math.md §1.5 and a
// finite-difference check of the Jacobian on quad and triangle meshes.
#include <doctest/doctest.h>

#include "cloth/constraints.h"
#include "geometry/generators.h"
#include "geometry/topology.h"

#include <Eigen/Geometry>

#include <cmath>
#include <random>
#include <set>

using namespace tela;

namespace {

using Gradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

Mesh grid3x3(ElementKind kind) {
  RectangleSpec spec;
  spec.width = spec.height = 2.0;  // spacing h = 1
  spec.nx = spec.ny = 3;
  spec.elements = kind;
  return make_rectangle(spec);
}

int row_of(const ConstraintSet& set, ConstraintKind kind, int node) {
  for (int r = 0; r < set.rows(); ++r)
    if (set.kind[r] == kind && set.node[r] == node) return r;
  return -1;
}

// C_r evaluated from its coefficient table directly: sum t_ij <x_i, x_j> - C0
double row_value(const ConstraintSet& set, int r, const Positions& x) {
  const int* support = set.support.data() + set.support_start[r];
  double sum = 0;
  const int size = set.support_size(r);
  for (int a = 0; a < size; ++a)
    for (int b = 0; b < size; ++b)
      sum += set.coeff[set.coeff_start[r] + a * size + b] * x.row(support[a]).dot(x.row(support[b]));
  return sum - set.rest[r];
}

void check_jacobian(const Mesh& mesh) {
  const ConstraintSet set = build_constraints(mesh, lumped_areas(mesh), ConstraintOptions{});
  REQUIRE(set.rows() > 0);
  std::mt19937_64 rng(7);
  Positions x = mesh.positions;
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] += 0.05 * (double(rng() % 2001) / 1000.0 - 1.0);
  Gradients g;
  constraint_gradients(set, x, g);
  Eigen::VectorXd values;
  constraint_values(set, x, g, values);
  const double h = 1e-6;
  double worst = 0, worst_value = 0;
  for (int r = 0; r < set.rows(); ++r) {
    // C = 1/2 grad C . x - C0 equals the direct quadratic form
    worst_value = std::max(worst_value, std::abs(values[r] - row_value(set, r, x)));
    for (int s = set.support_start[r]; s < set.support_start[r + 1]; ++s)
      for (int c = 0; c < 3; ++c) {
        Positions xp = x, xm = x;
        xp(set.support[s], c) += h;
        xm(set.support[s], c) -= h;
        const double fd = (row_value(set, r, xp) - row_value(set, r, xm)) / (2 * h);
        worst = std::max(worst, std::abs(fd - g(s, c)) / (1 + std::abs(fd)));
      }
  }
  CHECK(worst < 1e-7);
  CHECK(worst_value < 1e-12);
}

}  // namespace

TEST_CASE("metric tensors on a 3x3 quad grid match docs/math.md §1.5") {
  const Mesh mesh = grid3x3(ElementKind::quad);
  const std::vector<double> m = lumped_areas(mesh);
  CHECK(m[0] == doctest::Approx(0.25));
  CHECK(m[1] == doctest::Approx(0.5));
  CHECK(m[4] == doctest::Approx(1.0));
  const ConstraintSet set = build_constraints(mesh, m, ConstraintOptions{});
  const int e = row_of(set, ConstraintKind::metric_e, 4);
  const int f = row_of(set, ConstraintKind::metric_f, 4);
  const int g = row_of(set, ConstraintKind::metric_g, 4);
  REQUIRE(e >= 0);
  REQUIRE(f >= 0);
  REQUIRE(g >= 0);
  // E_k(0) = G_k(0) = h^2/4, F_k(0) = 0 (bilinear map of [-1,1]^2: phi_xi = (h/2) e_x)
  CHECK(set.rest[e] == doctest::Approx(0.25));
  CHECK(set.rest[g] == doctest::Approx(0.25));
  CHECK(std::abs(set.rest[f]) < 1e-14);
  // T_E at the centre: 49 non-zeros with values in {±1/96, ±1/48, ±1/16, 1/8}; rows sum to 0
  const std::set<double> allowed = {1.0 / 96, 1.0 / 48, 1.0 / 16, 1.0 / 8};
  int nonzeros = 0;
  std::vector<double> row_sums(9, 0.0);
  REQUIRE(set.support_size(e) == 9);
  for (int k = set.coeff_start[e]; k < set.coeff_start[e + 1]; ++k) {
    const double t = set.coeff[k];
    row_sums[(k - set.coeff_start[e]) / 9] += t;
    if (std::abs(t) < 1e-15) continue;
    ++nonzeros;
    bool found = false;
    for (double a : allowed) found = found || std::abs(std::abs(t) - a) < 1e-14;
    CHECK(found);
  }
  CHECK(nonzeros == 49);
  for (double s : row_sums) CHECK(std::abs(s) < 1e-14);
  // constraint counts of thesis §2.4.5: E, F, G at the 1 interior node, F at 4 corners,
  // 8 boundary edges
  CHECK(set.rows() == 3 + 4 + 8);
}

TEST_CASE("metric tensors on a 3x3 triangle grid: E = G = 1.5, F = 1 at the centre") {
  const Mesh mesh = grid3x3(ElementKind::tri_right);
  const ConstraintSet set = build_constraints(mesh, lumped_areas(mesh), ConstraintOptions{});
  CHECK(set.rest[row_of(set, ConstraintKind::metric_e, 4)] == doctest::Approx(1.5));
  CHECK(set.rest[row_of(set, ConstraintKind::metric_g, 4)] == doctest::Approx(1.5));
  CHECK(set.rest[row_of(set, ConstraintKind::metric_f, 4)] == doctest::Approx(1.0));
}

TEST_CASE("constraint Jacobian agrees with finite differences") {
  RectangleSpec spec;
  spec.width = 0.4;
  spec.height = 0.3;
  spec.nx = 6;
  spec.ny = 5;
  spec.noise = 0.01;
  SUBCASE("quads") { check_jacobian(make_rectangle(spec)); }
  SUBCASE("triangles, right diagonal") {
    spec.elements = ElementKind::tri_right;
    check_jacobian(make_rectangle(spec));
  }
  SUBCASE("triangles, left diagonal") {
    spec.elements = ElementKind::tri_left;
    check_jacobian(make_rectangle(spec));
  }
  SUBCASE("irregular triangles") {
    spec.elements = ElementKind::tri_irregular;
    spec.irregular_nodes = 40;
    check_jacobian(make_rectangle(spec));
  }
  SUBCASE("ring of quads") {
    DiscSpec ring;
    ring.inner_radius = 0.09;
    ring.rings = 3;
    ring.sectors = 12;
    check_jacobian(make_disc(ring));
  }
}

TEST_CASE("constraints are satisfied at rest and invariant under rigid motions") {
  RectangleSpec spec;
  spec.nx = 5;
  spec.ny = 4;
  spec.noise = 0.02;
  const Mesh mesh = make_rectangle(spec);
  const ConstraintSet set = build_constraints(mesh, lumped_areas(mesh), ConstraintOptions{});
  const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  Positions moved = (mesh.positions * R.transpose()).rowwise() + Eigen::RowVector3d(0.3, -1, 2);
  for (const Positions* x : std::vector<const Positions*>{&mesh.positions, &moved}) {
    Gradients g;
    Eigen::VectorXd values;
    constraint_gradients(set, *x, g);
    constraint_values(set, *x, g, values);
    CHECK(relative_error(set, values) < 1e-12);
  }
}

TEST_CASE("gradients skip the tables' zeros bit for bit; the one-pass evaluation and its early stop") {
  for (ElementKind kind : {ElementKind::quad, ElementKind::tri_irregular}) {
    RectangleSpec spec;
    spec.width = 0.4;
    spec.height = 0.6;
    spec.nx = 5;
    spec.ny = 7;
    spec.elements = kind;
    const Mesh mesh = make_rectangle(spec);
    const ConstraintSet set = build_constraints(mesh, lumped_areas(mesh), ConstraintOptions{});
    std::mt19937_64 rng(11);
    Positions x = mesh.positions;
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] += 0.01 * (double(rng() % 2001) / 1000.0 - 1.0);
    Gradients g;
    constraint_gradients(set, x, g);
    // the dense table, every term in ascending order (the definition, eq. 2.16)
    int mismatches = 0;
    for (int r = 0; r < set.rows(); ++r) {
      const int size = set.support_size(r);
      for (int a = 0; a < size; ++a)
        for (int c = 0; c < 3; ++c) {
          double sum = 0;
          for (int b = 0; b < size; ++b)
            sum += set.coeff[set.coeff_start[r] + a * size + b] * x(set.support[set.support_start[r] + b], c);
          if (2 * sum != g(set.support_start[r] + a, c)) ++mismatches;
        }
    }
    CHECK(mismatches == 0);
    Eigen::VectorXd values;
    constraint_values(set, x, g, values);
    const double error = relative_error(set, values);
    Gradients g1;
    Eigen::VectorXd values1;
    std::vector<double> work;
    int first = 5;
    CHECK(constraint_gradients_values(set, x, g1, values1, work, 1e300, &first) == error);
    CHECK(first == 5);  // no early stop: the start row is kept
    CHECK(g1 == g);
    CHECK(values1 == values);
    // a limit below the max error stops at a row beyond it and remembers that row
    const double stopped = constraint_gradients_values(set, x, g1, values1, work, 0.5 * error, &first);
    CHECK(stopped > 0.5 * error);
    CHECK(std::abs(values[first]) / set.scale[first] > 0.5 * error);
  }
}
