#include "cloth/controls.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace tela {

Eigen::Vector3d motion_displacement(const Motion& motion, double t) {
  if (motion.type == "sinusoid") {
    const double tau = std::clamp(t, motion.start, motion.stop) - motion.start;
    const double two_pi = 2.0 * 3.14159265358979323846;
    const double s = std::sin(two_pi * motion.frequency * tau + motion.phase) - std::sin(motion.phase);
    return motion.axis / motion.axis.stableNorm() * (motion.amplitude * s);
  }
  if (motion.type == "keyframes" && !motion.keyframes.empty()) {
    const auto& keys = motion.keyframes;
    if (t >= keys.back().time) return keys.back().offset;
    if (t <= keys.front().time) {
      if (keys.front().time <= 0) return keys.front().offset;
      return keys.front().offset * (std::max(t, 0.0) / keys.front().time);
    }
    const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                       [](double time, const Keyframe& k) { return time < k.time; });
    const auto prev = next - 1;
    const double w = (t - prev->time) / (next->time - prev->time);
    return (1 - w) * prev->offset + w * next->offset;
  }
  return Eigen::Vector3d::Zero();
}

Result<std::vector<int>> resolve_selector(const Mesh& mesh, const NodeSelector& selector,
                                          const std::string& field) {
  using R = Result<std::vector<int>>;
  const int n = mesh.node_count();
  if (selector.name.empty()) {
    if (selector.indices.empty()) return R::failure(field + ": selects no node");
    for (std::size_t i = 0; i < selector.indices.size(); ++i) {
      const int k = selector.indices[i];
      if (k < 0 || k >= n)
        return R::failure(field + "[" + std::to_string(i) + "]: node index " + std::to_string(k) +
                          " out of range (the mesh has " + std::to_string(n) + " nodes)");
    }
    return R::success(selector.indices);
  }
  // "set" or "set:i,j,k"
  const std::size_t colon = selector.name.find(':');
  const std::string set_name = selector.name.substr(0, colon);
  const auto it = mesh.node_sets.find(set_name);
  if (it == mesh.node_sets.end()) {
    std::string known;
    for (const auto& entry : mesh.node_sets) known += (known.empty() ? "" : ", ") + entry.first;
    return R::failure(field + ": this mesh has no node set '" + set_name + "' (it has: " + known + ")");
  }
  if (colon == std::string::npos) return R::success(it->second);
  std::vector<int> out;
  std::stringstream items(selector.name.substr(colon + 1));
  std::string item;
  while (std::getline(items, item, ',')) {
    char* end = nullptr;
    const long i = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || i < 0 || i >= static_cast<long>(it->second.size()))
      return R::failure(field + ": '" + item + "' is not an element of node set '" + set_name +
                        "' (it has " + std::to_string(it->second.size()) + " nodes)");
    out.push_back(it->second[i]);
  }
  return R::success(out);
}

void control_targets(const std::vector<ControlTrack>& tracks, const Positions& rest, double t,
                     Positions& targets) {
  for (const ControlTrack& track : tracks) {
    const Eigen::Vector3d d = motion_displacement(track.motion, t);
    for (int k : track.nodes) targets.row(k) = rest.row(k) + d.transpose();
  }
}

StretchedControls stretched_controls(const std::vector<ControlTrack>& tracks, const Positions& rest, double t,
                                     double slack) {
  std::vector<int> nodes;
  for (const ControlTrack& track : tracks) nodes.insert(nodes.end(), track.nodes.begin(), track.nodes.end());
  StretchedControls worst;
  if (static_cast<int>(nodes.size()) > kMaxCheckedNodes) return worst;
  Positions at = rest;
  control_targets(tracks, rest, t, at);
  double worst_ratio = 1 + slack;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (std::size_t j = i + 1; j < nodes.size(); ++j) {
      const double r = (rest.row(nodes[i]) - rest.row(nodes[j])).norm();
      const double d = (at.row(nodes[i]) - at.row(nodes[j])).norm();
      if (r > 0 && d > worst_ratio * r) {
        worst_ratio = d / r;
        worst = {nodes[i], nodes[j], d, r};
      }
    }
  return worst;
}

}  // namespace tela
