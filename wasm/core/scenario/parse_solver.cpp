// The solver section: time step, projection tolerance and iterations, substeps, strain limit.
#include "scenario/parse_sections.h"

#include "base/json_read.h"

namespace tela {
namespace {

using json = nlohmann::json;

constexpr int max_iterations_limit = 10000;

}  // namespace

bool parse_solver(const json& j, SolverSettings& solver, std::string& error) {
  const std::string p = "solver";
  if (!(require_object(j, p, error) &&
        check_keys(j, p, {"dt", "tolerance", "max_iterations", "max_substeps", "strain_limit"}, error) &&
        read_number(j, "dt", p, NumberRange{0.0, 1.0, true, false}, solver.dt, error) &&
        read_number(j, "tolerance", p, NumberRange{0.0, 0.5, true, false}, solver.tolerance, error) &&
        read_int(j, "max_iterations", p, 1, max_iterations_limit, solver.max_iterations, error) &&
        read_int(j, "max_substeps", p, 1, 4, solver.max_substeps, error) &&
        read_number(j, "strain_limit", p, NumberRange{0.0, 0.5, false, false}, solver.strain_limit, error)))
    return false;
  if (solver.max_substeps == 3) {
    error = p + ".max_substeps: 1, 2 or 4 substeps per step, found 3";
    return false;
  }
  return true;
}

}  // namespace tela
