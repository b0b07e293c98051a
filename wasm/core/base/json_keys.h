// The keys a JSON object may hold: one check for the scenario file and the page's option and
// setting objects (wasm/bindings/fit_options.h), so that a misspelt key is named, never ignored.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <string>

namespace tela {

// "a, b, c"
inline std::string list_names(std::initializer_list<const char*> names) {
  std::string out;
  for (const char* name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

// "" when every key of `object` is in `allowed`; else "PATH.KEY: unknown key (expected one of:
// ...)" for the first that is not (PATH empty: "KEY: ...")
inline std::string unknown_key_error(const nlohmann::json& object, const std::string& path,
                                     std::initializer_list<const char*> allowed) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool known = false;
    for (const char* name : allowed) known = known || it.key() == name;
    if (!known)
      return (path.empty() ? it.key() : path + "." + it.key()) + ": unknown key (expected one of: " +
             list_names(allowed) + ")";
  }
  return {};
}

}  // namespace tela
