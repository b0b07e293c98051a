// Points handed over from JavaScript: a Float64Array or Float32Array (or, where allowed, a plain
// array) of x, y, z triples copied straight into the module's Positions with one TypedArray.set
// (which converts float to double), so a large cloud is held once in the heap, not twice.
#pragma once

#include "geometry/mesh.h"

#include <emscripten/val.h>

#include <string>

namespace tela {

// false (and `error` says why) unless `value` is a typed array (or, with allow_array, an Array)
// whose length is a multiple of 3; non-numbers in an Array become NaN
inline bool positions_from_js(const emscripten::val& value, Positions& out, std::string& error,
                              bool allow_array = false) {
  using emscripten::val;
  const bool typed = value.instanceof(val::global("Float32Array")) || value.instanceof(val::global("Float64Array"));
  if (!typed && !(allow_array && val::global("Array").call<bool>("isArray", value))) {
    error = allow_array ? "points must be a Float32Array, Float64Array or array of x, y, z numbers"
                        : "points must be a Float32Array or Float64Array of x, y, z triples";
    return false;
  }
  const std::size_t n = value["length"].as<std::size_t>();
  if (n % 3 != 0) {
    error = "the number of coordinates (" + std::to_string(n) + ") is not a multiple of 3";
    return false;
  }
  out.resize(static_cast<Eigen::Index>(n / 3), 3);
  if (n) val(emscripten::typed_memory_view(n, out.data())).call<void>("set", value);
  return true;
}

}  // namespace tela
