// Optional shearing energy (thesis §2.4.6, eq. 2.17-2.18): with C_F the F rows at every node,
//   S(x) = k_s/2 C_F(x)^T M C_F(x),   F_s(x) = -grad S = -k_s grad C_F^T M C_F.
#pragma once

#include "cloth/model.h"

#include <Eigen/Core>

namespace tela {

// S(x), joules per unit density (multiply by nothing: k_s carries the units).
double shear_energy(const ClothModel& model, const Positions& x);

// Adds F_s(x) to `force` (3n, interleaved xyz).
void add_shear_force(const ClothModel& model, const Positions& x, Eigen::VectorXd& force);

}  // namespace tela
