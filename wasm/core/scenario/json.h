// Scenario file version 1 <-> Scenario. Validation names the offending field, e.g.
// "solver.dt: must be > 0 (got -0.01)". Unknown keys are errors; documented defaults apply
// to missing keys.
#pragma once

#include "scenario/result.h"
#include "scenario/scenario.h"

#include <string>

namespace tela {

Result<Scenario> parse_scenario(const std::string& json_text);
std::string scenario_to_json(const Scenario& scenario, int indent = 2);

}  // namespace tela
