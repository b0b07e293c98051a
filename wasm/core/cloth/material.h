// The cloth's material (thesis ch. 2, Table 4.1): densities, damping, bending and shearing.
// Built from the scenario's material by the compile step (sim/compile.h).
#pragma once

namespace tela {

struct ClothMaterial {
  double rho = 0.1804;  // inertial density, kg/m^2
  double delta = 0.087; // virtual gravitational density, kg/m^2 (aerodynamics, thesis 2.5.1)
  double alpha = 0.35;  // mass-proportional (Rayleigh) damping, kg/(m^2 s)
  double kappa = 0.0;   // bending stiffness
  double beta = 0.0;    // stiffness-proportional damping
  double shear = 0.0;   // shearing energy k_s; > 0 drops the hard F constraints
};

}  // namespace tela
