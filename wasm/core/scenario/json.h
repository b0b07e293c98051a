// Scenario file version 1 <-> Scenario. Validation names the offending field, e.g.
// "solver.dt: must be > 0 (got -0.01)". Unknown keys are errors; documented defaults apply
// to missing keys.
#pragma once

#include "base/result.h"
#include "scenario/scenario.h"

#include <string>

namespace tela {

Result<Scenario> parse_scenario(const std::string& json_text);
// Empty for well-formed JSON; else where it breaks ("invalid JSON at byte B (line L, column C)
// in PATH: ..."), a duplicate key, or nesting deeper than 64 levels. Any JSON input can use it.
std::string json_syntax_error(const std::string& json_text);
std::string scenario_to_json(const Scenario& scenario, int indent = 2);

}  // namespace tela
