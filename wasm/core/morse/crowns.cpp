#include "morse/crowns.h"

#include <algorithm>
#include <cmath>
#include <deque>

namespace tela::morse {
namespace {

struct Element {
  int point;
  bool matched;
};

// The 1-cell point v reaches: itself, or its 1-cell neighbour of most negative slope; -1 if none.
int reach(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
          const std::vector<char>& on_one_cell, int v) {
  if (on_one_cell[v]) return v;
  int best = -1;
  double best_slope = 0;
  for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
    if (!on_one_cell[*w]) continue;
    const double distance = (points.row(*w) - points.row(v)).norm();
    const double slope = distance > 0 ? (f[*w] - f[v]) / distance : 0;
    if (best < 0 || slope < best_slope) {
      best = *w;
      best_slope = slope;
    }
  }
  return best;
}

// Shortest path (fewest edges) from a to b through points with f <= ceiling, without its ends;
// empty when none is found among the first `budget` points visited.
std::vector<int> shortest_path(const NeighbourGraph& graph, const std::vector<double>& f, int a, int b,
                               double ceiling, std::vector<int>& stamp, int mark, int budget) {
  std::vector<int> parent_of;  // parallel to `order`
  std::vector<int> order{a};
  parent_of.push_back(-1);
  stamp[a] = mark;
  for (std::size_t head = 0; head < order.size() && static_cast<int>(order.size()) < budget; ++head) {
    const int v = order[head];
    for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
      if (stamp[*w] == mark || f[*w] > ceiling) continue;
      stamp[*w] = mark;
      order.push_back(*w);
      parent_of.push_back(static_cast<int>(head));
      if (*w == b) {
        std::vector<int> path;
        for (int i = parent_of.back(); i > 0; i = parent_of[i]) path.push_back(order[i]);
        std::reverse(path.begin(), path.end());
        return path;
      }
    }
  }
  return {};
}

// Merges repeated neighbours and removes spikes x y x, cyclically.
void tidy(std::vector<Element>& crown) {
  bool changed = true;
  while (changed && crown.size() > 1) {
    changed = false;
    std::vector<Element> next;
    for (const Element& e : crown) {
      if (!next.empty() && next.back().point == e.point) {
        next.back().matched = next.back().matched || e.matched;
        changed = true;
        continue;
      }
      if (next.size() >= 2 && next[next.size() - 2].point == e.point && !next.back().matched) {  // x y x -> x
        next.pop_back();
        changed = true;
        continue;
      }
      next.push_back(e);
    }
    while (next.size() > 1 && next.front().point == next.back().point) {
      next.front().matched = next.front().matched || next.back().matched;
      next.pop_back();
      changed = true;
    }
    if (next.size() >= 3 && next[next.size() - 2].point == next.front().point && !next.back().matched) {  // spike across the seam
      next.pop_back();
      changed = true;
    } else if (next.size() >= 3 && next.back().point == next[1].point && !next.front().matched) {
      next.erase(next.begin());
      changed = true;
    }
    crown.swap(next);
  }
}

bool same(const std::vector<Element>& a, const std::vector<Element>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].point != b[i].point || a[i].matched != b[i].matched) return false;
  return true;
}

}  // namespace

CrownFlow flow_crown(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                     const Flows& flows, const TangentPlane& plane, int maximum,
                     const std::vector<char>& on_one_cell, const std::vector<int>& toward_cell) {
  CrownFlow result;
  const int n = graph.size();
  // the crown: the neighbours of the maximum by angle about its normal
  std::vector<std::pair<double, int>> ring;
  for (const int* w = graph.begin(maximum); w != graph.end(maximum); ++w) {
    const Eigen::Vector3d d = (points.row(*w) - points.row(maximum)).transpose();
    ring.emplace_back(std::atan2(d.dot(plane.t2), d.dot(plane.t1)), *w);
  }
  std::sort(ring.begin(), ring.end());
  std::vector<Element> crown;
  for (const auto& [angle, w] : ring) crown.push_back({w, false});

  const int max_length = std::max(64, 4 * n);
  std::vector<Element> previous[2];  // the crown one and two steps ago
  bool approach = false;
  std::vector<int> stamp(n, 0);
  int mark = 0;
  for (int step = 0; step < n; ++step) {
    bool changed = false;
    for (Element& e : crown) {
      if (e.matched) continue;
      const int r = reach(points, graph, f, on_one_cell, e.point);
      const int next = approach ? toward_cell[e.point] : flows.down[e.point];
      if (r >= 0) {
        e.point = r;
        e.matched = true;
        changed = true;
      } else if (next >= 0 && next != e.point) {
        e.point = next;
        changed = true;
      }
    }
    tidy(crown);
    // splitting: join images that are no longer neighbours
    std::vector<Element> next;
    const std::size_t size = crown.size();
    for (std::size_t i = 0; i < size; ++i) {
      next.push_back(crown[i]);
      if (size < 2) break;
      const Element& a = crown[i];
      const Element& b = crown[(i + 1) % size];
      if ((a.matched && b.matched) || a.point == b.point || graph.adjacent(a.point, b.point)) continue;
      ++mark;  // each search has its own mark
      const std::vector<int> path =
          shortest_path(graph, f, a.point, b.point, std::max(f[a.point], f[b.point]), stamp, mark, 4096);
      for (int v : path) next.push_back({v, false});
      if (!path.empty()) changed = true;
    }
    crown.swap(next);
    tidy(crown);
    result.steps = step + 1;
    if (static_cast<int>(crown.size()) > max_length) {
      result.truncated = true;
      break;
    }
    if (!changed || same(crown, previous[0]) || same(crown, previous[1])) {  // stationary, or repairs undoing each other
      if (approach) break;
      approach = true;  // the rest walks to the closest 1-cell point
    }
    previous[1].swap(previous[0]);
    previous[0] = crown;
    if (step + 1 == n) result.truncated = true;
  }
  if (crown.size() == 1 && !crown[0].matched) result.final_point = crown[0].point;
  for (const Element& e : crown) {
    int v = e.point;
    for (int guard = 0; guard < n && v >= 0 && !on_one_cell[v]; ++guard) v = toward_cell[v];
    result.matched.push_back(v >= 0 && on_one_cell[v] ? v : -1);
  }
  return result;
}

}  // namespace tela::morse
