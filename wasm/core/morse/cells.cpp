#include "morse/cells.h"

#include "morse/union_find.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace tela::morse {

const char* to_string(OneCellKind kind) {
  switch (kind) {
    case OneCellKind::saddle: return "saddle";
    case OneCellKind::boundary_minimum_flow: return "boundary_minimum_flow";
    case OneCellKind::boundary_arc: return "boundary_arc";
  }
  return "unknown";
}

namespace {

// The path (fewest edges, without v) from v to the closest point lower than v (higher when
// `up`) or a target (a 0-cell); empty when none is among the first 16384 points visited (a dip
// of the 30 000-point knotted torus outgrew 1024).
std::vector<int> way_down(const NeighbourGraph& graph, const std::vector<double>& f,
                          const std::vector<char>& is_zero_cell, int v, bool up = false) {
  std::vector<int> order{v}, parent{-1};
  std::map<int, int> visited{{v, 0}};
  for (std::size_t head = 0; head < order.size() && order.size() < 16384; ++head)
    for (const int* w = graph.begin(order[head]); w != graph.end(order[head]); ++w) {
      if (visited.count(*w)) continue;
      visited[*w] = static_cast<int>(order.size());
      order.push_back(*w);
      parent.push_back(static_cast<int>(head));
      if ((up ? lower(f, v, *w) : lower(f, *w, v)) || is_zero_cell[*w]) {
        std::vector<int> way;
        for (int i = static_cast<int>(order.size()) - 1; i > 0; i = parent[i]) way.push_back(order[i]);
        std::reverse(way.begin(), way.end());
        return way;
      }
    }
  return {};
}

// The path (fewest edges, without v) from v to the closest 0-cell up to `rings` edges away;
// empty when there is none.
std::vector<int> way_to_zero_cell(const NeighbourGraph& graph, const std::vector<char>& is_zero_cell, int v,
                                  int rings) {
  std::vector<int> order{v}, parent{-1}, depth{0};
  for (std::size_t head = 0; head < order.size(); ++head) {
    if (depth[head] == rings) continue;
    for (const int* w = graph.begin(order[head]); w != graph.end(order[head]); ++w) {
      if (std::find(order.begin(), order.end(), *w) != order.end()) continue;
      order.push_back(*w);
      parent.push_back(static_cast<int>(head));
      depth.push_back(depth[head] + 1);
      if (is_zero_cell[*w]) {
        std::vector<int> way;
        for (int i = static_cast<int>(order.size()) - 1; i > 0; i = parent[i]) way.push_back(order[i]);
        std::reverse(way.begin(), way.end());
        return way;
      }
    }
  }
  return {};
}

// Descends by Down from `start` until a 0-cell, a boundary point (after leaving the starting
// band when `leave_boundary`), or a dead end; across discrete minima that are not 0-cells it
// hops to the lowest point two rings away when that is lower, else walks (fewest edges) to the
// closest lower point, so that it ends at a 0-cell or on the boundary. A path that reaches the
// boundary up to 3 edges from a 0-cell goes on to it (else it would cut the boundary curve
// beside the 0-cell, into an arc of a point or two between the two).
std::vector<int> descend(const NeighbourGraph& graph, const std::vector<double>& f, const Flows& flows,
                         const std::vector<char>& on_boundary, const std::vector<char>& is_zero_cell,
                         int start, bool leave_boundary, bool* ends_on_boundary) {
  std::vector<int> path{start};
  std::vector<char> seen;  // small: only grows with the path
  bool left_band = !leave_boundary || !on_boundary[start];
  *ends_on_boundary = false;
  for (int guard = 0; guard < graph.size(); ++guard) {
    const int v = path.back();
    if (is_zero_cell[v]) break;
    if (on_boundary[v]) {
      if (left_band && path.size() > 1) {
        const std::vector<int> way = way_to_zero_cell(graph, is_zero_cell, v, 3);
        path.insert(path.end(), way.begin(), way.end());
        *ends_on_boundary = way.empty();
        break;
      }
    } else {
      left_band = true;
    }
    int next = flows.down[v];
    if (next == v) {
      for (const int* w = graph.begin(v); w != graph.end(v); ++w)
        for (const int* u = graph.begin(*w); u != graph.end(*w); ++u)
          if (lower(f, *u, next)) next = *u;
      if (next == v) {  // deeper pit: the closest (fewest edges) point that is lower or a 0-cell
        const std::vector<int> way = way_down(graph, f, is_zero_cell, v);
        if (way.empty()) break;
        path.insert(path.end(), way.begin(), way.end() - 1);
        next = way.back();
      }
    }
    path.push_back(next);
  }
  return path;
}

// A side of a point v: a component of the points below v in the ball of the points up to
// `rings` edges from v that touches v and reaches the ball's rim or the boundary.
struct Side {
  int size, id, lowest;
};

// The ball round v (depth: edges from v, -1 outside) and v's sides, largest first; `component`
// marks their points by side id. The caller clears depth and component over the ball.
std::vector<Side> sides_of(const NeighbourGraph& graph, const std::vector<double>& f,
                           const std::vector<char>& on_boundary, int v, int rings, std::vector<int>& ball,
                           std::vector<int>& depth, std::vector<int>& component) {
  ball.assign(1, v);
  depth[v] = 0;
  for (std::size_t head = 0; head < ball.size(); ++head) {
    const int u = ball[head];
    if (depth[u] == rings) continue;
    for (const int* w = graph.begin(u); w != graph.end(u); ++w)
      if (depth[*w] < 0) {
        depth[*w] = depth[u] + 1;
        ball.push_back(*w);
      }
  }
  std::vector<Side> sides;
  std::vector<int> stack;
  int components = 0;
  for (const int* u = graph.begin(v); u != graph.end(v); ++u) {
    if (component[*u] >= 0 || !lower(f, *u, v)) continue;
    const int id = components++;
    bool rim = false;
    int lowest = *u, size = 0;
    stack.assign(1, *u);
    component[*u] = id;
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      ++size;
      rim = rim || depth[x] == rings || on_boundary[x];
      if (lower(f, x, lowest)) lowest = x;
      for (const int* w = graph.begin(x); w != graph.end(x); ++w)
        if (depth[*w] >= 0 && component[*w] < 0 && lower(f, *w, v)) {
          component[*w] = id;
          stack.push_back(*w);
        }
    }
    if (rim) sides.push_back({size, id, lowest});
  }
  std::sort(sides.begin(), sides.end(), [](const Side& a, const Side& b) { return a.size > b.size; });
  return sides;
}

