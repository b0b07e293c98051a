// The active-set solver (thesis §3.5) against the interior-point reference on random small
// QPs: same objective and minimizer, KKT conditions (stationarity, primal and dual
// feasibility, complementarity), from infeasible warm starts, with linearly dependent
// inequality gradients (Remark 3.5.2), regularized equalities, and infeasible problems.
#include <doctest/doctest.h>

#include "base/portable_random.h"
#include "qp/active_set.h"
#include "qp/interior_point.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace tela;

namespace {

SparseRows dense_to_rows(const Eigen::MatrixXd& dense) {
  SparseRows rows = dense.sparseView();
  rows.makeCompressed();
  return rows;
}

struct RandomQpSpec {
  int n = 8, equalities = 2, inequalities = 10;
  int dependent = 0;        // inequality rows that are combinations of earlier ones
  double shift = 0;
};

// A feasible random QP: every constraint holds at a random point x_feasible.
QpProblem random_qp(std::mt19937_64& rng, const RandomQpSpec& spec) {
  QpProblem p;
  p.mass.resize(spec.n);
  p.linear.resize(spec.n);
  for (int i = 0; i < spec.n; ++i) {
    p.mass[i] = uniform_real(rng, 0.5, 2.0);
    p.linear[i] = standard_normal(rng);
  }
  Eigen::VectorXd feasible(spec.n);
  for (int i = 0; i < spec.n; ++i) feasible[i] = standard_normal(rng);
  Eigen::MatrixXd E(spec.equalities, spec.n), A(spec.inequalities, spec.n);
  for (int r = 0; r < spec.equalities; ++r)
    for (int c = 0; c < spec.n; ++c) E(r, c) = standard_normal(rng);  // independent rows
  for (int r = 0; r < spec.inequalities; ++r)
    for (int c = 0; c < spec.n; ++c) A(r, c) = uniform01(rng) < 0.6 ? standard_normal(rng) : 0.0;
  // dependent gradients: a_k = c1 a_i + c2 a_j with positive coefficients (or a multiple)
  for (int d = 0; d < spec.dependent; ++d) {
    const int k = spec.inequalities - 1 - d;
    const int i = uniform_index(rng, k), j = uniform_index(rng, k);
    A.row(k) = uniform_real(rng, 0.3, 2.0) * A.row(i) + (i == j ? 0.0 : uniform_real(rng, 0.3, 2.0)) * A.row(j);
  }
  p.equality = dense_to_rows(E);
  p.equality_rhs = E * feasible;
  p.equality_shift = spec.shift;
  p.inequality = dense_to_rows(A);
  p.inequality_rhs = A * feasible;
  // most constraints have slack at x_feasible, a few are tight there
  for (int r = 0; r < spec.inequalities; ++r)
    if (uniform01(rng) < 0.8) p.inequality_rhs[r] -= uniform_real(rng, 0.0, 1.0);
  // pull the unconstrained minimizer away so that many constraints bind
  p.linear *= 3.0;
  return p;
}

void check_kkt(const QpProblem& p, const QpSolution& s, double tolerance) {
  const KktResiduals r = kkt_residuals(p, s);
  CHECK(r.stationarity < tolerance);
  CHECK(r.equality < tolerance);
  CHECK(r.primal_violation < tolerance);
  CHECK(r.dual_violation < tolerance);
  CHECK(r.complementarity < tolerance);
}

void compare(const QpProblem& p, const std::vector<int>& warm, ActiveSetSolver& solver) {
  const QpSolution reference = solve_interior_point(p);
  const QpSolution active = solver.solve(p, warm);
  REQUIRE(reference.status == QpStatus::converged);
  REQUIRE(active.status == QpStatus::converged);
  check_kkt(p, active, 1e-9);
  check_kkt(p, reference, 1e-6);  // the oracle's own accuracy (relative 1e-9)
  const double fa = qp_objective(p, active.x), fr = qp_objective(p, reference.x);
  CHECK(std::abs(fa - fr) <= 1e-8 * (1 + std::abs(fr)));
  // M is positive definite: the minimizer is unique. The interior point stops at relative
  // residuals of 1e-9, which near weakly active constraints (z ~ 0 and slack ~ 0) leaves
  // its x some 1e-5 away; the active set's own KKT check above is the strict one.
  CHECK((active.x - reference.x).lpNorm<Eigen::Infinity>() < 1e-4);
}

// a random QP of 10 variables, 3 equalities (shift 1e-3) and 12 inequalities, `dependent` of them
// combinations of others
QpProblem regularized_qp(unsigned seed, int dependent) {
  std::mt19937_64 rng(seed);
  RandomQpSpec spec;
  spec.n = 10;
  spec.equalities = 3;
  spec.inequalities = 12;
  spec.dependent = dependent;
  spec.shift = 1e-3;
  return random_qp(rng, spec);
}

// `solver` (which may keep factors from earlier solves) and a fresh solver give the same
// solution of q from the same warm start, bit for bit
void check_same_as_fresh(ActiveSetSolver& solver, const QpProblem& q, const std::vector<int>& warm) {
  ActiveSetSolver fresh;
  const QpSolution a = solver.solve(q, warm);
  const QpSolution b = fresh.solve(q, warm);
  REQUIRE(a.status == QpStatus::converged);
  check_kkt(q, a, 1e-9);
  CHECK(a.x == b.x);  // exactly
  CHECK(a.active == b.active);
  CHECK(a.iterations == b.iterations);
}

}  // namespace

