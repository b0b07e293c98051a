#include "morse/attachment.h"

#include "morse/crowns.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <utility>

namespace tela::morse {
namespace {

struct Stop {
  int cell;
  int index;  // along the 1-cell's path
};

// The 0-cell at each end of each 1-cell: the 0-cell at that point; for a boundary arc, the 0-cell
// of its curve whose cut (its nearest polyline point, as in morse/cells.cpp) is that point (a
// curve without 0-cells is one arc without ends).
std::vector<std::array<int, 2>> cell_ends(const Positions& points, const BoundaryCurves& curves, const Cells& cells) {
  std::vector<int> cut_of(cells.zero_cells.size(), -1);  // polyline point of each boundary 0-cell
  for (int z = 0; z < static_cast<int>(cells.zero_cells.size()); ++z) {
    const int q = cells.zero_cells[z];
    const int k = curves.curve_of[q];
    if (k < 0) continue;
    double best = 1e300;
    for (int v : curves.polylines[k]) {
      const double d = (points.row(v) - points.row(q)).squaredNorm();
      if (d < best) {
        best = d;
        cut_of[z] = v;
      }
    }
  }
  std::vector<std::array<int, 2>> ends;
  for (const OneCell& cell : cells.one_cells) {
    std::array<int, 2> end{-1, -1};
    for (int s = 0; s < 2 && !cell.path.empty(); ++s) {
      const int p = s == 0 ? cell.path.front() : cell.path.back();
      for (int z = 0; z < static_cast<int>(cells.zero_cells.size()) && end[s] < 0; ++z)
        if (cell.kind == OneCellKind::boundary_arc ? cut_of[z] == p && curves.curve_of[cells.zero_cells[z]] == cell.boundary_curve
                                                   : cells.zero_cells[z] == p)
          end[s] = z;
    }
    ends.push_back(end);
  }
  return ends;
}

// Multi-source breadth-first search from the points with on[v] != 0: the next point on a
// shortest path (in edges) towards them, v itself on them, -1 if none is connected to v.
std::vector<int> toward_marked(const NeighbourGraph& graph, const std::vector<char>& on) {
  std::vector<int> toward(graph.size(), -1);
  std::vector<int> queue;
  for (int v = 0; v < graph.size(); ++v)
    if (on[v]) {
      toward[v] = v;
      queue.push_back(v);
    }
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (const int* w = graph.begin(queue[head]); w != graph.end(queue[head]); ++w)
      if (toward[*w] < 0) {
        toward[*w] = queue[head];
        queue.push_back(*w);
      }
  return toward;
}

// The attaching word read off a flowed crown (see attachment.h for the choices).
std::vector<AttachingEdge> read_word(const std::vector<int>& matched, const std::vector<std::vector<Stop>>& stops_at,
                                     const Cells& cells) {
  // one stop per crown point: keep the current 1-cell when the point is on it, else the
  // candidate that the following points stay on longest
  std::vector<int> crown;
  for (int v : matched)
    if (v >= 0 && stops_at[v].size() == 1) crown.push_back(v);
  const int size = static_cast<int>(crown.size());
  if (size == 0) return {};
  std::vector<Stop> chosen;
  int current = -1;
  for (int i = 0; i < size; ++i) {
    const std::vector<Stop>& options = stops_at[crown[i]];
    const Stop* pick = nullptr;
    for (const Stop& s : options)
      if (s.cell == current) pick = &s;
    if (!pick) {
      int best_run = -1;
      for (const Stop& s : options) {
        int run = 0;
        for (int j = 1; j < size && run < 64; ++j, ++run) {
          const std::vector<Stop>& later = stops_at[crown[(i + j) % size]];
          if (std::none_of(later.begin(), later.end(), [&](const Stop& t) { return t.cell == s.cell; })) break;
        }
        if (run > best_run) {
          best_run = run;
          pick = &s;
        }
      }
    }
    chosen.push_back(*pick);
    current = pick->cell;
  }
  // start the cyclic reading at a change of 1-cell, so that no run is cut by the seam
  int start = 0;
  for (int i = 0; i < size; ++i)
    if (chosen[i].cell != chosen[(i + size - 1) % size].cell) {
      start = i;
      break;
    }
  struct Run {
    int cell, first, last, low, high;
  };
  std::vector<Run> runs;
  int direction = 0;
  for (int k = 0; k < size; ++k) {
    const Stop& s = chosen[(start + k) % size];
    const int length = static_cast<int>(cells.one_cells[s.cell].path.size());
    const int turn = std::max(2, length / 10);
    bool split = runs.empty() || runs.back().cell != s.cell;
    if (!split) {
      Run& r = runs.back();
      const int delta = s.index - r.last;
      if (2 * std::abs(delta) > length) split = true;  // jumped: a new pass along the 1-cell
      else if (direction == 0 && std::abs(s.index - r.first) >= turn) direction = s.index > r.first ? 1 : -1;
      else if (direction > 0 && r.high - s.index >= turn) split = true;
      else if (direction < 0 && s.index - r.low >= turn) split = true;
    }
    if (split) {
      runs.push_back({s.cell, s.index, s.index, s.index, s.index});
      direction = 0;
    } else {
      Run& r = runs.back();
      r.last = s.index;
      r.low = std::min(r.low, s.index);
      r.high = std::max(r.high, s.index);
    }
  }
  // letters: runs covering at least a quarter of their 1-cell; neighbours of the same 1-cell and
  // sign that continue each other are one letter
  std::vector<std::pair<AttachingEdge, Run>> letters;
  for (const Run& r : runs) {
    const int length = static_cast<int>(cells.one_cells[r.cell].path.size());
    if (r.last == r.first || 4 * (r.high - r.low) < length - 1) continue;
    const AttachingEdge e{r.cell, r.last > r.first ? 1 : -1};
    if (!letters.empty() && letters.back().first.cell == e.cell && letters.back().first.sign == e.sign &&
        2 * std::abs(r.first - letters.back().second.last) <= length) {
      letters.back().second.last = r.last;
      continue;
    }
    letters.push_back({e, r});
  }
  while (letters.size() > 1 && letters.front().first.cell == letters.back().first.cell &&
         letters.front().first.sign == letters.back().first.sign &&
         2 * std::abs(letters.front().second.first - letters.back().second.last) <=
             static_cast<int>(cells.one_cells[letters.front().first.cell].path.size())) {
    letters.front().second.first = letters.back().second.first;
    letters.pop_back();
  }
  std::vector<AttachingEdge> word;
  for (const auto& [e, r] : letters) word.push_back(e);
  return word;
}

// Orientability from the words: a sign per 2-cell such that each 1-cell's two letters have
// opposite signs (union-find with parity); false on a contradiction.
bool words_orientable(const std::vector<std::vector<AttachingEdge>>& words, int one_cells) {
  const int count = static_cast<int>(words.size());
  std::vector<int> parent(count), parity(count, 0);
  for (int t = 0; t < count; ++t) parent[t] = t;
  auto find = [&](int t, int* p) {
    *p = 0;
    while (parent[t] != t) {
      *p ^= parity[t];
      t = parent[t];
    }
    return t;
  };
  std::vector<std::vector<std::pair<int, int>>> letters(one_cells);  // per 1-cell: (2-cell, sign)
  for (int t = 0; t < count; ++t)
    for (const AttachingEdge& e : words[t]) letters[e.cell].push_back({t, e.sign});
  for (const auto& uses : letters) {
    if (uses.size() != 2) continue;
    // flip_a xor flip_b must make the signs opposite: (s_a * (-1)^flip_a) = -(s_b * (-1)^flip_b)
    const int need = (uses[0].second == uses[1].second) ? 1 : 0;  // flip_a xor flip_b
    int pa = 0, pb = 0;
    const int ra = find(uses[0].first, &pa), rb = find(uses[1].first, &pb);
    if (ra == rb) {
      if ((pa ^ pb) != need) return false;
    } else {
      parent[ra] = rb;
      parity[ra] = pa ^ pb ^ need;
    }
  }
  return true;
}

}  // namespace

Attachment attach_cells(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                        const Flows& flows, const BoundaryCurves& curves,
                        const std::vector<TangentPlane>& planes, const Cells& cells) {
  Attachment attachment;
  const int n = graph.size();
  const int count = static_cast<int>(cells.one_cells.size());
  attachment.sides.assign(count, {-1, -1});
  attachment.boundary_of.assign(cells.two_cells.size(), {});
  std::vector<int> on_cell(n, -1);
  for (int c = 0; c < count; ++c)
    for (int v : cells.one_cells[c].path) on_cell[v] = c;
  for (int c = 0; c < count; ++c) {
    const std::vector<int>& path = cells.one_cells[c].path;
    std::map<int, int> votes[2];
    for (std::size_t i = 0; i < path.size(); ++i) {
      const int q = path[i];
      const int prev = path[i > 0 ? i - 1 : i];
      const int next = path[i + 1 < path.size() ? i + 1 : i];
      const Eigen::Vector3d tangent = (points.row(next) - points.row(prev)).transpose();
      if (tangent.squaredNorm() == 0) continue;
      const Eigen::Vector3d across = planes[q].normal.cross(tangent);
      for (const int* w = graph.begin(q); w != graph.end(q); ++w) {
        if (on_cell[*w] == c || cells.label[*w] < 0) continue;
        const double side = across.dot((points.row(*w) - points.row(q)).transpose());
        if (side == 0) continue;
        ++votes[side > 0 ? 0 : 1][cells.label[*w]];
      }
    }
    for (int s = 0; s < 2; ++s) {
      int best = -1, best_votes = 0;
      for (const auto& [label, v] : votes[s])
        if (v > best_votes) {
          best = label;
          best_votes = v;
        }
      attachment.sides[c][s] = best;
      if (best >= 0) attachment.boundary_of[best].push_back(c);
    }
  }

  // 1-cells to 0-cells
  attachment.ends = cell_ends(points, curves, cells);
  // 2-cells to 1-cells: flow a crown from each maximum
  std::vector<std::vector<Stop>> stops_at(n);
  std::vector<char> on_one_cell(n, 0);
  for (int c = 0; c < count; ++c)
    for (int i = 0; i < static_cast<int>(cells.one_cells[c].path.size()); ++i) {
      const int v = cells.one_cells[c].path[i];
      stops_at[v].push_back({c, i});
      on_one_cell[v] = 1;
    }
  const std::vector<int> toward = toward_marked(graph, on_one_cell);
  std::vector<int> zero_of(n, -1);
  for (int z = 0; z < static_cast<int>(cells.zero_cells.size()); ++z) zero_of[cells.zero_cells[z]] = z;
  for (int t = 0; t < static_cast<int>(cells.two_cells.size()); ++t) {
    const int m = cells.two_cells[t];
    const CrownFlow crown = flow_crown(points, graph, f, flows, planes[m], m, on_one_cell, toward);
    attachment.crown_steps += crown.steps;
    attachment.truncated_crowns += crown.truncated ? 1 : 0;
    attachment.words.push_back(read_word(crown.matched, stops_at, cells));
    attachment.collapses_to.push_back(attachment.words.back().empty() && crown.final_point >= 0
                                          ? zero_of[crown.final_point]
                                          : -1);
  }

  // checks
  attachment.uses.assign(count, 0);
  for (const auto& word : attachment.words)
    for (const AttachingEdge& e : word) ++attachment.uses[e.cell];
  bool complete = attachment.truncated_crowns == 0;
  for (int c = 0; c < count; ++c)
    if (attachment.uses[c] != (cells.one_cells[c].kind == OneCellKind::boundary_arc ? 1 : 2)) complete = false;
  for (int t = 0; t < static_cast<int>(attachment.words.size()); ++t) {
    const auto& word = attachment.words[t];
    if (word.empty() && attachment.collapses_to[t] < 0) complete = false;
    for (std::size_t i = 0; i < word.size(); ++i) {
      const AttachingEdge& a = word[i];
      const AttachingEdge& b = word[(i + 1) % word.size()];
      const int a_end = attachment.ends[a.cell][a.sign > 0 ? 1 : 0];
      const int b_start = attachment.ends[b.cell][b.sign > 0 ? 0 : 1];
      if (a_end < 0 || a_end != b_start) ++attachment.corner_mismatches;
    }
  }
  attachment.complete = complete && attachment.corner_mismatches == 0;
  attachment.orientable = complete ? (words_orientable(attachment.words, count) ? 1 : 0) : -1;
  return attachment;
}

}  // namespace tela::morse
