// The cell of a coordinate on a grid, defined for every double. Casting a double to an integer
// is undefined behaviour in C++ when the value is NaN or beyond the integer's range (and
// WebAssembly's plain conversion traps), so a position that went far away or became NaN
// must be clamped before it is cast, not after.
#pragma once

#include <cmath>
#include <cstdint>

namespace tela {

// floor(x) clamped to [lo, hi]; lo for NaN
template <class Int = int>
Int clamped_floor(double x, Int lo, Int hi) {
  if (!(x >= static_cast<double>(lo))) return lo;
  if (x >= static_cast<double>(hi)) return hi;
  return static_cast<Int>(std::floor(x));
}

}  // namespace tela
