// Real roots in [0, 1] of a3 t^3 + a2 t^2 + a1 t + a0, for the coplanarity cubic of CCD
// (thesis eq. 3.3). Robust: the interval is split at the critical points (monotone pieces),
// each sign change is bisected to machine precision, and a piece whose end touches zero
// within `zero_tolerance` (a double root: tangential touching) counts as a root there.
#pragma once

namespace tela {

// Writes the roots in increasing order into roots[0..n) and returns n (0..3). A polynomial
// that is identically zero within zero_tolerance has no isolated roots: returns -1.
int cubic_roots_unit_interval(double a3, double a2, double a1, double a0, double zero_tolerance,
                              double roots[3]);

}  // namespace tela
