// Controls: prescribed motions of selected nodes (pins, sinusoids, keyframes).
#pragma once

#include "geometry/mesh.h"
#include "scenario/result.h"
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

}  // namespace tela
