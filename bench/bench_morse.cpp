// BENCH figures for the Morse reconstruction: the 30 000-point knotted torus of thesis
// §5.4.10 (the test suite's generator), one reconstruction, wall time.
#include "morse/reconstruction.h"

#include "../tests/cpp/morse/shapes.h"

#include <chrono>
#include <cstdio>

void bench_morse() {
  using namespace tela;
  const Positions cloud = morse_test::knotted_torus(30000, 7);
  morse::ReconstructOptions options;
  options.seed = 100;
  options.resample = false;
  const auto begin = std::chrono::steady_clock::now();
  const Result<morse::Reconstruction> r = morse::reconstruct(cloud, options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (!r.ok()) {
    std::fprintf(stderr, "bench_morse: %s\n", r.error.c_str());
    return;
  }
  std::printf("knotted torus: %d points, chi %d, cells %d %d %d\n", static_cast<int>(cloud.rows()),
              r.value->topology.euler, r.value->topology.cells[0], r.value->topology.cells[1], r.value->topology.cells[2]);
  std::printf("BENCH native_morse_knotted_torus_30k %.3f s\n", wall);
  std::fflush(stdout);
}
