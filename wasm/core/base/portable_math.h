// Elementary functions built from + - * / and sqrt only. IEEE 754 rounds those exactly, so
// native (glibc) and WebAssembly (musl) builds give bit-identical results, which std::log and
// std::cos do not promise (they may differ in the last bit). Used wherever a generated mesh
// must be reproducible across builds. Accurate to about one unit in the last place.
// Precondition for bit-identity: no -ffast-math and no FMA contraction (-march=native).
#pragma once

namespace tela {

// Natural logarithm of x > 0 (finite, normal).
double portable_log(double x);

// Hyperbolic tangent of any finite x (exactly 0 at 0, odd, +-1 beyond |x| = 20).
double portable_tanh(double x);

// Sine and cosine of the angle 2*pi*turns (turns: any finite number; one turn = 2 pi radians).
// Exact at multiples of a quarter turn: portable_sin_cos_turns(0.25) gives (1, 0).
void portable_sin_cos_turns(double turns, double* sine, double* cosine);

}  // namespace tela