// Where a saddle's descending 1-cell starts. The level curves place a saddle in the slab piece
// where the level curves change, which may be a slab from the saddle's height and far from it.
// A discrete saddle is a point v with two or more sides; its strength is the size of the second
// largest (noise makes saddles of strength 1 or 2). Asking for two sides above as well found
// none at most torus saddles: a point a little off the centre of a lopsided cross has its sides
// below, or its sides above, joined through the centre. The points of the saddle's piece come
// first, then those of the pieces across its level curves (a wiggle of the knotted torus lower
// than a slab keeps a strong saddle there whose partner maximum the pieces cancelled); of them,
// not within reach of a discrete saddle already taken (`taken`), the strongest is taken; the
// 1-cell leads (fewest edges, inside the side) from it to the lowest point of each of its two
// largest sides. point = -1 when there is none.
struct SaddleStart {
  int point = -1;
  std::vector<int> lead[2];  // from a neighbour of the point down into each side
};

SaddleStart split_below(const NeighbourGraph& graph, const std::vector<double>& f, const std::vector<char>& on_boundary,
                        const SlabPieces& pieces, int s, int rings, const std::vector<int>& taken) {
  const int n = graph.size();
  const std::vector<int>& piece_of = pieces.piece_of;
  // the saddle's piece and the pieces across its level curves
  std::vector<char> searched(pieces.piece_slab.size(), 0);
  searched[piece_of[s]] = 1;
  for (std::size_t l = 0; l < pieces.component_lower_piece.size(); ++l) {
    if (pieces.component_removed[l]) continue;
    const int below = pieces.component_lower_piece[l], above = pieces.component_upper_piece[l];
    if (below == piece_of[s]) searched[above] = 1;
    if (above == piece_of[s]) searched[below] = 1;
  }
  std::vector<int> depth(n, -1), component(n, -1), ball;
  SaddleStart best;
  int best_strength = 0;
  int best_tier = -1;
  for (int v = 0; v < n; ++v) {
    if (!searched[piece_of[v]]) continue;
    const std::vector<Side> sides = sides_of(graph, f, on_boundary, v, rings, ball, depth, component);
    const int strength = sides.size() >= 2 ? sides[1].size : 0;
    const bool free = std::none_of(taken.begin(), taken.end(), [&](int t) { return depth[t] >= 0; });
    const int tier = piece_of[v] == piece_of[s] ? 1 : 0;
    if (strength > 0 && free && (tier > best_tier || (tier == best_tier && strength > best_strength))) {
      // each branch leads from v to the lowest point of one of the two largest sides, inside it
      SaddleStart found;
      found.point = v;
      for (int k = 0; k < 2; ++k) {
        std::map<int, int> parent{{v, -1}};
        std::vector<int> queue{v};
        for (std::size_t head = 0; head < queue.size() && !parent.count(sides[k].lowest); ++head)
          for (const int* w = graph.begin(queue[head]); w != graph.end(queue[head]); ++w)
            if (depth[*w] >= 0 && !parent.count(*w) && component[*w] == sides[k].id) {
              parent[*w] = queue[head];
              queue.push_back(*w);
            }
        for (int x = sides[k].lowest; x != v && parent.count(x); x = parent[x]) found.lead[k].push_back(x);
        std::reverse(found.lead[k].begin(), found.lead[k].end());
      }
      if (!found.lead[0].empty() && !found.lead[1].empty()) {
        best = found;
        best_strength = strength;
        best_tier = tier;
      }
    }
    for (int u : ball) depth[u] = component[u] = -1;
  }
  return best;
}

}  // namespace

