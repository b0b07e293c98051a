// Contact benchmarks: wall seconds per simulated second for the contact scenes of issue 4
// (tablecloth, cylinder-mu-0.55, napkin-fold), each run for its full duration. Figures, not
// tests.
#include "scenario/scenes.h"
#include "sim/simulation.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

int run_contact_scene(const std::string& name) {
  const auto scene = tela::builtin_scene(name);
  if (!scene) {
    std::fprintf(stderr, "bench: no built-in scene %s\n", name.c_str());
    return 1;
  }
  tela::Result<tela::Simulation> created = tela::Simulation::create(*scene);
  if (!created.ok()) {
    std::fprintf(stderr, "bench: %s: %s\n", name.c_str(), created.error.c_str());
    return 1;
  }
  tela::Simulation& sim = *created.value;
  const long steps = sim.steps_for_duration();
  const auto begin = std::chrono::steady_clock::now();
  for (long s = 0; s < steps && !sim.failed(); ++s) sim.step();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (sim.failed()) {
    std::fprintf(stderr, "bench: %s failed: %s\n", name.c_str(), sim.failure_message().c_str());
    return 1;
  }
  const tela::RunStats& stats = sim.stats();
  const std::string prefix = "BENCH native_" + name;
  std::printf("%s: %d nodes, %ld steps, %.3f s simulated, max %d contacts, penetration %.3g m\n", name.c_str(),
              sim.mesh().node_count(), stats.steps, sim.time(), stats.max_contacts, stats.max_penetration);
  std::printf("%s_s_per_sim_s %.4g s\n", prefix.c_str(), wall / sim.time());
  std::printf("%s_iterations_per_step %.4g iter\n", prefix.c_str(),
              static_cast<double>(stats.total_iterations) / static_cast<double>(stats.steps));
  std::fflush(stdout);
  return 0;
}

}  // namespace

void bench_contact() {
  for (const char* name : {"tablecloth", "cylinder-mu-0.55", "napkin-fold"}) run_contact_scene(name);
}
