#include "morse/level_sets.h"

#include "base/integer_cast.h"
#include "morse/union_find.h"

#include <algorithm>
#include <cmath>

namespace tela::morse {

LevelSlicing slice_levels(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                          int requested, const std::vector<double>& avoid, double extra_shift) {
  LevelSlicing slicing;
  const int n = graph.size();
  if (n == 0) return slicing;
  const double f_min = *std::min_element(f.begin(), f.end());
  const double f_max = *std::max_element(f.begin(), f.end());
  const double range = f_max - f_min;
  // edges longer than three times the median length are outliers; the others must not
  // straddle two levels (steep regions would otherwise tear the level curves apart)
  std::vector<double> lengths;
  lengths.reserve(graph.indices.size() / 2);
  for (int v = 0; v < n; ++v)
    for (const int* w = graph.begin(v); w != graph.end(v); ++w)
      if (*w > v) lengths.push_back((points.row(*w) - points.row(v)).norm());
  double tall = 0;
  if (!lengths.empty()) {
    std::vector<double> sorted = lengths;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    const double longest = 3 * sorted[sorted.size() / 2];
    std::size_t e = 0;
    for (int v = 0; v < n; ++v)
      for (const int* w = graph.begin(v); w != graph.end(v); ++w)
        if (*w > v && lengths[e++] <= longest) tall = std::max(tall, std::abs(f[*w] - f[v]));
  }
  requested = std::max(1, requested);
  double h = range / requested;
  int slabs = requested;
  if (h < 1.0001 * tall && tall > 0) {
    slabs = std::max(1, static_cast<int>(range / (1.0001 * tall)));
    h = range / slabs;
  }
  if (!(h > 0)) {
    h = 1;
    slabs = 1;
  }
  // the shift of the levels: of 16 candidates in [0, h), the one whose levels keep farthest
  // from the heights to avoid (the first on ties)
  double shift = 0;
  if (!avoid.empty() && slabs > 1) {
    double best = -1;
    for (int i = 0; i < 16; ++i) {
      const double s = h * i / 16.0;
      double nearest = h;
      for (double a : avoid) {
        const double t = (a - (f_min - s)) / h;  // in level spacings from the origin
        nearest = std::min(nearest, std::abs(t - std::round(t)) * h);
      }
      if (nearest > best) {
        best = nearest;
        shift = s;
      }
    }
  }
  shift = std::fmod(shift + extra_shift * h, h);
  if (shift > 0) ++slabs;  // a partial slab at each end
  slicing.origin = f_min - shift;
  slicing.spacing = h;
  slicing.slab_count = slabs;
  slicing.slab_of.resize(n);
  for (int v = 0; v < n; ++v)
    slicing.slab_of[v] = clamped_floor((f[v] - slicing.origin) / h, 0, slabs - 1);
  return slicing;
}

LevelCurves level_curves(const NeighbourGraph& graph, const LevelSlicing& slicing,
                         const std::vector<char>& on_boundary) {
  const int n = graph.size();
  LevelCurves curves;
  // node 2v: v as the lower end (at cut slab(v) + 1); node 2v + 1: v as the upper end
  UnionFind sets(2 * n);
  for (int v = 0; v < n; ++v) {
    for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
      if (slicing.slab_of[*w] != slicing.slab_of[v] + 1) continue;
      curves.crossings.push_back({v, *w, slicing.slab_of[*w], -1});
      sets.unite(2 * v, 2 * *w + 1);
    }
  }
  // the graph is not a triangulation: where it has a quadrilateral gap, consecutive straddling
  // edges share no end point, so end points on the same side that are neighbours also join
  // (unless both are boundary points: see level_sets.h)
  std::vector<char> lower_end(n, 0), upper_end(n, 0);
  for (const LevelCurves::Crossing& c : curves.crossings) {
    lower_end[c.lower] = 1;
    upper_end[c.upper] = 1;
  }
  for (int v = 0; v < n; ++v)
    for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
      if (*w <= v || slicing.slab_of[*w] != slicing.slab_of[v]) continue;
      if (!on_boundary.empty() && on_boundary[v] && on_boundary[*w]) continue;
      if (lower_end[v] && lower_end[*w]) sets.unite(2 * v, 2 * *w);
      if (upper_end[v] && upper_end[*w]) sets.unite(2 * v + 1, 2 * *w + 1);
    }
  std::stable_sort(curves.crossings.begin(), curves.crossings.end(),
                   [](const LevelCurves::Crossing& a, const LevelCurves::Crossing& b) { return a.cut < b.cut; });
  std::vector<int> index(2 * n, -1);
  for (LevelCurves::Crossing& c : curves.crossings) {
    const int root = sets.find(2 * c.lower);
    if (index[root] < 0) {
      index[root] = curves.component_count();
      curves.component_cut.push_back(c.cut);
    }
    c.component = index[root];
  }
  return curves;
}

LevelCurveGeometry level_curve_geometry(const Positions& points, const NeighbourGraph& graph,
                                        const std::vector<double>& f, const LevelSlicing& slicing,
                                        const LevelCurves& curves) {
  LevelCurveGeometry geometry;
  const std::size_t m = curves.crossings.size();
  geometry.points.resize(static_cast<Eigen::Index>(m), 3);
  geometry.component.resize(m);
  // crossings are grouped by cut; inside a cut, look crossings up by (lower, upper)
  std::vector<std::array<int, 3>> keyed;  // lower, upper, crossing index
  keyed.reserve(m);
  for (std::size_t i = 0; i < m; ++i) {
    const LevelCurves::Crossing& c = curves.crossings[i];
    const double level = slicing.level(c.cut);
    const double t = (level - f[c.lower]) / (f[c.upper] - f[c.lower]);
    geometry.points.row(static_cast<Eigen::Index>(i)) = (1 - t) * points.row(c.lower) + t * points.row(c.upper);
    geometry.component[i] = c.component;
    keyed.push_back({c.lower, c.upper, static_cast<int>(i)});
  }
  std::vector<std::array<int, 3>> by_upper = keyed;
  std::sort(keyed.begin(), keyed.end());
  std::sort(by_upper.begin(), by_upper.end(),
            [](const auto& a, const auto& b) { return a[1] != b[1] ? a[1] < b[1] : a[0] < b[0]; });
  // fans around a lower end point: crossings (a, b1), (a, b2) with b1 ~ b2
  for (std::size_t s = 0; s < keyed.size();) {
    std::size_t e = s;
    while (e < keyed.size() && keyed[e][0] == keyed[s][0]) ++e;
    for (std::size_t i = s; i < e; ++i)
      for (std::size_t j = i + 1; j < e; ++j)
        if (graph.adjacent(keyed[i][1], keyed[j][1])) geometry.segments.push_back({keyed[i][2], keyed[j][2]});
    s = e;
  }
  for (std::size_t s = 0; s < by_upper.size();) {
    std::size_t e = s;
    while (e < by_upper.size() && by_upper[e][1] == by_upper[s][1]) ++e;
    for (std::size_t i = s; i < e; ++i)
      for (std::size_t j = i + 1; j < e; ++j)
        if (graph.adjacent(by_upper[i][0], by_upper[j][0])) geometry.segments.push_back({by_upper[i][2], by_upper[j][2]});
    s = e;
  }
  return geometry;
}

}  // namespace tela::morse
