#include "cloth/controls.h"

namespace tela {

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
