// A file's bytes handed over from JavaScript. Embind turns a JS string into UTF-8, which mangles
// binary files (C3D, binary PLY/PCD) and text in other code pages (Windows-1252), so the page
// passes the file's Uint8Array and this copies it into the module unchanged.
#pragma once

#include <emscripten/val.h>

#include <string>

namespace tela {

// The bytes of a Uint8Array (or a Node Buffer), copied with one TypedArray.set into the
// string's buffer; false for anything else.
inline bool bytes_from_js(const emscripten::val& value, std::string& out) {
  if (!value.instanceof(emscripten::val::global("Uint8Array"))) return false;
  const std::size_t n = value["length"].as<std::size_t>();
  out.assign(n, '\0');
  if (n)
    emscripten::val(emscripten::typed_memory_view(n, reinterpret_cast<unsigned char*>(out.data()))).call<void>("set", value);
  return true;
}

}  // namespace tela
