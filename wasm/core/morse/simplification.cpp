#include "morse/simplification.h"

#include "morse/flows.h"

#include <algorithm>
#include <cstdlib>

namespace tela::morse {

void cancel_noise_critical_points(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                                  const LevelSlicing& slicing, const BoundaryCurves& curves,
                                  CriticalPoints& critical) {
  std::vector<CriticalPoint>& list = critical.points;
  std::vector<char> dropped(list.size(), 0);
  const int rings = 3;

  // a local extremum of S on the boundary passed nearby, with a saddle beside it
  for (CriticalPoint& c : list) {
    const bool maximum = c.type == CriticalType::boundary_local_maximum;
    if (!maximum && c.type != CriticalType::boundary_local_minimum) continue;
    if (!passed_within(graph, f, c.point, rings, maximum)) continue;
    int nearest = -1;
    double nearest_distance = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (dropped[i] || list[i].type != CriticalType::interior_saddle) continue;
      if (std::abs(slicing.slab_of[list[i].point] - slicing.slab_of[c.point]) > 1) continue;
      const double distance = (points.row(list[i].point) - points.row(c.point)).squaredNorm();
      if (nearest < 0 || distance < nearest_distance) {
        nearest = static_cast<int>(i);
        nearest_distance = distance;
      }
    }
    if (nearest < 0) continue;
    dropped[nearest] = 1;
    c.type = maximum ? CriticalType::boundary_maximum : CriticalType::boundary_minimum;
  }

  // a local maximum of S on the boundary passed nearby, with a minimum of f on the boundary
  // higher than it up to 6 rings away on its curve: noise (f falls from a maximum to the next
  // minimum along the curve); both contribute 0 and are dropped
  std::vector<int> critical_at(graph.size(), -1);
  for (std::size_t i = 0; i < list.size(); ++i) critical_at[list[i].point] = static_cast<int>(i);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (dropped[i] || list[i].type != CriticalType::boundary_local_maximum) continue;
    const int top = list[i].point;
    if (!passed_within(graph, f, top, rings, true)) continue;
    std::vector<int> ball{top}, depth{0};
    for (std::size_t head = 0; head < ball.size() && !dropped[i]; ++head) {
      if (depth[head] == 6) continue;
      for (const int* w = graph.begin(ball[head]); w != graph.end(ball[head]) && !dropped[i]; ++w) {
        if (std::find(ball.begin(), ball.end(), *w) != ball.end()) continue;
        ball.push_back(*w);
        depth.push_back(depth[head] + 1);
        const int j = critical_at[*w];
        if (j >= 0 && !dropped[j] && list[j].type == CriticalType::boundary_minimum &&
            curves.curve_of[*w] == curves.curve_of[top] && lower(f, top, *w))
          dropped[i] = dropped[j] = 1;
      }
    }
  }

  // as many maxima as minima of f along each boundary curve
  for (int k = 0; k < curves.count(); ++k) {
    auto on_curve = [&](std::size_t i) { return !dropped[i] && curves.curve_of[list[i].point] == k; };
    auto is_maximum = [](CriticalType t) {
      return t == CriticalType::boundary_local_maximum || t == CriticalType::boundary_maximum;
    };
    auto is_minimum = [](CriticalType t) {
      return t == CriticalType::boundary_local_minimum || t == CriticalType::boundary_minimum;
    };
    for (;;) {
      int maxima = 0, minima = 0;
      for (std::size_t i = 0; i < list.size(); ++i)
        if (on_curve(i)) {
          maxima += is_maximum(list[i].type) ? 1 : 0;
          minima += is_minimum(list[i].type) ? 1 : 0;
        }
      if (maxima == minima) break;
      // the surplus kind, of contribution 0: passed nearby first, then the least extreme
      const CriticalType surplus = maxima > minima ? CriticalType::boundary_local_maximum : CriticalType::boundary_minimum;
      const bool above = maxima > minima;
      int best = -1;
      bool best_passed = false;
      for (std::size_t i = 0; i < list.size(); ++i) {
        if (!on_curve(i) || list[i].type != surplus) continue;
        const bool passed = passed_within(graph, f, list[i].point, rings, above);
        const bool less_extreme = best >= 0 && (above ? lower(f, list[i].point, list[best].point)
                                                      : lower(f, list[best].point, list[i].point));
        if (best < 0 || (passed && !best_passed) || (passed == best_passed && less_extreme)) {
          best = static_cast<int>(i);
          best_passed = passed;
        }
      }
      if (best < 0) break;
      dropped[best] = 1;
    }
  }

  std::vector<CriticalPoint> kept;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (!dropped[i]) kept.push_back(list[i]);
  list.swap(kept);
}

}  // namespace tela::morse
