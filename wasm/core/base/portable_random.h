// Random numbers that are the same with every standard library. The raw output of
// std::mt19937_64 is fixed by the C++ standard, but std::uniform_real_distribution and
// std::normal_distribution are not (libstdc++ and Emscripten's libc++ differ), so the
// distributions are written here from the raw 64-bit words. The generator is always passed in
// (no global state); callers seed it from their spec's seed.
#pragma once

#include "base/portable_math.h"

#include <cmath>
#include <cstdint>
#include <random>

namespace tela {

// Uniform in [0, 1): the top 53 bits of one draw, scaled by 2^-53.
inline double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * (1.0 / 9007199254740992.0);
}

// Uniform in [lo, hi).
inline double uniform_real(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * uniform01(rng);
}

// Uniform integer in [0, n), n >= 1 (modulo bias below n / 2^64, negligible here).
inline int uniform_index(std::mt19937_64& rng, int n) {
  return static_cast<int>(rng() % static_cast<std::uint64_t>(n));
}

// Standard normal N(0, 1) by Box-Muller (one of the pair is used; two draws per call).
inline double standard_normal(std::mt19937_64& rng) {
  const double u1 = 1.0 - uniform01(rng);  // (0, 1], so the logarithm is finite
  const double u2 = uniform01(rng);
  double sine = 0, cosine = 0;
  portable_sin_cos_turns(u2, &sine, &cosine);
  return std::sqrt(-2.0 * portable_log(u1)) * cosine;
}

}  // namespace tela
