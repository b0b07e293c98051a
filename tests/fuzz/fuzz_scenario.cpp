// libFuzzer target: text -> parse_scenario -> Simulation::create -> a few steps of small
// scenes. A scenario the parser accepts must build or be refused with a message, and its
// first steps must end in a status, never a crash. Build and run: scripts/fuzz.sh scenario.
#include "scenario/json.h"
#include "sim/run_summary.h"
#include "sim/simulation.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto scenario = tela::parse_scenario(text);
  if (!scenario.ok()) return 0;
  auto simulation = tela::Simulation::create(*scenario.value);
  if (!simulation.ok()) return 0;
  if (simulation.value->mesh().node_count() > 200) return 0;  // keep each input fast
  simulation.value->step_n(3);
  tela::run_summary_json(*simulation.value);
  return 0;
}
