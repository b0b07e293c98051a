#include "morse/flows.h"

#include "base/portable_random.h"

#include <algorithm>
#include <random>

namespace tela::morse {

Eigen::Vector3d random_direction(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (;;) {
    // one draw per statement: the evaluation order of function arguments is unspecified (GCC
    // and clang differ), and native and wasm must draw the same direction
    const double x = standard_normal(rng);
    const double y = standard_normal(rng);
    const double z = standard_normal(rng);
    const Eigen::Vector3d d(x, y, z);
    const double length = d.norm();
    if (length > 1e-6) return d / length;
  }
}

std::vector<double> heights(const Positions& points, const Eigen::Vector3d& direction) {
  std::vector<double> f(points.rows());
  for (Eigen::Index v = 0; v < points.rows(); ++v)
    f[v] = points(v, 0) * direction(0) + points(v, 1) * direction(1) + points(v, 2) * direction(2);
  return f;
}

bool passed_within(const NeighbourGraph& graph, const std::vector<double>& f, int v, int rings, bool above) {
  std::vector<int> ball{v}, depth{0};
  for (std::size_t head = 0; head < ball.size(); ++head) {
    if (depth[head] == rings) continue;
    for (const int* w = graph.begin(ball[head]); w != graph.end(ball[head]); ++w) {
      if (std::find(ball.begin(), ball.end(), *w) != ball.end()) continue;
      if (above ? lower(f, v, *w) : lower(f, *w, v)) return true;
      ball.push_back(*w);
      depth.push_back(depth[head] + 1);
    }
  }
  return false;
}

Flows gradient_flows(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                     const std::vector<char>& only) {
  const int n = graph.size();
  Flows flows;
  flows.down.resize(n);
  flows.up.resize(n);
  for (int v = 0; v < n; ++v) {
    int down = v, up = v;
    double down_slope = 0, up_slope = 0;
    for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
      if (!only.empty() && !only[*w]) continue;
      const double distance = (points.row(*w) - points.row(v)).norm();
      if (distance == 0) continue;
      const double slope = (f[*w] - f[v]) / distance;
      if (lower(f, *w, v) && (down == v || slope < down_slope || (slope == down_slope && *w < down))) {
        down = *w;
        down_slope = slope;
      }
      if (lower(f, v, *w) && (up == v || slope > up_slope || (slope == up_slope && *w < up))) {
        up = *w;
        up_slope = slope;
      }
    }
    flows.down[v] = down;
    flows.up[v] = up;
  }
  return flows;
}

std::vector<int> orbit(const std::vector<int>& flow, int start) {
  std::vector<int> path{start};
  while (flow[path.back()] != path.back()) path.push_back(flow[path.back()]);
  return path;
}

}  // namespace tela::morse
