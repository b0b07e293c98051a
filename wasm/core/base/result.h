// A value or a message a person can act on. The core never throws across its API.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace tela {

template <class T>
struct Result {
  std::optional<T> value;
  std::string error;  // empty when value is set

  static Result success(T v) { return Result{std::move(v), {}}; }
  static Result failure(std::string message) { return Result{std::nullopt, std::move(message)}; }
  bool ok() const { return value.has_value(); }
};

}  // namespace tela
