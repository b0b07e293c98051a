// The run summary of the CLI contract (`tela simulate` prints it, with wall_ms; the page's
// Simulation.summary() returns it): the scenario's size, the run's statistics (sim/runner.h),
// the final state's hash and metrics, and the status.
#pragma once

#include "sim/simulation.h"

#include <string>

namespace tela {

// The summary as a JSON object string (without wall_ms).
std::string run_summary_json(const Simulation& sim);

}  // namespace tela
