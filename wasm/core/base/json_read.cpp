#include "base/json_read.h"

#include "base/json_keys.h"
#include "base/json_text.h"

#include <cmath>
#include <cstdint>

namespace tela {

using json = nlohmann::json;

std::string member_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string element_path(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<long long>(v));
  }
  return json_text(json(v));
}

std::string got_type(const json& value) { return std::string(" (got ") + value.type_name() + ")"; }

std::string must_be(const std::string& path, const std::string& what, const json& value) {
  return path + ": must be " + what + " (got " + json_text(value) + ")";
}

const json* find_member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool check_range(double v, const NumberRange& r, const std::string& path, std::string& error) {
  if (v < r.lo || (r.lo_strict && v == r.lo)) {
    error = path + ": must be " + (r.lo_strict ? "> " : ">= ") + format_number(r.lo) +
            " (got " + format_number(v) + ")";
    return false;
  }
  if (v > r.hi || (r.hi_strict && v == r.hi)) {
    error = path + ": must be " + (r.hi_strict ? "< " : "<= ") + format_number(r.hi) +
            " (got " + format_number(v) + ")";
    return false;
  }
  return true;
}

bool require_object(const json& value, const std::string& path, std::string& error) {
  if (value.is_object()) return true;
  error = path + ": must be an object" + got_type(value);
  return false;
}

bool require_array(const json& value, const std::string& path, std::string& error) {
  if (value.is_array()) return true;
  error = path + ": must be an array" + got_type(value);
  return false;
}

bool check_keys(const json& object, const std::string& path, std::initializer_list<const char*> allowed,
                std::string& error) {
  error = unknown_key_error(object, path, allowed);
  return error.empty();
}

bool number_value(const json& value, const std::string& path, const NumberRange& range, double& out,
                  std::string& error) {
  if (!value.is_number()) {
    error = path + ": must be a number" + got_type(value);
    return false;
  }
  const double v = value.get<double>();
  if (!std::isfinite(v)) {
    error = path + ": must be finite (got " + format_number(v) + ")";
    return false;
  }
  if (!check_range(v, range, path, error)) return false;
  out = v;
  return true;
}

bool integer_value(const json& value, const std::string& path, long long lo, long long hi, long long& out,
                   std::string& error) {
  const NumberRange range{static_cast<double>(lo), static_cast<double>(hi), false, false};
  if (value.is_number_unsigned()) {
    const std::uint64_t u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(hi)) {
      error = path + ": must be <= " + std::to_string(hi) + " (got " + std::to_string(u) + ")";
      return false;
    }
    out = static_cast<long long>(u);
  } else if (value.is_number_integer()) {
    out = static_cast<long long>(value.get<std::int64_t>());
  } else if (value.is_number_float()) {
    const double v = value.get<double>();
    if (!std::isfinite(v)) {
      error = path + ": must be finite (got " + format_number(v) + ")";
      return false;
    }
    if (v != std::floor(v)) {
      error = path + ": must be an integer (got " + format_number(v) + ")";
      return false;
    }
    if (!check_range(v, range, path, error)) return false;
    out = static_cast<long long>(v);
  } else {
    error = path + ": must be an integer" + got_type(value);
    return false;
  }
  if (out < lo || out > hi) {
    error = path + ": must be " + (out < lo ? ">= " + std::to_string(lo) : "<= " + std::to_string(hi)) +
            " (got " + std::to_string(out) + ")";
    return false;
  }
  return true;
}

bool int_value(const json& value, const std::string& path, int lo, int hi, int& out, std::string& error) {
  long long v = 0;
  if (!integer_value(value, path, lo, hi, v, error)) return false;
  out = static_cast<int>(v);
  return true;
}

bool string_value(const json& value, const std::string& path, std::string& out, std::string& error) {
  if (!value.is_string()) {
    error = path + ": must be a string" + got_type(value);
    return false;
  }
  out = value.get<std::string>();
  return true;
}

