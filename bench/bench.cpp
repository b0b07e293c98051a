// tela_bench: native benchmark figures. Each benchmarked built-in scene (the hang scenes, then
// the contact scenes) runs for its full duration and prints one `BENCH <name> <value> <unit>` line
// per figure; bench/run.mjs adds the hang scenes in the WebAssembly build. Figures, not
// tests: nothing here asserts on time. Exit status 1 if a scene is missing or fails.
#include "scenario/scenes.h"
#include "sim/simulation.h"

#include <chrono>
#include <cstdio>
#include <string>

void bench_dgli();
void bench_fit();

namespace {

int run_scene(const std::string& name) {
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
  const tela::ProjectorStats& projector = sim.projector_stats();
  const double n = static_cast<double>(stats.steps);
  const std::string prefix = "BENCH native_" + name;
  std::printf("%s: %d nodes, %ld steps, %.3f s simulated, state %s", name.c_str(), sim.mesh().node_count(),
              stats.steps, sim.time(), sim.state_hash().c_str());
  if (stats.max_contacts > 0)
    std::printf(", max %d contacts, penetration %.3g m", stats.max_contacts, stats.max_penetration);
  std::printf("\n");
  std::printf("%s_s_per_sim_s %.4g s\n", prefix.c_str(), wall / sim.time());
  std::printf("%s_iterations_per_step %.4g iter\n", prefix.c_str(), stats.total_iterations / n);
  std::printf("%s_substeps_per_step %.4g substeps\n", prefix.c_str(), stats.total_substeps / n);
  std::printf("%s_factorizations_per_step %.4g count\n", prefix.c_str(), projector.factorizations / n);
  std::printf("%s_inner_iterations_per_step %.4g iter\n", prefix.c_str(), projector.inner_iterations / n);
  std::fflush(stdout);
  return 0;
}

}  // namespace

void bench_morse();
void bench_pointcloud();
void bench_qp();

// `tela_bench [SECTION...]` runs only the named sections (scene names, pointcloud, morse,
// dgli, fit, qp); no argument runs them all.
int main(int argc, char** argv) {
  auto wanted = [&](const std::string& section) {
    if (argc < 2) return true;
    for (int i = 1; i < argc; ++i)
      if (section == argv[i]) return true;
    return false;
  };
  int status = 0;
  std::printf("native (build/tela_bench), each scene for its full duration\n");
  for (const char* name : {"hang-7x9", "hang-20x33", "hang-30x30"})
    if (wanted(name)) status |= run_scene(name);
  if (wanted("pointcloud")) bench_pointcloud();
  if (wanted("morse")) bench_morse();
  if (wanted("dgli")) bench_dgli();
  if (wanted("fit")) bench_fit();
  if (wanted("qp")) bench_qp();
  // the contact scenes of issue 4
  for (const char* name : {"tablecloth", "cylinder-mu-0.55", "napkin-fold"})
    if (wanted(name)) status |= run_scene(name);
  return status;
}
