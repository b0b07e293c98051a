// The typed readers of JSON values (base/json_read.h): every failure names the field and what
// was there, and nothing makes nlohmann-json throw.
#include "base/json_read.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using nlohmann::json;

TEST_CASE("json_read: paths and numbers in messages") {
  CHECK(tela::member_path("", "mesh") == "mesh");
  CHECK(tela::member_path("mesh", "nx") == "mesh.nx");
  CHECK(tela::element_path("faces", 3) == "faces[3]");
  CHECK(tela::format_number(2) == "2");
  CHECK(tela::format_number(-0.01) == "-0.01");
  CHECK(tela::format_number(0.1 + 0.2) == "0.30000000000000004");
}

TEST_CASE("json_read: numbers, their ranges and types") {
  const json j = json::parse(R"({"dt": -0.01, "rho": 0, "name": "x", "n": 7.5, "big": 18446744073709551615,
                                 "v": [1, 2, null], "ok": 0.25})");
  std::string error;
  double x = 1;
  CHECK_FALSE(tela::read_number(j, "dt", "solver", tela::kPositive, x, error));
  CHECK(error == "solver.dt: must be > 0 (got -0.01)");
  CHECK_FALSE(tela::read_number(j, "rho", "material", tela::kPositive, x, error));
  CHECK(error == "material.rho: must be > 0 (got 0)");
  CHECK_FALSE(tela::read_number(j, "name", "", tela::kAnyNumber, x, error));
  CHECK(error == "name: must be a number (got string)");
  CHECK(tela::read_number(j, "ok", "", tela::NumberRange{0, 0.5, true, false}, x, error));
  CHECK(x == 0.25);
  CHECK(tela::read_number(j, "absent", "", tela::kPositive, x, error));
  CHECK(x == 0.25);  // an absent key leaves the default

  int n = 0;
  CHECK_FALSE(tela::read_int(j, "n", "mesh", 2, 1000, n, error));
  CHECK(error == "mesh.n: must be an integer (got 7.5)");
  CHECK_FALSE(tela::read_int(j, "big", "", 0, 10, n, error));
  CHECK(error == "big: must be <= 10 (got 18446744073709551615)");

  Eigen::Vector3d v;
  CHECK_FALSE(tela::read_vec3(j, "v", "mesh", v, error));
  CHECK(error == "mesh.v[2]: must be a number (got null)");
  std::string s;
  CHECK_FALSE(tela::read_enum(j, "name", "", {"a", "b"}, s, error));
  CHECK(error == "name: must be one of a, b (got \"x\")");
  CHECK_FALSE(tela::check_keys(j, "options", {"dt", "rho"}, error));
  CHECK(error.rfind("options.big: unknown key (expected one of: dt, rho)", 0) == 0);
}

TEST_CASE("json_read: values a person typed are refused in words, quoting what was there") {
  const json j = json::parse(R"({"width": 0, "cols": 2.5, "rho": "abc", "exclude": "A", "held": ["a", 3],
                                 "order": ["a", "b"], "up": 1})");
  std::string error;
  double width = 1;
  CHECK_FALSE(tela::read_number_as(j, "width", "", tela::kPositive, "a length > 0 in metres", width, error));
  CHECK(error == "width: must be a length > 0 in metres (got 0)");
  CHECK(width == 1);
  int cols = 4;
  CHECK_FALSE(tela::read_int_as(j, "cols", "", 2, 100, "a whole number >= 2", cols, error));
  CHECK(error == "cols: must be a whole number >= 2 (got 2.5)");
  double rho = 0;
  CHECK_FALSE(tela::read_number_as(j, "rho", "", tela::kAnyNumber, "a number", rho, error));
  CHECK(error == "rho: must be a number (got \"abc\")");
  std::vector<std::string> names;
  CHECK_FALSE(tela::read_strings_as(j, "exclude", "", "a list of marker names", names, error));
  CHECK(error == "exclude: must be a list of marker names (got \"A\")");
  CHECK_FALSE(tela::read_strings_as(j, "held", "", "a list of marker names", names, error));
  CHECK(error == "held: must be a list of marker names (got [\"a\",3])");
  CHECK(tela::read_strings_as(j, "order", "", "a list of marker names", names, error));
  CHECK(names == std::vector<std::string>{"a", "b"});
  std::string up;
  CHECK_FALSE(tela::read_string_as(j, "up", "", "text", up, error));
  CHECK(error == "up: must be text (got 1)");
}
