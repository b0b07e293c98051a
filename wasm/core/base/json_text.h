// JSON text that cannot abort. The core is built with JSON_NOEXCEPTION (CMakeLists.txt), where
// dumping a string that is not UTF-8 (a marker name in a Windows code page, bytes of a broken
// file quoted in a message) would abort the CLI or the WebAssembly module; here such bytes
// become U+FFFD. Every JSON the CLI prints or the bindings return goes through it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace tela {

template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// Pretty-printed with `indent` spaces per level, as nlohmann's pretty printer but with arrays of
// scalars on one line ("origin": [0.0, 0.0, 1.0]), so that vectors, index lists, vertices and
// faces read one per line. Written as json_text, so it cannot abort either.
std::string json_pretty_text(const nlohmann::ordered_json& j, int indent);

}  // namespace tela
