// The active-set solver (thesis §3.5) against the interior-point reference on the same
// sequence of QPs: a 20 x 20 cloth (0.6 m square) dropped tilted onto a floor with friction,
// 1 s at dt 0.01. The run itself uses the active set (its wall time per simulated second is a
// figure too); every QP is recorded and a subset replayed by both solvers, the active set with
// the warm start it had in the run and cold (no warm start: the solver's crash start from the
// rows the equality-constrained minimizer violates). Thesis Table 4.8 compared the same way.
#include "cloth/model.h"
#include "cloth/step.h"
#include "geometry/generators.h"
#include "qp/active_set.h"
#include "qp/interior_point.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace {

class FloorProvider : public tela::ContactProvider {
 public:
  void contacts(const tela::ContactQuery& query, std::vector<tela::ContactConstraint>& out) override {
    for (Eigen::Index k = 0; k < query.current.rows(); ++k) {
      if (query.current(k, 2) > 0.005) continue;
      tela::ContactConstraint c;
      c.nodes = {static_cast<int>(k), -1, -1, -1};
      c.weights = {1, 0, 0, 0};
      c.normal = Eigen::Vector3d::UnitZ();
      c.mu = 0.3;
      out.push_back(c);
    }
  }
};

double seconds_since(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace

void bench_qp() {
  using namespace tela;
  RectangleSpec spec;
  spec.width = spec.height = 0.6;
  spec.nx = spec.ny = 20;
  Mesh mesh = make_rectangle(spec);
  const double tilt = 0.3;  // rad, about the x axis; the low edge 2 cm above the floor
  for (Eigen::Index k = 0; k < mesh.positions.rows(); ++k) {
    const double y = mesh.positions(k, 1);
    mesh.positions(k, 1) = y * std::cos(tilt);
    mesh.positions(k, 2) = 0.02 + y * std::sin(tilt);
  }
  StepSettings solver;
  Result<std::shared_ptr<const ClothModel>> built = build_model(mesh, ClothMaterial{}, solver, {});
  if (!built.ok()) {
    std::fprintf(stderr, "bench_qp: %s\n", built.error.c_str());
    return;
  }
  const ClothModel& model = **built.value;
  ClothState state;
  state.positions = model.rest_positions;
  state.velocities = Positions::Zero(model.node_count(), 3);
  StepWorkspace workspace;
  std::vector<RecordedQp> recorded;
  workspace.contact_projector.record = &recorded;
  FloorProvider floor;
  const int steps = 100;
  long unconverged = 0;
  double penetration = 0, error = 0;
  const auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < steps; ++i) {
    const StepReport report = step(model, {}, state, workspace, &floor);
    unconverged += report.status != StepStatus::converged;
    penetration = std::max(penetration, report.penetration);
    if (report.contacts > 0) error = std::max(error, report.constraint_error);
  }
  const double run_seconds = seconds_since(begin);
  std::printf("qp: 20x20 cloth dropped on a floor, %d steps, %zu QPs (%d variables, %d equalities), "
              "%ld unconverged steps, max penetration %.2e m, max error in contact %.2e\n",
              steps, recorded.size(), model.free_count * 3, model.constraints.rows(), unconverged, penetration,
              error);
  std::printf("BENCH native_qp_drop_20x20_s_per_sim_s %.4g s\n", run_seconds / (steps * model.solver.dt));
  if (recorded.empty()) return;

  // every k-th QP, at most 60 of them (the reference is slow)
  std::vector<int> subset;
  const int stride = std::max<int>(1, static_cast<int>(recorded.size()) / 60);
  for (int i = 0; i < static_cast<int>(recorded.size()) && subset.size() < 60; i += stride) subset.push_back(i);

  ActiveSetSolver warm_solver, cold_solver;
  std::vector<Eigen::VectorXd> solutions(recorded.size());
  auto t0 = std::chrono::steady_clock::now();
  int warm_failed = 0;
  for (int i : subset) {
    const QpSolution s = warm_solver.solve(recorded[i].problem, recorded[i].warm_start);
    warm_failed += s.status != QpStatus::converged;
    solutions[i] = s.x;
  }
  const double warm_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  int cold_failed = 0;
  std::vector<Eigen::VectorXd> cold_solutions(recorded.size());
  for (int i : subset) {
    const QpSolution s = cold_solver.solve(recorded[i].problem, {});
    cold_failed += s.status != QpStatus::converged;
    cold_solutions[i] = s.x;
  }
  const double cold_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  int reference_failed = 0, reference_iterations = 0;
  double worst_difference = 0, worst_step = 0;
  for (int i : subset) {
    const QpSolution s = solve_interior_point(recorded[i].problem);
    reference_failed += s.status != QpStatus::converged;
    reference_iterations += s.iterations;
    // objective difference relative to the size of the objective's terms
    const QpProblem& p = recorded[i].problem;
    const double f = qp_objective(p, s.x), g = qp_objective(p, solutions[i]);
    // (floor: the energy of a 1e-9 m step, below which both are "no step")
    const double size = s.x.dot(p.mass.cwiseProduct(s.x)) + std::abs(s.x.dot(p.linear)) + std::abs(f) +
                        p.mass.maxCoeff() * 1e-18;
    const double h = qp_objective(p, cold_solutions[i]);
    worst_difference = std::max({worst_difference, std::abs(f - g) / size, std::abs(f - h) / size});
    worst_step = std::max({worst_step, (s.x - solutions[i]).lpNorm<Eigen::Infinity>(),
                           (s.x - cold_solutions[i]).lpNorm<Eigen::Infinity>()});
  }
  const double reference_seconds = seconds_since(t0);
  const double count = static_cast<double>(subset.size());
  std::printf("qp: %zu QPs replayed; not converged: active set warm %d, cold %d, reference %d; "
              "reference %.1f iterations per QP; cold starts from the violated rows (crash) %ld; "
              "max difference from the reference (warm and cold): relative objective %.2e, step %.2e m\n",
              subset.size(), warm_failed, cold_failed, reference_failed, reference_iterations / count,
              cold_solver.stats.crash_starts, worst_difference, worst_step);
  std::printf("BENCH native_qp_active_set_warm_ms_per_qp %.4g ms\n", 1e3 * warm_seconds / count);
  std::printf("BENCH native_qp_active_set_cold_ms_per_qp %.4g ms\n", 1e3 * cold_seconds / count);
  std::printf("BENCH native_qp_interior_point_ms_per_qp %.4g ms\n", 1e3 * reference_seconds / count);
  std::printf("BENCH native_qp_speedup_warm_vs_reference %.3g x\n", reference_seconds / warm_seconds);
  std::printf("BENCH native_qp_speedup_cold_vs_reference %.3g x\n", reference_seconds / cold_seconds);
  std::fflush(stdout);
}
