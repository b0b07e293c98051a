#include "qp/interior_point.h"

#include <Eigen/SparseCholesky>
#include <algorithm>
#include <cmath>

namespace tela {

namespace {

// largest step in (0, 1] keeping v + step * dv >= 0
double step_to_boundary(const Eigen::VectorXd& v, const Eigen::VectorXd& dv) {
  double step = 1;
  for (Eigen::Index k = 0; k < v.size(); ++k)
    if (dv[k] < 0) step = std::min(step, -v[k] / dv[k]);
  return step;
}

}  // namespace

QpSolution solve_interior_point(const QpProblem& problem, const InteriorPointSettings& settings) {
  const int n = problem.variables(), me = problem.equalities(), mi = problem.inequalities();
  const SparseRows& E = problem.equality;
  const SparseRows& A = problem.inequality;
  const Eigen::VectorXd& b = problem.inequality_rhs;
  const double sigma = problem.equality_shift;
  QpSolution solution;

  // units of the problem, so that every test below is scale-invariant (the cloth's QPs have
  // masses ~1e-3 and steps ~1e-4): a length, a mass, and the sizes of E and A entries
  auto largest = [](const SparseRows& m) {
    double v = 0;
    for (int k = 0; k < m.outerSize(); ++k)
      for (SparseRows::InnerIterator it(m, k); it; ++it) v = std::max(v, std::abs(it.value()));
    return v;
  };
  const double tiny = 1e-300;
  const double size_e = std::max(tiny, largest(E)), size_a = std::max(tiny, largest(A));
  const double mass_scale = problem.mass.maxCoeff();
  Eigen::VectorXd x = problem.linear.cwiseQuotient(problem.mass);  // the unconstrained minimizer
  double length = std::max(tiny, x.lpNorm<Eigen::Infinity>());
  if (me > 0) length = std::max(length, problem.equality_rhs.lpNorm<Eigen::Infinity>() / size_e);
  if (mi > 0) length = std::max(length, b.lpNorm<Eigen::Infinity>() / size_a);
  const double force = mass_scale * length;  // the units of M x
  const double scale_f = force, scale_e = size_e * length, scale_b = size_a * length;
  const double objective_scale = force * length;

  // start: slacks and multipliers pushed inside
  Eigen::VectorXd y = Eigen::VectorXd::Zero(me);
  Eigen::VectorXd s(mi), z(mi);
  if (mi > 0) {
    const Eigen::VectorXd slack = A * x - b;
    const double spread = std::max(1e-2 * scale_b, slack.cwiseAbs().maxCoeff());
    s = slack.cwiseMax(0.0).array() + spread;
    z.setConstant(force / size_a);
  }
  // the pattern of the reduced matrix: M + A^T A (all couplings) and E
  const Eigen::SparseMatrix<double> AtA = Eigen::SparseMatrix<double>(A.transpose()) * Eigen::SparseMatrix<double>(A);
  const double regularization = 1e-12 * size_e * size_e / mass_scale;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
  Eigen::SparseMatrix<double> K(n + me, n + me);
  auto assemble = [&](const Eigen::VectorXd& d) {
    // H = M + A^T diag(d) A, lower triangle
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(AtA.nonZeros() + n + E.nonZeros() + me);
    const Eigen::SparseMatrix<double> H =
        mi > 0 ? Eigen::SparseMatrix<double>(Eigen::SparseMatrix<double>(A.transpose()) * d.asDiagonal() *
                                             Eigen::SparseMatrix<double>(A))
               : Eigen::SparseMatrix<double>(n, n);
    for (int c = 0; c < n; ++c) {
      entries.emplace_back(c, c, problem.mass[c]);
      for (Eigen::SparseMatrix<double>::InnerIterator it(H, c); it; ++it)
        if (it.row() >= c) entries.emplace_back(static_cast<int>(it.row()), c, it.value());
      for (Eigen::SparseMatrix<double>::InnerIterator it(AtA, c); it; ++it)  // keep the pattern fixed
        if (it.row() >= c) entries.emplace_back(static_cast<int>(it.row()), c, 0.0);
    }
    for (int r = 0; r < me; ++r) {
      for (SparseRows::InnerIterator it(E, r); it; ++it) entries.emplace_back(n + r, static_cast<int>(it.col()), it.value());
      entries.emplace_back(n + r, n + r, -(sigma + regularization));
    }
    K.setFromTriplets(entries.begin(), entries.end());
  };

  Eigen::VectorXd dx, dy, ds, dz, rhs(n + me), step;
  auto newton = [&](const Eigen::VectorXd& r_d, const Eigen::VectorXd& r_e, const Eigen::VectorXd& r_a,
                    const Eigen::VectorXd& r_sz) {
    // reduced system (see the header): dy' = -dy
    rhs.head(n) = -r_d;
    if (mi > 0) rhs.head(n) -= A.transpose() * (r_sz + z.cwiseProduct(r_a)).cwiseQuotient(s);
    rhs.tail(me) = -r_e;
    step = ldlt.solve(rhs);
    dx = step.head(n);
    dy = -step.tail(me);
    if (mi > 0) {
      ds = A * dx + r_a;
      dz = -(r_sz + z.cwiseProduct(ds)).cwiseQuotient(s);
    }
  };

  bool analyzed = false;
  for (int iteration = 0;; ++iteration) {
    Eigen::VectorXd r_d = problem.mass.cwiseProduct(x) - problem.linear;
    if (me > 0) r_d -= E.transpose() * y;
    if (mi > 0) r_d -= A.transpose() * z;
    const Eigen::VectorXd r_e = me > 0 ? Eigen::VectorXd(E * x - problem.equality_rhs + sigma * y) : Eigen::VectorXd(0);
    const Eigen::VectorXd r_a = mi > 0 ? Eigen::VectorXd(A * x - b - s) : Eigen::VectorXd(0);
    const double mu = mi > 0 ? s.dot(z) / mi : 0.0;
    solution.iterations = iteration;
    if (!x.allFinite() || !y.allFinite() || (mi > 0 && (!s.allFinite() || !z.allFinite()))) {
      solution.status = QpStatus::non_finite;
      break;
    }
    if (r_d.lpNorm<Eigen::Infinity>() <= settings.tolerance * scale_f &&
        (me == 0 || r_e.lpNorm<Eigen::Infinity>() <= settings.tolerance * scale_e) &&
        (mi == 0 || (r_a.lpNorm<Eigen::Infinity>() <= settings.tolerance * scale_b &&
                     s.cwiseProduct(z).maxCoeff() <= 1e-2 * settings.tolerance * objective_scale))) {
      solution.status = QpStatus::converged;
      break;
    }
    if (iteration >= settings.max_iterations) {
      solution.status = QpStatus::max_iterations;
      break;
    }
    // a multiplier that keeps growing while the constraints stay violated: no feasible point
    if (mi > 0 && z.lpNorm<Eigen::Infinity>() > 1e14 * force / size_a) {
      solution.status = QpStatus::infeasible;
      break;
    }

    assemble(mi > 0 ? Eigen::VectorXd(z.cwiseQuotient(s)) : Eigen::VectorXd(0));
    if (!analyzed) {
      ldlt.analyzePattern(K);
      analyzed = true;
    }
    ldlt.factorize(K);
    if (ldlt.info() != Eigen::Success) {
      solution.status = QpStatus::singular;
      break;
    }

    if (mi == 0) {  // an equality-constrained QP: one Newton step is exact
      newton(r_d, r_e, r_a, Eigen::VectorXd(0));
      x += dx;
      y += dy;
      continue;
    }
    // predictor (affine scaling), then Mehrotra's centring-corrector
    newton(r_d, r_e, r_a, s.cwiseProduct(z));
    const double affine = std::min(step_to_boundary(s, ds), step_to_boundary(z, dz));
    const double mu_affine = (s + affine * ds).dot(z + affine * dz) / mi;
    const double centring = std::pow(mu_affine / mu, 3);
    const Eigen::VectorXd r_sz = s.cwiseProduct(z) + ds.cwiseProduct(dz) - Eigen::VectorXd::Constant(mi, centring * mu);
    newton(r_d, r_e, r_a, r_sz);
    const double length = std::min(1.0, 0.995 * std::min(step_to_boundary(s, ds), step_to_boundary(z, dz)));
    x += length * dx;
    y += length * dy;
    s += length * ds;
    z += length * dz;
  }
  solution.x = x;
  solution.equality_multipliers = y;
  solution.inequality_multipliers = mi > 0 ? z : Eigen::VectorXd(0);
  if (mi > 0) {
    // the active set: constraints whose slack vanished (relative to their multiplier)
    const Eigen::VectorXd slack = A * x - b;
    for (int k = 0; k < mi; ++k)
      if (z[k] > std::abs(slack[k])) solution.active.push_back(k);
  }
  return solution;
}

}  // namespace tela
