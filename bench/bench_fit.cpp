// Fit benchmark: a 20 x 20 sweep of (delta / rho, alpha / rho) on a 15 s synthetic A2
// recording (20 markers, 7 x 9 mesh, dt = 0.01 s), on every core. Figures, not tests.
#include "fit/fit_job.h"
#include "mocap/motive_csv_writer.h"
#include "mocap/parse_recording.h"
#include "generators/synthetic_recording.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <memory>
#include <thread>

void bench_fit() {
  tela::SyntheticRecordingSpec spec;
  spec.size = "A2";
  spec.motion = "shake";
  spec.duration = 15.0;
  spec.kappa = 1e-3;
  tela::Result<tela::Recording> rec = tela::synthesize_recording(spec);
  if (!rec.ok()) {
    std::fprintf(stderr, "bench_fit: %s\n", rec.error.c_str());
    return;
  }
  tela::Result<tela::Recording> parsed = tela::parse_recording(tela::write_motive_csv(*rec.value));
  tela::FitProblemOptions options;
  options.kappa = spec.kappa;
  tela::Result<tela::FitProblem> made = tela::make_fit_problem(*parsed.value, options);
  if (!made.ok()) {
    std::fprintf(stderr, "bench_fit: %s\n", made.error.c_str());
    return;
  }
  const auto problem = std::make_shared<const tela::FitProblem>(std::move(*made.value));
  const int threads = std::max(1u, std::thread::hardware_concurrency());

  std::vector<tela::FitPoint> points;
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j) points.push_back(tela::FitPoint{i / 19.0, 4.0 * j / 19.0});
  const std::clock_t cpu_begin = std::clock();
  const auto begin = std::chrono::steady_clock::now();
  const std::vector<tela::Evaluation> values = tela::evaluate_points(*problem, points, tela::Window{}, threads);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const double cpu = static_cast<double>(std::clock() - cpu_begin) / CLOCKS_PER_SEC;
  int failed = 0;
  for (const tela::Evaluation& e : values) failed += e.ok ? 0 : 1;
  std::printf("fit sweep: 20x20 on %.1f s of A2 (%d nodes, %d steps), %d threads, %d failed simulations\n",
              problem->steps * problem->dt, problem->cloth.mesh.node_count(), problem->steps, threads, failed);
  std::printf("BENCH native_fit_sweep_20x20_15s_A2 %.3f s\n", wall);
  // processor time summed over the threads: on a shared machine the wall time also counts
  // the time other processes held the cores
  std::printf("BENCH native_fit_sweep_20x20_15s_A2_cpu %.3f s\n", cpu);
  std::printf("BENCH native_fit_evaluation_15s_A2_cpu %.4f s\n", cpu / points.size());
  std::fflush(stdout);
}
