// JSON text checked before it is parsed: where it breaks, with its byte, line, column and the
// path of the value being read; a duplicate key (a DOM parse would silently keep the last
// one); nesting deeper than 64 levels (a file of a million '[' would overflow the stack of the
// DOM parse after it). Any JSON input of the core can use it.
#pragma once

#include <string>

namespace tela {

// Empty for well-formed JSON; else "invalid JSON at byte B (line L, column C) in PATH: ...",
// "PATH: duplicate key", "PATH: must be finite (...)" for a number beyond the double range, or
// "invalid JSON: nested deeper than 64 levels at PATH".
std::string json_syntax_error(const std::string& json_text);

}  // namespace tela
