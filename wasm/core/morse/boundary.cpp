#include "morse/boundary.h"

#include "base/portable_math.h"

#include <algorithm>
#include <cmath>

namespace tela::morse {
namespace {

// monotone stand-in for the polar angle of (x, y) in [0, 4): exact arithmetic, no trig
double pseudo_angle(double x, double y) {
  const double r = std::abs(x) + std::abs(y);
  if (r == 0) return 0;
  const double p = x / r;  // in [-1, 1]
  return y >= 0 ? 1 - p : 3 + p;
}

// true when the offsets, projected on (t1, t2), leave an angular gap (seen from v) wider than
// the angle whose cosine is cos_gap (a gap of pi or more always counts)
bool has_gap(const std::vector<Eigen::Vector3d>& offsets, const Eigen::Vector3d& t1,
             const Eigen::Vector3d& t2, double cos_gap,
             std::vector<std::pair<double, Eigen::Vector2d>>& work) {
  work.clear();
  for (const Eigen::Vector3d& d : offsets) {
    const Eigen::Vector2d q(d.dot(t1), d.dot(t2));
    if (q.squaredNorm() == 0) continue;
    work.emplace_back(pseudo_angle(q.x(), q.y()), q);
  }
  if (work.size() < 3) return true;
  std::stable_sort(work.begin(), work.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < work.size(); ++i) {
    const Eigen::Vector2d& a = work[i].second;
    const Eigen::Vector2d& b = work[(i + 1) % work.size()].second;
    const double cross = a.x() * b.y() - a.y() * b.x();
    const double dot = a.dot(b);
    if (cross < 0 || (cross == 0 && dot <= 0)) return true;  // counter-clockwise angle >= pi
    if (dot < cos_gap * a.norm() * b.norm()) return true;    // wider than the threshold
  }
  return false;
}

}  // namespace

std::vector<char> detect_boundary_points(const Positions& points, const NeighbourGraph& graph,
                                         const NearestNeighbours& nearest, int k,
                                         const std::vector<TangentPlane>& planes, double max_gap) {
  const int n = graph.size();
  // hysteresis: points whose neighbours leave a half-plane empty in every projection are
  // boundary points; points with a gap wider than max_gap join them when connected to them
  std::vector<char> strong(n, 0), weak(n, 0);
  double sine = 0, cosine = 0;
  portable_sin_cos_turns(max_gap / (2 * 3.14159265358979323846), &sine, &cosine);
  std::vector<Eigen::Vector3d> offsets;
  std::vector<std::pair<double, Eigen::Vector2d>> work;
  for (int v = 0; v < n; ++v) {
    for (int pass = 0; pass < 2; ++pass) {
      // strong: the thesis's test on the graph neighbours; weak: the 2k nearest points (among
      // only k, a random void of the sampling leaves a gap wider than 0.7 pi at about one
      // interior point in ten, and chains of them grew spurs off the true boundary)
      offsets.clear();
      if (pass == 0)
        for (const int* w = graph.begin(v); w != graph.end(v); ++w) offsets.push_back((points.row(*w) - points.row(v)).transpose());
      else
        for (int a = 0; a < std::min(2 * k, nearest.k); ++a) offsets.push_back((points.row(nearest.of(v)[a]) - points.row(v)).transpose());
      const double threshold = pass == 0 ? -1.0 : cosine;
      bool enclosed = !has_gap(offsets, planes[v].t1, planes[v].t2, threshold, work);
      for (const int* w = graph.begin(v); !enclosed && w != graph.end(v); ++w)
        enclosed = !has_gap(offsets, planes[*w].t1, planes[*w].t2, threshold, work);
      (pass == 0 ? strong : weak)[v] = enclosed ? 0 : 1;
    }
  }
  std::vector<char> on_boundary = strong;
  std::vector<int> stack;
  for (int v = 0; v < n; ++v)
    if (strong[v]) stack.push_back(v);
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    for (const int* w = graph.begin(v); w != graph.end(v); ++w)
      if (weak[*w] && !on_boundary[*w]) {
        on_boundary[*w] = 1;
        stack.push_back(*w);
      }
  }
  // close the band: a point between two boundary points that are not neighbours of each other
  // (a boundary point slightly inside the curve, which its neighbours enclose) joins it
  std::vector<char> closed = on_boundary;
  for (int v = 0; v < n; ++v) {
    if (on_boundary[v]) continue;
    for (const int* a = graph.begin(v); a != graph.end(v) && !closed[v]; ++a) {
      if (!on_boundary[*a]) continue;
      for (const int* b = a + 1; b != graph.end(v); ++b)
        if (on_boundary[*b] && !graph.adjacent(*a, *b)) {
          closed[v] = 1;
          break;
        }
    }
  }
  return closed;
}

