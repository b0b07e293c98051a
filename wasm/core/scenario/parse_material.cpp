// The material section (thesis Table 4.1: density, damping, bending, shear).
#include "scenario/parse_sections.h"

#include "base/json_read.h"

namespace tela {

using json = nlohmann::json;

bool parse_material(const json& j, Material& material, std::string& error) {
  const std::string p = "material";
  return require_object(j, p, error) &&
         check_keys(j, p, {"rho", "delta", "alpha", "kappa", "beta", "shear"}, error) &&
         read_number(j, "rho", p, kPositive, material.rho, error) &&
         read_number(j, "delta", p, kNonNegative, material.delta, error) &&
         read_number(j, "alpha", p, kNonNegative, material.alpha, error) &&
         read_number(j, "kappa", p, kNonNegative, material.kappa, error) &&
         read_number(j, "beta", p, kNonNegative, material.beta, error) &&
         read_number(j, "shear", p, kNonNegative, material.shear, error);
}

}  // namespace tela
