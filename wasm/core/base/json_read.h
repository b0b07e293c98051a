// Typed readers of JSON values that name the field: each returns false and sets `error` to
// "PATH: must be ... (got ...)" on a value of the wrong type or outside its range, and never
// makes nlohmann-json throw (the core is built with JSON_NOEXCEPTION, where a throw aborts):
// every value's type is checked before it is read and keys are looked up with find().
// PATH is the field's place in the document: "solver.dt", "mesh.vertices[3][1]".
#pragma once

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace tela {

// "path.key" ("key" for an empty path) and "path[index]"
std::string member_path(const std::string& path, const std::string& key);
std::string element_path(const std::string& path, std::size_t index);

// Shortest text that reads back as the same double; integral values without ".0"; NaN and
// infinities as "NaN", "Infinity", "-Infinity".
std::string format_number(double v);

// " (got TYPE)", TYPE the JSON type name of `value`
std::string got_type(const nlohmann::json& value);

// "PATH: must be WHAT (got VALUE)", VALUE the JSON text of `value`: for values a person types
// into a form, where WHAT says in words what is wanted ("a length > 0 in metres")
std::string must_be(const std::string& path, const std::string& what, const nlohmann::json& value);

// The member `key` of an object, or null when absent.
const nlohmann::json* find_member(const nlohmann::json& object, const char* key);

// Bounds of a number; a strict bound excludes itself.
struct NumberRange {
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  bool lo_strict = false, hi_strict = false;
};
constexpr NumberRange kAnyNumber{};
constexpr NumberRange kPositive{0.0, std::numeric_limits<double>::infinity(), true, false};
constexpr NumberRange kNonNegative{0.0, std::numeric_limits<double>::infinity(), false, false};

// "PATH: must be > 0 (got -1)" when v is outside `range`
bool check_range(double v, const NumberRange& range, const std::string& path, std::string& error);

bool require_object(const nlohmann::json& value, const std::string& path, std::string& error);
bool require_array(const nlohmann::json& value, const std::string& path, std::string& error);
// every key of `object` in `allowed`; else "PATH.KEY: unknown key (expected one of: ...)"
bool check_keys(const nlohmann::json& object, const std::string& path, std::initializer_list<const char*> allowed,
                std::string& error);

// values: a finite number in `range`; an integer (a JSON integer or a number with an integral
// value such as 2.0) in [lo, hi]; a string; one of `options`; an array of 3 finite numbers
bool number_value(const nlohmann::json& value, const std::string& path, const NumberRange& range, double& out,
                  std::string& error);
bool integer_value(const nlohmann::json& value, const std::string& path, long long lo, long long hi, long long& out,
                   std::string& error);
bool int_value(const nlohmann::json& value, const std::string& path, int lo, int hi, int& out, std::string& error);
bool string_value(const nlohmann::json& value, const std::string& path, std::string& out, std::string& error);
bool enum_value(const nlohmann::json& value, const std::string& path, std::initializer_list<const char*> options,
                std::string& out, std::string& error);
bool vec3_value(const nlohmann::json& value, const std::string& path, Eigen::Vector3d& out, std::string& error);
// an array of strings
bool strings_value(const nlohmann::json& value, const std::string& path, std::vector<std::string>& out,
                   std::string& error);

// optional members: an absent key leaves `out` at its default (PATH of the member: path.key)
bool read_number(const nlohmann::json& object, const char* key, const std::string& path, const NumberRange& range,
                 double& out, std::string& error);
bool read_int(const nlohmann::json& object, const char* key, const std::string& path, int lo, int hi, int& out,
              std::string& error);
bool read_string(const nlohmann::json& object, const char* key, const std::string& path, std::string& out,
                 std::string& error);
bool read_enum(const nlohmann::json& object, const char* key, const std::string& path,
               std::initializer_list<const char*> options, std::string& out, std::string& error);
bool read_vec3(const nlohmann::json& object, const char* key, const std::string& path, Eigen::Vector3d& out,
               std::string& error);

// Optional members a person typed into a form: read as above, but any failure reads
// must_be(PATH, what, value), "PATH: must be WHAT (got VALUE)", WHAT the words for what is
// wanted ("a length > 0 in metres", "a whole number >= 2", "a list of marker names").
bool read_number_as(const nlohmann::json& object, const char* key, const std::string& path, const NumberRange& range,
                    const std::string& what, double& out, std::string& error);
bool read_int_as(const nlohmann::json& object, const char* key, const std::string& path, int lo, int hi,
                 const std::string& what, int& out, std::string& error);
bool read_string_as(const nlohmann::json& object, const char* key, const std::string& path, const std::string& what,
                    std::string& out, std::string& error);
bool read_strings_as(const nlohmann::json& object, const char* key, const std::string& path, const std::string& what,
                     std::vector<std::string>& out, std::string& error);

}  // namespace tela