namespace {

struct BandWalk {
  std::vector<int> points;  // the ordered walk
  int covered = -1;         // band points walked or passed
};

// A walk along the band of boundary points of curve `id` from `start`, always to the boundary
// neighbour not yet walked or passed that continues the heading best (straightest step). The
// heading is a running average of the steps, so that a step across the band (it is two or
// three points wide) does not turn the walk. Points beside and behind a step are passed: the
// band's other row is not walked back, and no step turns by more than 120 degrees. Should no
// unpassed neighbour be left, passed ones ahead of the heading are taken (at a corner the next
// side lies beside the last steps), then boundary points two steps away (across a gap in the
// band). The walk ends next to its start, or where nothing is left ahead.
BandWalk walk_band(const Positions& points, const NeighbourGraph& graph, const std::vector<TangentPlane>& planes,
                   const std::vector<int>& curve_of, int id, int start) {
  constexpr double kMaxTurn = -0.5;  // cosine: turns of up to 120 degrees per step
  std::vector<char> state(graph.size(), 0);  // 1 passed, 2 walked
  BandWalk result;
  std::vector<int>& walk = result.points;
  walk.push_back(start);
  state[start] = 2;
  int covered = 1;
  Eigen::Vector3d heading = Eigen::Vector3d::Zero();
  for (;;) {
    const int v = walk.back();
    int best = -1;
    double best_score = -1e300;
    auto consider = [&](int w, bool passed_too) {
      if (curve_of[w] != id || state[w] == 2 || (state[w] == 1 && !passed_too)) return;
      Eigen::Vector3d d = (points.row(w) - points.row(v)).transpose();
      d -= planes[v].normal * planes[v].normal.dot(d);
      const double length = d.norm();
      if (length == 0) return;
      const double score = heading.squaredNorm() == 0 ? -length : heading.dot(d) / length;
      // no U-turn (a passed point must lie ahead): the walk never runs back along the band
      if (heading.squaredNorm() > 0 && !(score > (passed_too ? 0.0 : kMaxTurn))) return;
      if (score > best_score || (score == best_score && w < best)) {
        best_score = score;
        best = w;
      }
    };
    for (int pass = 0; pass < 2 && best < 0; ++pass)
      for (const int* w = graph.begin(v); w != graph.end(v); ++w) consider(*w, pass == 1);
    if (best < 0)
      for (const int* u = graph.begin(v); u != graph.end(v); ++u)
        for (const int* w = graph.begin(*u); w != graph.end(*u); ++w) consider(*w, true);
    if (best < 0) break;
    const Eigen::Vector3d step = (points.row(best) - points.row(v)).transpose().normalized();
    heading = heading.squaredNorm() == 0 ? step : (0.5 * heading + 0.5 * step).normalized();
    // the band's other row: the points beside and behind this step are passed
    for (const int* w = graph.begin(v); w != graph.end(v); ++w)
      if (curve_of[*w] == id && state[*w] == 0 && heading.dot((points.row(*w) - points.row(v)).transpose()) <= 0) {
        state[*w] = 1;
        ++covered;
      }
    if (state[best] == 0) ++covered;
    state[best] = 2;
    walk.push_back(best);
    // back at the start: the curve is closed
    if (walk.size() > 8 && graph.adjacent(best, walk.front())) break;
  }
  result.covered = covered;
  return result;
}

}  // namespace

BoundaryCurves find_boundary_curves(const Positions& points, const NeighbourGraph& graph,
                                    const std::vector<TangentPlane>& planes,
                                    std::vector<char>& on_boundary, int min_points) {
  const int n = graph.size();
  BoundaryCurves curves;
  curves.curve_of.assign(n, -1);
  std::vector<int> stack;
  for (int s = 0; s < n; ++s) {
    if (!on_boundary[s] || curves.curve_of[s] != -1) continue;
    std::vector<int> component{s};
    curves.curve_of[s] = -2;
    stack.assign(1, s);
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
        if (!on_boundary[*w] || curves.curve_of[*w] != -1) continue;
        curves.curve_of[*w] = -2;
        component.push_back(*w);
        stack.push_back(*w);
      }
    }
    std::sort(component.begin(), component.end());
    if (static_cast<int>(component.size()) < min_points) {
      for (int v : component) {
        on_boundary[v] = 0;
        curves.curve_of[v] = -3;  // visited; reset below
      }
      continue;
    }
    const int id = curves.count();
    for (int v : component) curves.curve_of[v] = id;
    curves.members.push_back(std::move(component));
  }
  for (int& c : curves.curve_of)
    if (c < 0) c = -1;

  // order each curve into a closed polyline (walk_band); a walk can stop early on a ragged
  // band, so it is tried from the curve's first point and from the points farthest from it
  // and from that one, and the walk that covers most of the band is kept (on a clean band the
  // first covers all of it)
  for (const std::vector<int>& component : curves.members) {
    const int id = curves.curve_of[component.front()];
    auto farthest_from = [&](int a) {
      int best = a;
      for (int v : component)
        if ((points.row(v) - points.row(a)).squaredNorm() > (points.row(best) - points.row(a)).squaredNorm()) best = v;
      return best;
    };
    const int second = farthest_from(component.front());
    BandWalk kept;
    for (int start : {component.front(), second, farthest_from(second)}) {
      BandWalk walk = walk_band(points, graph, planes, curves.curve_of, id, start);
      if (walk.covered > kept.covered) kept = std::move(walk);
      if (kept.covered == static_cast<int>(component.size())) break;
    }
    curves.polylines.push_back(std::move(kept.points));
  }
  return curves;
}

}  // namespace tela::morse
