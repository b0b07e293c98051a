// The syntax pass every JSON input of the core goes through (base/json_syntax.h): where the text
// breaks, duplicate keys, nesting depth.
#include "base/json_syntax.h"

#include <doctest/doctest.h>

#include <string>

using tela::json_syntax_error;

TEST_CASE("json_syntax_error: well-formed text passes") {
  CHECK(json_syntax_error(R"({"a": [1, 2, {"b": null}], "c": "d"})").empty());
  CHECK(json_syntax_error("[]").empty());
  CHECK(json_syntax_error("3.5").empty());
}

TEST_CASE("json_syntax_error: byte, line, column and the path of the value being read") {
  CHECK(json_syntax_error("{\"a\": [1,\n 2, x]}") ==
        "invalid JSON at byte 15 (line 2, column 5) in a[2]: syntax error while parsing value - invalid literal; "
        "last read: '2, x'");
  CHECK(json_syntax_error("").find("invalid JSON at byte 1 (line 1, column 1)") == 0);
  // the offending bytes are quoted printably, invalid UTF-8 included
  CHECK(json_syntax_error("[\"\xff\"]").find("\\xff") != std::string::npos);
}

TEST_CASE("json_syntax_error: a duplicate key is named by its path") {
  CHECK(json_syntax_error(R"({"a": {"b": 1, "b": 2}})") == "a.b: duplicate key");
  CHECK(json_syntax_error(R"([{"x": 1}, {"x": 1, "x": 2}])") == "[1].x: duplicate key");
}

TEST_CASE("json_syntax_error: numbers beyond the double range and deep nesting") {
  CHECK(json_syntax_error(R"({"a": 1e999})").find("a: must be finite") == 0);
  CHECK(json_syntax_error(std::string(65, '[') + std::string(65, ']')).find("nested deeper than 64 levels") !=
        std::string::npos);
  CHECK(json_syntax_error(std::string(64, '[') + std::string(64, ']')).empty());
  // a million '[' is refused at the 65th, not walked to its end
  CHECK(json_syntax_error(std::string(1000000, '[')).find("nested deeper than 64 levels") != std::string::npos);
}
