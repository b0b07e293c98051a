// Bulk data across the wasm boundary, always as a copy (so that memory growth can never
// detach what either side holds): into the module, a file's bytes or a cloud's points with one
// TypedArray.set; out of it, a typed array with one typed_memory_view(...).slice().
#pragma once

#include "geometry/mesh.h"

#include <emscripten/val.h>

#include <cstddef>
#include <string>
#include <vector>

namespace tela {

// A JS copy of n elements starting at data (Float32Array, Float64Array, Uint32Array, ... by T).
template <class T>
emscripten::val copy_to_js(std::size_t n, const T* data) {
  return emscripten::val(emscripten::typed_memory_view(n, data)).call<emscripten::val>("slice");
}

template <class T>
emscripten::val copy_to_js(const std::vector<T>& data) {
  return copy_to_js(data.size(), data.data());
}

// A file's bytes: Embind turns a JS string into UTF-8, which mangles binary files (C3D, binary
// PLY/PCD) and text in other code pages (Windows-1252), so the page passes the file's
// Uint8Array (or a Node Buffer) and this copies it into `out` unchanged; false for anything
// else.
inline bool bytes_from_js(const emscripten::val& value, std::string& out) {
  if (!value.instanceof(emscripten::val::global("Uint8Array"))) return false;
  const std::size_t n = value["length"].as<std::size_t>();
  out.assign(n, '\0');
  if (n)
    emscripten::val(emscripten::typed_memory_view(n, reinterpret_cast<unsigned char*>(out.data()))).call<void>("set", value);
  return true;
}

// Points: a Float64Array or Float32Array (or, with allow_array, a plain Array) of x, y, z
// triples copied straight into `out` (which converts float to double), so that a large cloud
// is held once in the heap, not twice. False (and `error` says why) unless the length is a
// multiple of 3; non-numbers in an Array become NaN.
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