bool enum_value(const json& value, const std::string& path, std::initializer_list<const char*> options,
                std::string& out, std::string& error) {
  std::string s;
  if (!string_value(value, path, s, error)) return false;
  for (const char* option : options) {
    if (s == option) {
      out = s;
      return true;
    }
  }
  error = path + ": must be one of " + list_names(options) + " (got \"" + s + "\")";
  return false;
}

bool vec3_value(const json& value, const std::string& path, Eigen::Vector3d& out, std::string& error) {
  if (!value.is_array() || value.size() != 3) {
    error = path + ": must be an array of 3 numbers" +
            (value.is_array() ? " (got " + std::to_string(value.size()) + " elements)" : got_type(value));
    return false;
  }
  Eigen::Vector3d v;
  for (std::size_t i = 0; i < 3; ++i) {
    if (!number_value(value[i], element_path(path, i), kAnyNumber, v[static_cast<Eigen::Index>(i)], error)) {
      return false;
    }
  }
  out = v;
  return true;
}

bool strings_value(const json& value, const std::string& path, std::vector<std::string>& out, std::string& error) {
  if (!require_array(value, path, error)) return false;
  std::vector<std::string> strings;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string s;
    if (!string_value(value[i], element_path(path, i), s, error)) return false;
    strings.push_back(std::move(s));
  }
  out = std::move(strings);
  return true;
}

bool read_number(const json& object, const char* key, const std::string& path, const NumberRange& range,
                 double& out, std::string& error) {
  const json* j = find_member(object, key);
  return j == nullptr || number_value(*j, member_path(path, key), range, out, error);
}

bool read_int(const json& object, const char* key, const std::string& path, int lo, int hi, int& out,
              std::string& error) {
  const json* j = find_member(object, key);
  return j == nullptr || int_value(*j, member_path(path, key), lo, hi, out, error);
}

bool read_string(const json& object, const char* key, const std::string& path, std::string& out,
                 std::string& error) {
  const json* j = find_member(object, key);
  return j == nullptr || string_value(*j, member_path(path, key), out, error);
}

bool read_enum(const json& object, const char* key, const std::string& path,
               std::initializer_list<const char*> options, std::string& out, std::string& error) {
  const json* j = find_member(object, key);
  return j == nullptr || enum_value(*j, member_path(path, key), options, out, error);
}

bool read_vec3(const json& object, const char* key, const std::string& path, Eigen::Vector3d& out,
               std::string& error) {
  const json* j = find_member(object, key);
  return j == nullptr || vec3_value(*j, member_path(path, key), out, error);
}

namespace {

// `read` on the member `key` when present; its failure becomes must_be(PATH.KEY, what, value)
template <class Read>
bool read_as(const json& object, const char* key, const std::string& path, const std::string& what,
             std::string& error, Read read) {
  const json* j = find_member(object, key);
  if (j == nullptr) return true;
  const std::string at = member_path(path, key);
  std::string detail;
  if (read(*j, at, detail)) return true;
  error = must_be(at, what, *j);
  return false;
}

}  // namespace

bool read_number_as(const json& object, const char* key, const std::string& path, const NumberRange& range,
                    const std::string& what, double& out, std::string& error) {
  return read_as(object, key, path, what, error, [&](const json& j, const std::string& at, std::string& e) {
    return number_value(j, at, range, out, e);
  });
}

bool read_int_as(const json& object, const char* key, const std::string& path, int lo, int hi,
                 const std::string& what, int& out, std::string& error) {
  return read_as(object, key, path, what, error, [&](const json& j, const std::string& at, std::string& e) {
    return int_value(j, at, lo, hi, out, e);
  });
}

bool read_string_as(const json& object, const char* key, const std::string& path, const std::string& what,
                    std::string& out, std::string& error) {
  return read_as(object, key, path, what, error, [&](const json& j, const std::string& at, std::string& e) {
    return string_value(j, at, out, e);
  });
}

bool read_strings_as(const json& object, const char* key, const std::string& path, const std::string& what,
                     std::vector<std::string>& out, std::string& error) {
  return read_as(object, key, path, what, error, [&](const json& j, const std::string& at, std::string& e) {
    return strings_value(j, at, out, e);
  });
}

}  // namespace tela
