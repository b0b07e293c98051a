// Controls: prescribed motions of selected nodes (pins, sinusoids, keyframes).
#pragma once

#include "geometry/mesh.h"
#include "geometry/motion.h"

#include <Eigen/Core>
#include <limits>
#include <vector>

namespace tela {

// A control: nodes driven along a prescribed motion from their rest positions.
struct ControlTrack {
  std::vector<int> nodes;
  PrescribedMotion motion;
  // s: the grasp opens at the first step that starts at or after this time, and the nodes
  // move freely from then on with the velocity they had (never, by default)
  double release = std::numeric_limits<double>::infinity();
};

// Target positions at time t: rows of controlled nodes are rest + displacement; the other
// rows are left untouched.
void control_targets(const std::vector<ControlTrack>& tracks, const Positions& rest, double t,
                     Positions& targets);

// Two controlled nodes whose targets at time t are farther apart than the nodes are at rest
// (by more than `slack`, relative): an inextensible cloth whose rest shape is flat and convex
// between them cannot follow (a fold only shortens chords). The pair stretched most, or
// none (a == -1). Used to explain a diverging run; at most kMaxCheckedNodes controlled nodes
// are compared (all pairs).
struct StretchedControls {
  int a = -1, b = -1;
  double distance = 0, rest = 0;  // metres: between the targets, and at rest
};
constexpr int kMaxCheckedNodes = 2000;
StretchedControls stretched_controls(const std::vector<ControlTrack>& tracks, const Positions& rest, double t,
                                     double slack = 1e-3);

}  // namespace tela