Cells build_cells(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                  const Flows& flows, const std::vector<char>& on_boundary, const BoundaryCurves& curves,
                  const std::vector<TangentPlane>& planes, const CriticalPoints& critical) {
  (void)planes;
  const int n = graph.size();
  Cells cells;
  std::vector<char> is_zero_cell(n, 0);
  for (const CriticalPoint& c : critical.points) {
    if (c.type == CriticalType::interior_minimum || c.type == CriticalType::boundary_local_minimum ||
        c.type == CriticalType::boundary_minimum) {
      cells.zero_cells.push_back(c.point);
      is_zero_cell[c.point] = 1;
    }
    if (c.type == CriticalType::interior_maximum || c.type == CriticalType::boundary_local_maximum)
      cells.two_cells.push_back(c.point);
  }

  std::vector<int> extra;  // boundary points where 1-cells end
  std::vector<int> saddle_starts;  // discrete saddles already taken by a 1-cell
  for (int i = 0; i < static_cast<int>(critical.points.size()); ++i) {
    const CriticalPoint& c = critical.points[i];
    if (c.type == CriticalType::interior_saddle) {
      // the two branches leave the strongest discrete saddle near it into its two sides below
      // (split_below, balls of 5 edges, else 7); where there is none, they leave the saddle by
      // its lowest neighbour and the lower neighbour most opposite to it
      SaddleStart start;
      for (int rings = 5; rings <= 7 && start.point < 0; rings += 2)
        start = split_below(graph, f, on_boundary, critical.pieces, c.point, rings, saddle_starts);
      if (start.point >= 0) saddle_starts.push_back(start.point);
      const int s = start.point >= 0 ? start.point : c.point;
      int first = start.point >= 0 ? start.lead[0].back() : -1, second = start.point >= 0 ? start.lead[1].back() : -1;
      if (start.point < 0) {
        for (const int* w = graph.begin(s); w != graph.end(s); ++w)
          if (lower(f, *w, s) && (first < 0 || lower(f, *w, first))) first = *w;
        double most_opposite = 2;
        if (first >= 0) {
          const Eigen::RowVector3d d0 = (points.row(first) - points.row(s)).normalized();
          for (const int* w = graph.begin(s); w != graph.end(s); ++w) {
            if (*w == first || !lower(f, *w, s)) continue;
            const double cosine = d0.dot((points.row(*w) - points.row(s)).normalized());
            if (cosine < most_opposite) {
              most_opposite = cosine;
              second = *w;
            }
          }
          // one neighbour below only: the second branch leaves by the neighbour most opposite
          // to it that does not flow straight back to the saddle
          for (const int* w = graph.begin(s); w != graph.end(s) && second < 0; ++w) {
            if (*w == first || flows.down[*w] == s) continue;
            const double cosine = d0.dot((points.row(*w) - points.row(s)).normalized());
            if (cosine < most_opposite) {
              most_opposite = cosine;
              second = *w;
            }
          }
        }
      }
      OneCell cell;
      cell.kind = OneCellKind::saddle;
      cell.critical = i;
      std::vector<int> a, b;
      bool a_boundary = false, b_boundary = false;
      if (first >= 0) a = descend(graph, f, flows, on_boundary, is_zero_cell, first, false, &a_boundary);
      if (second >= 0) b = descend(graph, f, flows, on_boundary, is_zero_cell, second, false, &b_boundary);
      if (start.point >= 0) {  // the leads into the sides come first
        a.insert(a.begin(), start.lead[0].begin(), start.lead[0].end() - 1);
        b.insert(b.begin(), start.lead[1].begin(), start.lead[1].end() - 1);
      }
      cell.path.assign(a.rbegin(), a.rend());
      cell.top = s;
      cell.path.push_back(s);
      cell.path.insert(cell.path.end(), b.begin(), b.end());
      if (a_boundary) extra.push_back(a.back());
      if (b_boundary) extra.push_back(b.back());
      cells.one_cells.push_back(std::move(cell));
    } else if (c.type == CriticalType::boundary_minimum) {
      OneCell cell;
      cell.kind = OneCellKind::boundary_minimum_flow;
      cell.critical = i;
      bool ends_on_boundary = false;
      std::vector<char> not_zero = is_zero_cell;
      not_zero[c.point] = 0;
      cell.path = descend(graph, f, flows, on_boundary, not_zero, c.point, true, &ends_on_boundary);
      if (ends_on_boundary) extra.push_back(cell.path.back());
      cells.one_cells.push_back(std::move(cell));
    }
  }
  std::sort(extra.begin(), extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  for (int v : extra) {
    if (is_zero_cell[v]) continue;
    is_zero_cell[v] = 1;
    cells.zero_cells.push_back(v);
    ++cells.extra_boundary_points;
  }

  // boundary curves split at their 0-cells
  for (int k = 0; k < curves.count(); ++k) {
    const std::vector<int>& line = curves.polylines[k];
    // the 0-cells on this curve, placed at the nearest polyline point
    std::vector<std::pair<int, int>> cuts;  // polyline index, 0-cell
    for (int z = 0; z < static_cast<int>(cells.zero_cells.size()); ++z) {
      const int q = cells.zero_cells[z];
      if (curves.curve_of[q] != k) continue;
      int best = 0;
      double best_distance = 1e300;
      for (int i = 0; i < static_cast<int>(line.size()); ++i) {
        const double d = (points.row(line[i]) - points.row(q)).squaredNorm();
        if (d < best_distance) {
          best_distance = d;
          best = i;
        }
      }
      cuts.emplace_back(best, z);
    }
    std::sort(cuts.begin(), cuts.end());
    const int pieces = std::max<int>(1, static_cast<int>(cuts.size()));
    const bool uncut = cuts.empty();
    if (uncut) cuts.emplace_back(0, -1);
    for (int i = 0; i < pieces; ++i) {
      OneCell cell;
      cell.kind = OneCellKind::boundary_arc;
      cell.boundary_curve = k;
      const std::pair<int, int>& next = cuts[(i + 1) % cuts.size()];
      const int from = cuts[i].first;
      const int to = i + 1 < static_cast<int>(cuts.size()) ? next.first : cuts[0].first + static_cast<int>(line.size());
      for (int j = from; j <= to; ++j) cell.path.push_back(line[j % line.size()]);
      cell.cut_at = {cuts[i].second, next.second};
      cells.one_cells.push_back(std::move(cell));
    }
  }

  // 2-cells: label by the limit of Up, which climbs out of spurious discrete maxima as descend()
  // walks out of dips: to a 2-cell's top up to 3 edges away, else to the closest higher point
  // (or top). Points left without a label (no higher point within reach) take the most common
  // label of their neighbours, repeated until stable.
  cells.label.assign(n, -1);
  std::vector<int> top_to_cell(n, -1);
  std::vector<char> is_top(n, 0);
  for (int t = 0; t < static_cast<int>(cells.two_cells.size()); ++t) {
    top_to_cell[cells.two_cells[t]] = t;
    is_top[cells.two_cells[t]] = 1;
  }
  std::vector<int> limit(n, -1);
  for (int v = 0; v < n; ++v) {
    int u = v;
    std::vector<int> trail;
    while (limit[u] < 0 && !is_top[u]) {
      trail.push_back(u);
      if (flows.up[u] != u) {
        u = flows.up[u];
        continue;
      }
      std::vector<int> way = way_to_zero_cell(graph, is_top, u, 3);
      if (way.empty()) way = way_down(graph, f, is_top, u, true);
      if (way.empty()) break;
      trail.insert(trail.end(), way.begin(), way.end() - 1);
      u = way.back();
    }
    const int end = limit[u] >= 0 ? limit[u] : u;
    limit[u] = end;
    for (int t : trail) limit[t] = end;
    cells.label[v] = top_to_cell[end];
  }
  for (int pass = 0; pass < 50; ++pass) {
    bool changed = false;
    std::vector<int> next = cells.label;
    for (int v = 0; v < n; ++v) {
      if (cells.label[v] >= 0) continue;
      std::map<int, int> votes;
      for (const int* w = graph.begin(v); w != graph.end(v); ++w)
        if (cells.label[*w] >= 0) ++votes[cells.label[*w]];
      int best = -1, best_votes = 0;
      for (const auto& [l, count] : votes)
        if (count > best_votes) {
          best = l;
          best_votes = count;
        }
      if (best >= 0) {
        next[v] = best;
        changed = true;
      }
    }
    cells.label.swap(next);
    if (!changed) break;
  }

  int bd_max = 0, bd_min_not = 0, saddles = 0;
  for (const CriticalPoint& c : critical.points) {
    if (c.type == CriticalType::boundary_maximum || c.type == CriticalType::boundary_local_maximum) ++bd_max;
    if (c.type == CriticalType::boundary_minimum) ++bd_min_not;
    if (c.type == CriticalType::interior_saddle) ++saddles;
  }
  // the complex's cells (thesis §5.2.2 table): one 1-cell per saddle, per boundary maximum
  // (the boundary arc through it), per boundary-minimum flow, and per extra boundary 0-cell
  // (it splits a boundary arc in two)
  cells.counts[0] = static_cast<int>(cells.zero_cells.size());
  cells.counts[1] = saddles + bd_max + bd_min_not + cells.extra_boundary_points;
  cells.counts[2] = static_cast<int>(cells.two_cells.size());
  return cells;
}

}  // namespace tela::morse
