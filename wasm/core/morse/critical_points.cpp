#include "morse/critical_points.h"

#include "morse/flows.h"
#include "morse/union_find.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tela::morse {

const char* to_string(CriticalType type) {
  switch (type) {
    case CriticalType::interior_minimum: return "interior_minimum";
    case CriticalType::interior_saddle: return "interior_saddle";
    case CriticalType::interior_maximum: return "interior_maximum";
    case CriticalType::boundary_local_minimum: return "boundary_local_minimum";
    case CriticalType::boundary_minimum: return "boundary_minimum";
    case CriticalType::boundary_local_maximum: return "boundary_local_maximum";
    case CriticalType::boundary_maximum: return "boundary_maximum";
  }
  return "unknown";
}

int euler_contribution(CriticalType type) {
  switch (type) {
    case CriticalType::interior_minimum: return 1;
    case CriticalType::interior_saddle: return -1;
    case CriticalType::interior_maximum: return 1;
    case CriticalType::boundary_local_minimum: return 1;   // (A, B) = (square, empty)
    case CriticalType::boundary_minimum: return 0;         // (square, one side)
    case CriticalType::boundary_local_maximum: return 0;   // (square, three sides)
    case CriticalType::boundary_maximum: return -1;        // (square, two opposite sides)
  }
  return 0;
}

int CriticalPoints::count(CriticalType type) const {
  int c = 0;
  for (const CriticalPoint& p : points) c += p.type == type ? 1 : 0;
  return c;
}

namespace {

// mean rise of f from v over its neighbours and their neighbours: the sign of the derivative
// of f into the surface at a boundary point (the surface lies on the neighbours' side)
double inward_rise(const NeighbourGraph& graph, const std::vector<double>& f, int v) {
  double sum = 0;
  int count = 0;
  for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
    sum += f[*w] - f[v];
    ++count;
    for (const int* u = graph.begin(*w); u != graph.end(*w); ++u) {
      if (*u == v) continue;
      sum += f[*u] - f[v];
      ++count;
    }
  }
  return count > 0 ? sum / count : 0;
}

}  // namespace

