// tela simulate FILE|NAME: runs a scenario for its duration and prints the run summary.
#include "cli.h"
#include "geometry/obj_text.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "sim/run_summary.h"
#include "sim/simulation.h"
#include "base/json_text.h"

namespace tela::cli {
namespace {

bool parse_count(const std::string& text, long& out) {
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  // --steps does not get around the scenario file's cap
  if (text.empty() || *end != '\0' || value < 1 || value > kMaxSimulationSteps) return false;
  out = value;
  return true;
}

// frame,time,node,x,y,z rows of one frame
void write_frame(std::ofstream& out, long frame, const Simulation& sim) {
  const Positions& x = sim.state().positions;
  char line[160];
  for (Eigen::Index k = 0; k < x.rows(); ++k) {
    std::snprintf(line, sizeof line, "%ld,%.6f,%ld,%.12g,%.12g,%.12g\n", frame, sim.time(),
                  static_cast<long>(k), x(k, 0), x(k, 1), x(k, 2));
    out << line;
  }
}

bool write_obj(const std::string& path, const Simulation& sim) {
  char time[32];
  std::snprintf(time, sizeof time, "%g", sim.time());
  return write_file(path, obj_text(sim.state().positions, sim.mesh().faces, "tela " + sim.scenario().name + " t=" + time));
}

}  // namespace

int run_simulate(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela simulate FILE|NAME [--out traj.csv] [--every K] [--final-obj FILE] [--steps N]";
  if (wants_help(args)) return print_usage(usage);
  std::string source, out_path, obj_path;
  long every = 1, steps = -1;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if ((a == "--out" || a == "--final-obj") && has_value) {
      (a == "--out" ? out_path : obj_path) = args[++i];
      if (args[i].empty()) return bad_input(a + ": needs a file name");
    } else if (a == "--every" && has_value) {
      if (!parse_count(args[++i], every)) return bad_input("--every: needs a whole number from 1 to 1000000");
    } else if (a == "--steps" && has_value) {
      if (!parse_count(args[++i], steps)) return bad_input("--steps: needs a whole number from 1 to 1000000");
    } else if (a.rfind("--", 0) == 0) return bad_input("unknown or incomplete option '" + a + "'; " + usage);
    else if (source.empty()) source = a;
    else return bad_input("unexpected argument '" + a + "'; " + usage);
  }
  if (source.empty()) return bad_input(usage);

  Result<Scenario> scenario = load_scenario(source);
  if (!scenario.ok()) return bad_input(scenario.error);
  Result<Simulation> created = Simulation::create(*scenario.value);
  if (!created.ok()) return bad_input(created.error);
  Simulation& sim = *created.value;

  // both outputs are opened before the run: an unwritable path is known before minutes of work
  std::unique_ptr<std::ofstream> trajectory;
  if (!out_path.empty()) {
    trajectory = std::make_unique<std::ofstream>(out_path);
    if (!*trajectory) return bad_input("--out: cannot write '" + out_path + "'");
    *trajectory << "frame,time,node,x,y,z\n";
    write_frame(*trajectory, 0, sim);
  }
  if (!obj_path.empty() && !writable(obj_path))
    return bad_input("--final-obj: cannot write '" + obj_path + "'");
  auto lost = [&](const std::string& what) {
    return bad_input("--out: writing '" + out_path + "' failed after " + what + " (disk full?); the trajectory is incomplete");
  };
  if (trajectory && !*trajectory) return lost("the first frame");

  const long total = steps > 0 ? steps : sim.steps_for_duration();
  const auto start = std::chrono::steady_clock::now();
  for (long s = 1; s <= total && !sim.failed(); ++s) {
    sim.step();
    if (trajectory && (s % every == 0 || s == total)) {
      write_frame(*trajectory, s, sim);
      if (!*trajectory) return lost("step " + std::to_string(s));
    }
  }
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (trajectory && !trajectory->flush()) return lost("the last step");

  if (!obj_path.empty() && !write_obj(obj_path, sim))
    return bad_input("--final-obj: cannot write '" + obj_path + "'");
  nlohmann::json summary = nlohmann::json::parse(run_summary_json(sim));
  summary["wall_ms"] = wall_ms;
  if (sim.failed()) summary["error"] = sim.failure_message();
  std::printf("%s\n", json_text(summary).c_str());
  return sim.failed() ? kExitNumericalFailure : 0;
}

}  // namespace tela::cli
