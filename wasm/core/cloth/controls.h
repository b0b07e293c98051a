// Controls: prescribed motions of selected nodes (pins, sinusoids, keyframes).
#pragma once

#include "geometry/mesh.h"
#include "base/result.h"
#include "scenario/scenario.h"

#include <Eigen/Core>
#include <limits>
#include <string>
#include <vector>

namespace tela {

// Displacement from the rest position at time t (s), metres.
//  hold: 0.  sinusoid: axis/|axis| * A (sin(2 pi f (tau) + phase) - sin(phase)) with
//  tau = clamp(t, start, stop) - start.  keyframes: piecewise linear in time, held after the
//  last key; before the first key it ramps linearly from 0 at t = 0 (or holds it when the
//  first key is at t <= 0).
Eigen::Vector3d motion_displacement(const Motion& motion, double t);

// Node indices of a selector on `mesh`: explicit indices, a node-set name ("top_corners"),
// or "set:i,j" (elements i, j of a node set). `field` names the selector in messages.
Result<std::vector<int>> resolve_selector(const Mesh& mesh, const NodeSelector& selector,
                                          const std::string& field);

// A control with its nodes resolved.
struct ControlTrack {
  std::vector<int> nodes;
  Motion motion;
  double release = std::numeric_limits<double>::infinity();  // s, Control::release
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