CriticalPoints find_critical_points(const Positions& points, const NeighbourGraph& graph,
                                    const std::vector<double>& f, const std::vector<char>& on_boundary,
                                    const LevelSlicing& slicing, const LevelCurves& curves) {
  (void)points;
  CriticalPoints result;
  SlabPieces& pieces = result.pieces;
  const int n = graph.size();
  const int levels = curves.component_count();
  const std::vector<int>& slab = slicing.slab_of;

  // pieces: components inside one slab, merged through shared level curves
  UnionFind piece_sets(n);
  for (int v = 0; v < n; ++v)
    for (const int* w = graph.begin(v); w != graph.end(v); ++w)
      if (*w > v && slab[*w] == slab[v]) piece_sets.unite(v, *w);
  std::vector<int> lower_rep(levels, -1), upper_rep(levels, -1);
  for (const LevelCurves::Crossing& c : curves.crossings) {
    if (lower_rep[c.component] < 0) lower_rep[c.component] = c.lower;
    else piece_sets.unite(c.lower, lower_rep[c.component]);
    if (upper_rep[c.component] < 0) upper_rep[c.component] = c.upper;
    else piece_sets.unite(c.upper, upper_rep[c.component]);
  }

  std::vector<char> is_arc(levels, 0);
  for (const LevelCurves::Crossing& c : curves.crossings)
    if (on_boundary[c.lower] && on_boundary[c.upper]) is_arc[c.component] = 1;

  // cancel noise: a piece without boundary points, bounded by one level circle only and
  // reaching less than half a level spacing past it, joins the piece across that circle
  pieces.component_removed.assign(levels, 0);
  {
    std::vector<int> above(n, 0), below(n, 0), above_curve(n, -1), below_curve(n, -1);
    std::vector<double> top(n, -1e300), bottom(n, 1e300);
    std::vector<char> touches_boundary(n, 0);
    for (int v = 0; v < n; ++v) {
      const int r = piece_sets.find(v);
      top[r] = std::max(top[r], f[v]);
      bottom[r] = std::min(bottom[r], f[v]);
      if (on_boundary[v]) touches_boundary[r] = 1;
    }
    for (int l = 0; l < levels; ++l) {
      const int lower_piece = piece_sets.find(lower_rep[l]);
      const int upper_piece = piece_sets.find(upper_rep[l]);
      ++above[lower_piece];
      above_curve[lower_piece] = l;
      ++below[upper_piece];
      below_curve[upper_piece] = l;
    }
    std::vector<std::pair<int, int>> merges;
    for (int r = 0; r < n; ++r) {
      if (piece_sets.find(r) != r || touches_boundary[r]) continue;
      if (above[r] == 0 && below[r] == 1 && !is_arc[below_curve[r]] &&
          top[r] - slicing.level(curves.component_cut[below_curve[r]]) < 0.5 * slicing.spacing) {
        merges.emplace_back(r, below_curve[r]);
      } else if (below[r] == 0 && above[r] == 1 && !is_arc[above_curve[r]] &&
                 slicing.level(curves.component_cut[above_curve[r]]) - bottom[r] < 0.5 * slicing.spacing) {
        merges.emplace_back(r, above_curve[r]);
      }
    }
    for (const auto& [r, l] : merges) {
      if (pieces.component_removed[l]) continue;
      pieces.component_removed[l] = 1;
      piece_sets.unite(lower_rep[l], upper_rep[l]);
    }
  }

  // compact piece indices in point order
  pieces.piece_of.assign(n, -1);
  {
    std::vector<int> index(n, -1);
    for (int v = 0; v < n; ++v) {
      const int r = piece_sets.find(v);
      if (index[r] < 0) {
        index[r] = pieces.count();
        pieces.piece_slab.push_back(slab[v]);
      }
      pieces.piece_of[v] = index[r];
    }
  }
  const int piece_count = pieces.count();
  pieces.component_lower_piece.assign(levels, -1);
  pieces.component_upper_piece.assign(levels, -1);
  for (int l = 0; l < levels; ++l) {
    pieces.component_lower_piece[l] = pieces.piece_of[lower_rep[l]];
    pieces.component_upper_piece[l] = pieces.piece_of[upper_rep[l]];
  }
  pieces.component_is_arc = is_arc;

  // pieces of boundary curves inside one slab
  UnionFind arc_sets(n);
  for (int v = 0; v < n; ++v)
    if (on_boundary[v])
      for (const int* w = graph.begin(v); w != graph.end(v); ++w)
        if (*w > v && on_boundary[*w] && slab[*w] == slab[v]) arc_sets.unite(v, *w);
  // a band of boundary points two wide may leave a point of one row alone in a slab: boundary
  // points of a slab with a common neighbour belong to the same arc
  for (int m = 0; m < n; ++m)
    for (const int* a = graph.begin(m); a != graph.end(m); ++a)
      for (const int* b = a + 1; b != graph.end(m); ++b)
        if (on_boundary[*a] && on_boundary[*b] && slab[*a] == slab[*b]) arc_sets.unite(*a, *b);
  std::vector<int> arc_of(n, -1), arc_lowest, arc_highest, arc_piece;
  {
    std::vector<int> index(n, -1);
    for (int v = 0; v < n; ++v) {
      if (!on_boundary[v]) continue;
      const int r = arc_sets.find(v);
      if (index[r] < 0) {
        index[r] = static_cast<int>(arc_lowest.size());
        arc_lowest.push_back(v);
        arc_highest.push_back(v);
        arc_piece.push_back(pieces.piece_of[v]);
      }
      const int a = index[r];
      arc_of[v] = a;
      if (lower(f, v, arc_lowest[a])) arc_lowest[a] = v;
      if (lower(f, arc_highest[a], v)) arc_highest[a] = v;
    }
  }
  const int arcs = static_cast<int>(arc_lowest.size());

  // boundary cycles of each piece: level curves (2l seen from below, 2l + 1 from above) and
  // boundary arcs (2 levels + a), linked where a boundary curve crosses a level
  UnionFind cycle_sets(2 * levels + arcs);
  std::vector<char> arc_crosses_up(arcs, 0), arc_crosses_down(arcs, 0);
  for (const LevelCurves::Crossing& c : curves.crossings) {
    if (pieces.component_removed[c.component]) continue;
    if (!on_boundary[c.lower] || !on_boundary[c.upper]) continue;
    cycle_sets.unite(2 * c.component, 2 * levels + arc_of[c.lower]);
    cycle_sets.unite(2 * c.component + 1, 2 * levels + arc_of[c.upper]);
    arc_crosses_up[arc_of[c.lower]] = 1;
    arc_crosses_down[arc_of[c.upper]] = 1;
  }
  std::vector<std::pair<int, int>> piece_roots;  // (piece, cycle root)
  for (int l = 0; l < levels; ++l) {
    if (pieces.component_removed[l]) continue;
    piece_roots.emplace_back(pieces.component_lower_piece[l], cycle_sets.find(2 * l));
    piece_roots.emplace_back(pieces.component_upper_piece[l], cycle_sets.find(2 * l + 1));
  }
  for (int a = 0; a < arcs; ++a) piece_roots.emplace_back(arc_piece[a], cycle_sets.find(2 * levels + a));
  std::sort(piece_roots.begin(), piece_roots.end());
  piece_roots.erase(std::unique(piece_roots.begin(), piece_roots.end()), piece_roots.end());
  pieces.piece_chi.assign(piece_count, 2);
  for (const auto& pr : piece_roots) --pieces.piece_chi[pr.first];

  result.euler_from_pieces = 0;
  for (int p = 0; p < piece_count; ++p) result.euler_from_pieces += pieces.piece_chi[p];
  std::vector<int> curves_above(piece_count, 0), curves_below(piece_count, 0), arcs_below(piece_count, 0);
  for (int l = 0; l < levels; ++l) {
    if (pieces.component_removed[l]) continue;
    result.euler_from_pieces -= is_arc[l];
    ++curves_above[pieces.component_lower_piece[l]];
    ++curves_below[pieces.component_upper_piece[l]];
    arcs_below[pieces.component_upper_piece[l]] += is_arc[l];
  }

  // lowest and highest point of each piece
  std::vector<int> piece_lowest(piece_count, -1), piece_highest(piece_count, -1);
  for (int v = 0; v < n; ++v) {
    const int p = pieces.piece_of[v];
    if (piece_lowest[p] < 0 || lower(f, v, piece_lowest[p])) piece_lowest[p] = v;
    if (piece_highest[p] < 0 || lower(f, piece_highest[p], v)) piece_highest[p] = v;
  }

  // boundary extrema, classified by the slope into the surface
  struct Candidate {
    CriticalType type;
    int point;
    double rise;
  };
  std::vector<std::vector<Candidate>> per_piece(piece_count);
  for (int a = 0; a < arcs; ++a) {
    const int p = arc_piece[a];
    if (!arc_crosses_down[a]) {  // no crossing below: the arc turns at its lowest point
      const int v = arc_lowest[a];
      const double rise = inward_rise(graph, f, v);
      per_piece[p].push_back({rise > 0 ? CriticalType::boundary_local_minimum : CriticalType::boundary_minimum, v, rise});
    }
    if (!arc_crosses_up[a]) {
      const int v = arc_highest[a];
      const double rise = inward_rise(graph, f, v);
      per_piece[p].push_back({rise < 0 ? CriticalType::boundary_local_maximum : CriticalType::boundary_maximum, v, rise});
    }
  }

  for (int p = 0; p < piece_count; ++p) {
    std::vector<Candidate>& found = per_piece[p];
    // a piece with nothing below starts at a minimum: interior, or on the boundary (then it is
    // a local minimum of S whatever the slope estimate says); likewise at the top
    if (curves_below[p] == 0) {
      const int v = piece_lowest[p];
      if (!on_boundary[v]) found.push_back({CriticalType::interior_minimum, v, 0});
      else
        for (Candidate& c : found)
          if (c.point == v) c.type = CriticalType::boundary_local_minimum;
    }
    if (curves_above[p] == 0) {
      const int v = piece_highest[p];
      if (!on_boundary[v]) found.push_back({CriticalType::interior_maximum, v, 0});
      else
        for (Candidate& c : found)
          if (c.point == v) c.type = CriticalType::boundary_local_maximum;
    }
    int change = 0;
    for (const Candidate& c : found) change += euler_contribution(c.type);
    // chi(P) - chi(level curves below) = change - saddles
    int saddles = change - (pieces.piece_chi[p] - arcs_below[p]);
    if (saddles < 0) {
      // too few saddles for the change: the weakest slope classifications are the suspects
      std::vector<int> order(found.size());
      for (std::size_t i = 0; i < found.size(); ++i) order[i] = static_cast<int>(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return std::abs(found[a].rise) < std::abs(found[b].rise); });
      for (int i : order) {
        if (saddles >= 0) break;
        if (found[i].type == CriticalType::boundary_maximum) {
          found[i].type = CriticalType::boundary_local_maximum;
          ++saddles;
        } else if (found[i].type == CriticalType::boundary_minimum) {
          found[i].type = CriticalType::boundary_local_minimum;
          ++saddles;
        }
      }
      if (saddles < 0) {
        result.warnings.push_back("slab piece " + std::to_string(p) + ": the critical points found do not explain its topology");
        saddles = 0;
      }
    }
    // too many saddles: a local extremum of S on the boundary with a point beyond it a few
    // rings away is an extremum of f on the boundary only (the band lies a spacing inside the
    // edge, so at a corner of the cloth the highest point is an interior one beside it; the
    // slope estimate is weak where the boundary curves), not a saddle of S beside it
    if (saddles > 0) {
      std::vector<int> order(found.size());
      for (std::size_t i = 0; i < found.size(); ++i) order[i] = static_cast<int>(i);
      std::stable_sort(order.begin(), order.end(),
                       [&](int a, int b) { return std::abs(found[a].rise) < std::abs(found[b].rise); });
      for (int i : order) {
        if (saddles == 0) break;
        Candidate& c = found[i];
        if (c.type == CriticalType::boundary_local_maximum && passed_within(graph, f, c.point, 3, true)) {
          c.type = CriticalType::boundary_maximum;
          --saddles;
        } else if (c.type == CriticalType::boundary_local_minimum && passed_within(graph, f, c.point, 3, false)) {
          c.type = CriticalType::boundary_minimum;
          --saddles;
        }
      }
    }
    for (const Candidate& c : found) result.points.push_back({c.type, c.point, p});
    if (saddles == 0) continue;

    // locate the saddles: sweep the piece from above (level curves above merging) and from
    // below (level curves below merging); the merge points are the saddles
    std::vector<int> members;
    for (int v = 0; v < n; ++v)
      if (pieces.piece_of[v] == p) members.push_back(v);
    std::sort(members.begin(), members.end(), [&](int a, int b) { return lower(f, a, b); });
    std::vector<int> seed(n, -1);
    std::vector<int> events;
    for (int direction = 0; direction < 2; ++direction) {
      for (int v : members) seed[v] = -1;
      for (const LevelCurves::Crossing& c : curves.crossings) {
        if (pieces.component_removed[c.component]) continue;
        if (direction == 0 && pieces.piece_of[c.lower] == p && pieces.component_lower_piece[c.component] == p)
          seed[c.lower] = c.component;
        if (direction == 1 && pieces.piece_of[c.upper] == p && pieces.component_upper_piece[c.component] == p)
          seed[c.upper] = c.component;
      }
      UnionFind sweep(n);
      std::vector<int> label(n, -1);
      std::vector<char> active(n, 0);
      for (std::size_t i = 0; i < members.size(); ++i) {
        const int v = direction == 0 ? members[members.size() - 1 - i] : members[i];
        active[v] = 1;
        label[v] = seed[v];
        bool merged = false;
        for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
          if (!active[*w] || pieces.piece_of[*w] != p) continue;
          const int rv = sweep.find(v), rw = sweep.find(*w);
          if (rv == rw) continue;
          if (label[rv] >= 0 && label[rw] >= 0) merged = true;
          const int keep = label[rv] >= 0 ? label[rv] : label[rw];
          sweep.unite(rv, rw);
          label[sweep.find(v)] = keep;
        }
        if (merged) events.push_back(v);
      }
    }
    std::stable_sort(events.begin(), events.end(), [&](int a, int b) { return on_boundary[a] < on_boundary[b]; });
    events.erase(std::unique(events.begin(), events.end()), events.end());
    for (int i = 0; i < saddles; ++i) {
      const int v = i < static_cast<int>(events.size()) ? events[i] : members[members.size() / 2];
      result.points.push_back({CriticalType::interior_saddle, v, p});
    }
  }
  std::stable_sort(result.points.begin(), result.points.end(),
                   [&](const CriticalPoint& a, const CriticalPoint& b) { return lower(f, a.point, b.point); });
  return result;
}

}  // namespace tela::morse
