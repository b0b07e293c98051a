// The controls section: which nodes are driven (a node set or indices), how, and when released.
#include "scenario/parse_sections.h"

#include "base/json_read.h"

#include <climits>
#include <cstddef>
#include <utility>

namespace tela {
namespace {

using json = nlohmann::json;

// "set" or "set:i,j,k" (elements i, j, k of the node set, by position)
bool check_set_name(const std::string& name, const std::string& path, std::string& error) {
  if (name.empty()) {
    error = path + ": node-set name must not be empty";
    return false;
  }
  const std::size_t colon = name.find(':');
  if (colon == std::string::npos) return true;
  const std::string set = name.substr(0, colon);
  const std::string list = name.substr(colon + 1);
  bool ok = !set.empty() && !list.empty();
  std::size_t digits = 0;
  for (char c : list) {
    if (c >= '0' && c <= '9') {
      ok = ok && ++digits <= 9;  // keeps every element within int
    } else if (c == ',') {
      ok = ok && digits > 0;
      digits = 0;
    } else {
      ok = false;
    }
  }
  ok = ok && digits > 0;
  if (!ok) {
    error = path + ": a node-set element list is written \"set:i,j,k\" with non-negative "
                   "integers, as in \"corners:0,1,3\" (got \"" + name + "\")";
  }
  return ok;
}

bool parse_selector(const json& j, const std::string& path, int known_node_count,
                    NodeSelector& out, std::string& error) {
  if (j.is_string()) {
    out.name = j.get<std::string>();
    out.indices.clear();
    return check_set_name(out.name, path, error);
  }
  if (!j.is_array()) {
    error = path + ": must be a node-set name or an array of node indices" + got_type(j);
    return false;
  }
  if (j.empty()) {
    error = path + ": must select at least one node";
    return false;
  }
  out.name.clear();
  out.indices.clear();
  for (std::size_t i = 0; i < j.size(); ++i) {
    int node = 0;
    if (!int_value(j[i], element_path(path, i), 0, INT_MAX, node, error)) return false;
    if (known_node_count >= 0 && node >= known_node_count) {
      error = element_path(path, i) + ": node index " + std::to_string(node) + " out of range (" +
              std::to_string(known_node_count) + " nodes)";
      return false;
    }
    out.indices.push_back(node);
  }
  return true;
}

}  // namespace

bool parse_controls(const json& j, int node_count, std::vector<Control>& out, std::string& error) {
  if (!require_array(j, "controls", error)) return false;
  std::vector<Control> controls;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string p = element_path("controls", i);
    const json& c = j[i];
    if (!require_object(c, p, error) || !check_keys(c, p, {"nodes", "motion", "release"}, error)) {
      return false;
    }
    Control control;
    const json* nodes = find_member(c, "nodes");
    if (nodes == nullptr) {
      error = member_path(p, "nodes") + ": required (a node-set name or an array of node indices)";
      return false;
    }
    if (!parse_selector(*nodes, member_path(p, "nodes"), node_count, control.nodes, error)) return false;
    const json* motion = find_member(c, "motion");
    if (motion != nullptr && !parse_motion(*motion, member_path(p, "motion"), control.motion, error)) {
      return false;
    }
    if (!read_number(c, "release", p, kPositive, control.release, error)) return false;
    controls.push_back(std::move(control));
  }
  out = std::move(controls);
  return true;
}

}  // namespace tela
