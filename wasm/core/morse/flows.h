// The height function and its discrete gradient flows (thesis §5.3): Down(v) is the neighbour
// with the most negative slope (f(w) - f(v)) / |w - v|, or v itself at a local minimum; Up(v)
// the one with the largest positive slope, or v at a local maximum. Ties in height are broken
// by point index, so every comparison is a strict order.
#pragma once

#include "geometry/mesh.h"
#include "morse/neighbours.h"

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace tela::morse {

// A unit direction drawn uniformly on the sphere from the portable generator seeded by `seed`.
Eigen::Vector3d random_direction(std::uint64_t seed);

// f(v) = p_v . direction. #points.
std::vector<double> heights(const Positions& points, const Eigen::Vector3d& direction);

// (f(a), a) < (f(b), b)
inline bool lower(const std::vector<double>& f, int a, int b) {
  return f[a] < f[b] || (f[a] == f[b] && a < b);
}

// Whether a point up to `rings` edges from v is higher than v (above), else lower than v.
bool passed_within(const NeighbourGraph& graph, const std::vector<double>& f, int v, int rings, bool above);

struct Flows {
  std::vector<int> down;  // #points: Down(v), v at local minima
  std::vector<int> up;    // #points: Up(v), v at local maxima
};

// Flows over all neighbours; with `only` non-empty, over the neighbours w with only[w] != 0
// (the restricted boundary flows dDown, dUp on boundary points).
Flows gradient_flows(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                     const std::vector<char>& only = {});

// The orbit start, flow(start), ... up to and including the fixed point.
std::vector<int> orbit(const std::vector<int>& flow, int start);

}  // namespace tela::morse
