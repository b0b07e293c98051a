// Conversions of doubles to integers, defined for every double. Casting a double to an integer
// is undefined behaviour in C++ when the value is NaN or beyond the integer's range (and
// WebAssembly's plain conversion traps), so a value read from input must be checked, and a
// position that went far away or became NaN clamped, before it is cast.
#pragma once

#include <cmath>
#include <cstdint>

namespace tela {

// Whether `value` is a whole number that a long and a double both hold exactly (|value| <=
// 2^53): frame numbers, counts, seeds.
inline bool is_whole_number(double value) { return std::abs(value) <= 9007199254740992.0 && value == std::floor(value); }

// The cell of a coordinate on a grid: floor(x) clamped to [lo, hi]; lo for NaN
template <class Int = int>
Int clamped_floor(double x, Int lo, Int hi) {
  if (!(x >= static_cast<double>(lo))) return lo;
  if (x >= static_cast<double>(hi)) return hi;
  return static_cast<Int>(std::floor(x));
}

}  // namespace tela