TEST_SUITE("qp") {

TEST_CASE("active set matches the interior-point reference on random QPs, cold start") {
  for (const bool crash : {true, false}) {  // with and without the crash start
    CAPTURE(crash);
    std::mt19937_64 rng(11);
    ActiveSetSolver solver;
    solver.settings.crash_start = crash;
    for (int trial = 0; trial < 200; ++trial) {
      RandomQpSpec spec;
      spec.n = 4 + uniform_index(rng, 10);
      spec.equalities = uniform_index(rng, std::min(4, spec.n - 1));
      spec.inequalities = 1 + uniform_index(rng, 3 * spec.n);
      CAPTURE(trial);
      compare(random_qp(rng, spec), {}, solver);
    }
    CHECK(solver.stats.appended > 200);  // the problems did exercise the working set
    if (crash) CHECK(solver.stats.crash_starts > 50);
    else CHECK(solver.stats.crash_starts == 0);
  }
}

// n masses pushed below a floor x_i >= 1, every tenth tied to one of m free anchors by
// x_i - y_k = 0 (the bench's cloth landing flat, in one dimension): most rows are violated at
// the start and active at the end. The crash start brings them in at once, the dual steps
// one at a time: the same solution, far fewer working-set changes.
QpProblem floor_qp(int n, int duplicated) {
  const int m = n / 10;
  QpProblem p;
  p.mass = Eigen::VectorXd::Constant(n + m, 1.0);
  p.linear = Eigen::VectorXd::Constant(n + m, -1.0);  // the free minimizer is x = -1
  for (int i = 0; i < n; i += 7) p.linear[i] = 5.0;     // these stay above the floor
  std::vector<Eigen::Triplet<double>> eq, ineq;
  for (int k = 0; k < m; ++k) {
    eq.emplace_back(k, 10 * k, 1.0);
    eq.emplace_back(k, n + k, -1.0);
  }
  p.equality.resize(m, n + m);
  p.equality.setFromTriplets(eq.begin(), eq.end());
  p.equality_rhs = Eigen::VectorXd::Zero(m);
  // the floor rows, then `duplicated` of them again, scaled (dependent gradients)
  for (int i = 0; i < n; ++i) ineq.emplace_back(i, i, 1.0);
  for (int d = 0; d < duplicated; ++d) ineq.emplace_back(n + d, 3 * d + 1, 2.0);
  p.inequality.resize(n + duplicated, n + m);
  p.inequality.setFromTriplets(ineq.begin(), ineq.end());
  p.inequality_rhs = Eigen::VectorXd::Ones(n + duplicated);
  for (int d = 0; d < duplicated; ++d) p.inequality_rhs[n + d] = 2.0;
  return p;
}

TEST_CASE("a cold solve starts from every row the equality-constrained minimizer violates (crash start)") {
  for (const int duplicated : {0, 40}) {  // with dependent rows the factor refuses them: appended
    CAPTURE(duplicated);
    const QpProblem p = floor_qp(300, duplicated);
    ActiveSetSolver crash, dual;
    dual.settings.crash_start = false;
    const QpSolution a = crash.solve(p, {});
    const QpSolution b = dual.solve(p, {});
    REQUIRE(a.status == QpStatus::converged);
    REQUIRE(b.status == QpStatus::converged);
    check_kkt(p, a, 1e-9);
    CHECK((a.x - b.x).lpNorm<Eigen::Infinity>() < 1e-12);
    CHECK(crash.stats.crash_starts == 1);
    CHECK(dual.stats.crash_starts == 0);
    INFO("working-set changes: crash " << a.iterations << ", dual steps " << b.iterations);
    CHECK(b.iterations >= 200);
    CHECK(a.iterations <= 5);
    if (duplicated > 0) CHECK(crash.stats.appended >= 250);  // the fallback's appended rows
    compare(p, {}, crash);  // and the interior-point reference agrees

    // a warm start, even of one row, is not a crash start
    ActiveSetSolver warm;
    const QpSolution c = warm.solve(p, {1});
    REQUIRE(c.status == QpStatus::converged);
    CHECK(warm.stats.crash_starts == 0);
    CHECK((c.x - a.x).lpNorm<Eigen::Infinity>() < 1e-12);
  }
}

// warm starts go into the sparse factor (max_bordered_start 0) or are appended as bordered rows;
// base rows that leave are masked (up to max_masked of them, with bordered rows appended
// before and after) or refactorized away (max_masked 0)
TEST_CASE("active set from infeasible warm starts (random working sets)") {
  for (const auto& [bordered, masked] : {std::pair{0, 32}, std::pair{0, 2}, std::pair{0, 0}, std::pair{1 << 20, 32}}) {
    CAPTURE(bordered);
    CAPTURE(masked);
    std::mt19937_64 rng(12);
    ActiveSetSolver solver;
    solver.settings.max_bordered_start = bordered;
    solver.settings.max_masked = masked;
    for (int trial = 0; trial < 200; ++trial) {
      RandomQpSpec spec;
      spec.n = 4 + uniform_index(rng, 10);
      spec.equalities = uniform_index(rng, std::min(4, spec.n - 1));
      spec.inequalities = 1 + uniform_index(rng, 3 * spec.n);
      const QpProblem p = random_qp(rng, spec);
      std::vector<int> warm;
      for (int k = 0; k < spec.inequalities; ++k)
        if (uniform01(rng) < 0.5) warm.push_back(k);
      warm.push_back(-1);                 // tolerated: ignored
      warm.push_back(spec.inequalities);  // tolerated: ignored
      CAPTURE(trial);
      compare(p, warm, solver);
    }
    CHECK(solver.stats.removed > 100);  // negative multipliers were released
    if (bordered == 0) CHECK((solver.stats.masked > 100) == (masked > 0));
  }
}

// Masking a base row is the refactorization without it done by a Schur complement: in exact
// arithmetic both take the same working sets, step for step
TEST_CASE("masked base rows take the path of refactorizations") {
  std::mt19937_64 rng(16);
  ActiveSetSolver masking, refactoring;
  masking.settings.max_bordered_start = refactoring.settings.max_bordered_start = 0;
  refactoring.settings.max_masked = 0;
  int same_path = 0;
  for (int trial = 0; trial < 200; ++trial) {
    RandomQpSpec spec;
    spec.n = 6 + uniform_index(rng, 10);
    spec.equalities = uniform_index(rng, 4);
    spec.inequalities = spec.n + uniform_index(rng, 2 * spec.n);
    const QpProblem p = random_qp(rng, spec);
    std::vector<int> warm;
    for (int k = 0; k < spec.inequalities; ++k)
      if (uniform01(rng) < 0.6) warm.push_back(k);
    CAPTURE(trial);
    const QpSolution a = masking.solve(p, warm), b = refactoring.solve(p, warm);
    REQUIRE(a.status == QpStatus::converged);
    REQUIRE(b.status == QpStatus::converged);
    check_kkt(p, a, 1e-9);
    CHECK((a.x - b.x).lpNorm<Eigen::Infinity>() < 1e-9 * (1 + b.x.lpNorm<Eigen::Infinity>()));
    same_path += a.active == b.active && a.iterations == b.iterations;
  }
  CHECK(masking.stats.masked > 200);
  CHECK(refactoring.stats.masked == 0);
  // beyond the first factorization of each solve (313 and 475 when written)
  CHECK(masking.stats.factorizations - 200 < (refactoring.stats.factorizations - 200) / 2);
  CHECK(same_path >= 198);  // ties within round-off may break differently
}

TEST_CASE("dependent inequality gradients are exchanged (Remark 3.5.2), not factorized") {
  for (const auto& [bordered, masked] : {std::pair{0, 32}, std::pair{0, 0}, std::pair{1 << 20, 32}}) {
    CAPTURE(bordered);
    CAPTURE(masked);
    std::mt19937_64 rng(13);
    ActiveSetSolver solver;
    solver.settings.max_bordered_start = bordered;
    solver.settings.max_masked = masked;
    for (int trial = 0; trial < 200; ++trial) {
      RandomQpSpec spec;
      spec.n = 3 + uniform_index(rng, 6);
      spec.equalities = uniform_index(rng, 2);
      spec.inequalities = 2 * spec.n + 2;  // more rows than variables: dependence is certain
      spec.dependent = 3;
      const QpProblem p = random_qp(rng, spec);
      std::vector<int> warm;
      for (int k = 0; k < spec.inequalities; ++k)
        if (uniform01(rng) < 0.7) warm.push_back(k);  // a dependent warm start too
      CAPTURE(trial);
      compare(p, trial % 2 ? warm : std::vector<int>{}, solver);
    }
    CHECK(solver.stats.dependent_swaps > 0);
  }
}

TEST_CASE("regularized equalities (sigma > 0): both solvers solve the same relaxed problem") {
  std::mt19937_64 rng(14);
  ActiveSetSolver solver;
  for (int trial = 0; trial < 100; ++trial) {
    RandomQpSpec spec;
    spec.n = 4 + uniform_index(rng, 8);
    spec.equalities = 1 + uniform_index(rng, spec.n);  // may exceed what is independent
    spec.inequalities = 1 + uniform_index(rng, 2 * spec.n);
    spec.shift = uniform_real(rng, 1e-3, 1.0);
    CAPTURE(trial);
    compare(random_qp(rng, spec), {}, solver);
  }
}

TEST_CASE("appended rows fold into the sparse base after max_appended") {
  std::mt19937_64 rng(15);
  ActiveSetSolver solver;
  solver.settings.max_appended = 2;
  for (int trial = 0; trial < 50; ++trial) {
    RandomQpSpec spec;
    spec.n = 12;
    spec.equalities = 3;
    spec.inequalities = 30;
    CAPTURE(trial);
    compare(random_qp(rng, spec), {}, solver);
  }
  CHECK(solver.stats.factorizations > 50 + 10);
}

// A sequence of QPs that keeps its equality rows (the chord iteration of
// cloth/contact_projection.h) keeps the base factor; changing what the base is made of (an
// equality row, the shift, the masses) makes a new one. Rows outside the base do not count.
// Whichever way the factor is got, the solution is the one a fresh solver finds, bit for bit.
TEST_CASE("a base made of unchanged rows keeps its factor; the solution is a fresh solver's") {
  QpProblem p = regularized_qp(31, 0);
  ActiveSetSolver solver;
  auto same_as_fresh = [&](const QpProblem& q) { check_same_as_fresh(solver, q, {}); };
  same_as_fresh(p);
  const long made = solver.stats.factorizations, kept = solver.stats.reused_factors;
  // the same problem; then other inequalities and another force (the base, the equalities
  // alone at a cold start, is unchanged)
  same_as_fresh(p);
  for (int k = 0; k < p.inequality.nonZeros(); ++k) p.inequality.valuePtr()[k] *= 1.25;
  p.linear *= -0.5;
  same_as_fresh(p);
  CHECK(solver.stats.reused_factors >= kept + 2);
  // an equality value, the shift or a mass changes the base: a new factor each time
  const long before = solver.stats.factorizations;
  p.equality.valuePtr()[0] += 1e-12;
  same_as_fresh(p);
  CHECK(solver.stats.factorizations > before);
  const long after_equality = solver.stats.factorizations;
  p.equality_shift *= 2;
  same_as_fresh(p);
  CHECK(solver.stats.factorizations > after_equality);
  const long after_shift = solver.stats.factorizations;
  p.mass[0] *= 1.5;
  same_as_fresh(p);
  CHECK(solver.stats.factorizations > after_shift);
  CHECK(made > 0);
}

// The bordered rows of a warm start are kept with the base factor: the same rows (equal value
// for value, the same masses) appended again are restored instead of recomputed; any change
// of them, or of the base, recomputes them. Either way the solution is a fresh solver's.
TEST_CASE("a warm start of unchanged rows on an unchanged base keeps its bordered rows") {
  QpProblem p = regularized_qp(32, 2);  // the warm start may hold dependent rows, left out either way
  ActiveSetSolver solver;
  auto same_as_fresh = [&](const QpProblem& q, const std::vector<int>& warm) {
    check_same_as_fresh(solver, q, warm);
  };
  std::vector<int> warm = {0, 3, 5, 9, 10, 11};
  same_as_fresh(p, warm);
  CHECK(solver.stats.reused_starts == 0);
  same_as_fresh(p, warm);
  CHECK(solver.stats.reused_starts == 1);
  p.linear *= -0.5;  // the force does not enter the bordered rows
  same_as_fresh(p, warm);
  CHECK(solver.stats.reused_starts == 2);
  same_as_fresh(p, {0, 3, 5, 9, 10});  // other rows
  CHECK(solver.stats.reused_starts == 2);
  same_as_fresh(p, warm);  // the block kept is now the other start's
  CHECK(solver.stats.reused_starts == 2);
  same_as_fresh(p, warm);
  CHECK(solver.stats.reused_starts == 3);
  // a value of a warm row, a mass, an equality row: recomputed
  for (SparseRows::InnerIterator it(p.inequality, 5); it; ++it) {
    it.valueRef() *= 1.0 + 1e-12;
    break;
  }
  same_as_fresh(p, warm);
  p.mass[p.variables() - 1] *= 1.25;
  same_as_fresh(p, warm);
  p.equality.valuePtr()[0] += 1e-12;
  same_as_fresh(p, warm);
  CHECK(solver.stats.reused_starts == 3);
}

// Self-collisions of a crumpled cloth give thousands of candidate rows with a few hundred
// working: a factor with a place for every candidate (as for the few candidates of most contact
// problems) made each refactorization cost as much as a dense system of every candidate, and a
// step took minutes. Here 1,500 sparse candidates on 90 variables, about 15 of them active.
TEST_CASE("many candidate rows: the sparse factor holds the working rows, not every candidate") {
  std::mt19937_64 rng(21);
  ActiveSetSolver solver;
  for (int trial = 0; trial < 5; ++trial) {
    const int n = 90, me = 20, mi = 1500;
    QpProblem p;
    p.mass = Eigen::VectorXd::Ones(n);
    p.linear.resize(n);
    for (int i = 0; i < n; ++i) p.linear[i] = 2 * standard_normal(rng);
    Eigen::VectorXd feasible(n);
    for (int i = 0; i < n; ++i) feasible[i] = standard_normal(rng);
    auto sparse_rows = [&](int rows, int per_row) {
      std::vector<Eigen::Triplet<double>> entries;
      for (int r = 0; r < rows; ++r) {
        std::vector<int> columns;
        while (static_cast<int>(columns.size()) < per_row) {
          const int c = uniform_index(rng, n);
          if (std::find(columns.begin(), columns.end(), c) == columns.end()) columns.push_back(c);
        }
        for (int c : columns) entries.emplace_back(r, c, standard_normal(rng));
      }
      SparseRows m(rows, n);
      m.setFromTriplets(entries.begin(), entries.end());
      m.makeCompressed();
      return m;
    };
    p.equality = sparse_rows(me, 6);
    p.equality_rhs = p.equality * feasible;
    p.inequality = sparse_rows(mi, 3);
    p.inequality_rhs = p.inequality * feasible;
    for (int r = 0; r < mi; ++r) p.inequality_rhs[r] -= uniform_real(rng, 0.5, 8.0);
    const long factorizations = solver.stats.factorizations, rows = solver.stats.factored_rows;
    CAPTURE(trial);
    compare(p, {}, solver);
    const QpSolution s = solver.solve(p, {});
    INFO(s.active.size() << " active, " << solver.stats.factorizations - factorizations << " factorizations");
    CHECK(s.active.size() >= 5);
    CHECK(s.active.size() <= 100);
    // each factorization: the equalities and at most 3 x (working rows) + 8 candidates
    CHECK(solver.stats.factored_rows - rows <=
          (solver.stats.factorizations - factorizations) * static_cast<long>(me + 3 * s.active.size() + 8));
  }
}

TEST_CASE("infeasible problems and singular equalities are reported, not looped on") {
  // x0 >= 1 and -x0 >= 0
  QpProblem p;
  p.mass = Eigen::VectorXd::Ones(2);
  p.linear = Eigen::VectorXd::Zero(2);
  p.inequality = dense_to_rows((Eigen::MatrixXd(2, 2) << 1, 0, -1, 0).finished());
  p.inequality_rhs = Eigen::Vector2d(1, 0);
  ActiveSetSolver solver;
  CHECK(solver.solve(p, {}).status == QpStatus::infeasible);
  CHECK(solver.solve(p, {0, 1}).status == QpStatus::infeasible);
  CHECK(solve_interior_point(p).status != QpStatus::converged);

  // a zero row that asks for 0 >= 1
  p.inequality = dense_to_rows((Eigen::MatrixXd(1, 2) << 0, 0).finished());
  p.inequality_rhs = Eigen::VectorXd::Ones(1);
  CHECK(solver.solve(p, {}).status == QpStatus::infeasible);

  // two contradictory equality rows with the same gradient, without regularization
  QpProblem q;
  q.mass = Eigen::VectorXd::Ones(3);
  q.linear = Eigen::VectorXd::Ones(3);
  q.equality = dense_to_rows((Eigen::MatrixXd(2, 3) << 1, 1, 0, 1, 1, 0).finished());
  q.equality_rhs = Eigen::Vector2d(1, 2);
  q.inequality.resize(0, 3);
  q.inequality_rhs.resize(0);
  CHECK(solver.solve(q, {}).status == QpStatus::singular);
  // regularized (sigma > 0) they are a least-squares compromise: x0 + x1 = 1.5
  q.equality_shift = 1e-8;
  const QpSolution s = solver.solve(q, {});
  CHECK(s.status == QpStatus::converged);
  CHECK(s.x[0] + s.x[1] == doctest::Approx(1.5).epsilon(1e-6));
}

TEST_CASE("the iteration cap gives a status") {
  std::mt19937_64 rng(16);
  RandomQpSpec spec;
  spec.n = 10;
  spec.inequalities = 30;
  const QpProblem p = random_qp(rng, spec);
  ActiveSetSolver solver;
  solver.settings.max_iterations = 1;
  const QpSolution s = solver.solve(p, {});
  CHECK(s.status == QpStatus::max_iterations);
  CHECK(s.x.allFinite());
}

}  // TEST_SUITE
