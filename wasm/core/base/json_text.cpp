#include "base/json_text.h"

#include <cstddef>

namespace tela {
namespace {

void write_pretty(const nlohmann::ordered_json& j, int indent, int depth, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent) * static_cast<std::size_t>(depth + 1), ' ');
  const std::string close_pad(static_cast<std::size_t>(indent) * static_cast<std::size_t>(depth), ' ');
  if (j.is_object() && !j.empty()) {
    out += "{\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!first) out += ",\n";
      first = false;
      out += pad + json_text(nlohmann::ordered_json(it.key())) + ": ";
      write_pretty(it.value(), indent, depth + 1, out);
    }
    out += "\n" + close_pad + "}";
    return;
  }
  if (j.is_array() && !j.empty()) {
    bool scalars = true;
    for (const nlohmann::ordered_json& element : j) scalars = scalars && !element.is_structured();
    if (scalars) {
      out += "[";
      for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + json_text(j[i]);
      out += "]";
      return;
    }
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (i) out += ",\n";
      out += pad;
      write_pretty(j[i], indent, depth + 1, out);
    }
    out += "\n" + close_pad + "]";
    return;
  }
  out += json_text(j);
}

}  // namespace

std::string json_pretty_text(const nlohmann::ordered_json& j, int indent) {
  std::string out;
  write_pretty(j, indent, 0, out);
  return out;
}

}  // namespace tela
