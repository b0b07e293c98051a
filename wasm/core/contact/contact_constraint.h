// One contact as a linear inequality on node positions, valid for one time step (the normal
// and the barycentric weights are frozen during the step, thesis §3.3.2):
//
//   gap(x) = normal . (sum_i weights[i] x[nodes[i]]) - offset  >= 0        (metres)
//
//   node-obstacle: nodes {k}, weights {1}; normal = outward obstacle normal at the contact,
//                  offset = normal . (surface point) + thickness
//   node-face:     nodes {k, a, b, c}, weights {1, -u, -v, -w}; offset = thickness
//   edge-edge:     nodes {a, b, c, d}, weights {1-alpha, alpha, -(1-beta), -beta}
//   point obstacle (a needle cusp or a stick point q against a cloth face or edge): the
//                  cloth nodes with their (signed) weights; offset = normal . q + thickness
// Unused slots have node -1 (and weight 0). Nodes that a control prescribes may appear:
// they do not move during the step and only shift the inequality.
//
// The multiplier of a contact is the normal impulse it transmits (>= 0), which bounds the
// Coulomb friction: |friction| <= mu * normal. The friction acts against the relative
// tangential velocity  sum_i weights[i] v[nodes[i]] - surface_velocity  and is distributed
// to the nodes with the same weights (equal and opposite on the two sides of a self-contact).
#pragma once

#include <Eigen/Core>
#include <array>

namespace tela {

struct ContactConstraint {
  std::array<int, 4> nodes{-1, -1, -1, -1};
  std::array<double, 4> weights{0, 0, 0, 0};
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();          // unit
  double offset = 0;                                           // metres
  double mu = 0;                                               // Coulomb friction coefficient, >= 0
  Eigen::Vector3d surface_velocity = Eigen::Vector3d::Zero();  // obstacle velocity at the contact, m/s
  // Identity of the contact across the iterations of a step and across steps (warm start,
  // accumulated friction): two constraints with the same nodes and the same source are the
  // same contact, and the later one replaces the earlier. Use it to tell apart contacts of
  // the same nodes with different things (e.g. the obstacle index); 0 is fine otherwise.
  // Negative sources are rows of the cloth itself, not contacts (the strain limit,
  // cloth/strain_limit.h): solved the same way, but not counted or shown as contacts.
  int source = 0;
};

// gap(x) of the constraint at `positions` (#nodes by 3, metres); >= 0 when satisfied.
template <class PositionsType>
double contact_gap(const ContactConstraint& c, const PositionsType& positions) {
  Eigen::Vector3d point = Eigen::Vector3d::Zero();
  for (int s = 0; s < 4; ++s)
    if (c.nodes[s] >= 0) point += c.weights[s] * positions.row(c.nodes[s]).transpose();
  return c.normal.dot(point) - c.offset;
}

}  // namespace tela
