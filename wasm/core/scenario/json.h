// Scenario file version 1 <-> Scenario. Validation names the offending field, e.g.
// "solver.dt: must be > 0 (got -0.01)". Unknown keys are errors; documented defaults apply
// to missing keys. Parsing: parse_scenario.cpp and the section parsers (parse_sections.h);
// writing: write.cpp.
#pragma once

#include "base/result.h"
#include "scenario/scenario.h"

#include <string>

namespace tela {

// The scenario, or the first thing wrong with the text: a syntax error with its byte, line
// and column (base/json_syntax.h), or a field that cannot be used, named by its path.
Result<Scenario> parse_scenario(const std::string& json_text);
// indent < 0: compact; else pretty-printed with vectors and index lists on one line. Reads back
// through parse_scenario as the same scenario, and writes again as the same text.
std::string scenario_to_json(const Scenario& scenario, int indent = 2);

}  // namespace tela
