#include "morse/attachment.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace tela::morse {
namespace {

// The 0-cell at each end of each 1-cell: the 0-cell at that point; for a boundary arc, the
// 0-cells of its curve it was cut at (morse/cells.cpp; a curve without 0-cells is one arc
// without ends; 0-cells cut at the same point are joined by a one-point arc).
std::vector<std::array<int, 2>> cell_ends(const Cells& cells) {
  std::vector<std::array<int, 2>> ends;
  for (const OneCell& cell : cells.one_cells) {
    if (cell.kind == OneCellKind::boundary_arc) {
      ends.push_back(cell.cut_at);
      continue;
    }
    std::array<int, 2> end{-1, -1};
    for (int s = 0; s < 2 && !cell.path.empty(); ++s) {
      const int p = s == 0 ? cell.path.front() : cell.path.back();
      for (int z = 0; z < static_cast<int>(cells.zero_cells.size()) && end[s] < 0; ++z)
        if (cells.zero_cells[z] == p) end[s] = z;
    }
    ends.push_back(end);
  }
  return ends;
}

// An end of a 1-cell at its vertex: the points from the vertex outwards along the 1-cell.
struct End {
  int id;                    // 2 * 1-cell + (0: the path's start, 1: its end)
  std::vector<int> outward;  // the vertex's point first
};

// The normal at p, flipped to agree with `reference`; `reference` itself where the two are
// more than 60 degrees apart (noise), which would otherwise decide the flip at random.
Eigen::Vector3d aligned_normal(const std::vector<Eigen::Vector3d>& normals, int p, const Eigen::Vector3d& reference) {
  const Eigen::Vector3d& normal = normals[p];
  const double cosine = normal.dot(reference);
  if (std::abs(cosine) < 0.5 * reference.norm()) return reference;
  return cosine < 0 ? Eigen::Vector3d(-normal) : normal;
}

// The normal at a point of the 1-skeleton, which frames the order of the 1-cells round a vertex
// and is carried along the 1-cells: the principal direction of the normals of the point and its
// neighbours, signed to agree with the point's own. A boundary point's own plane is fitted to
// a neighbourhood stretched along the band, and its normal may lie anywhere across it.
Eigen::Vector3d smoothed_normal(const NeighbourGraph& graph, const std::vector<TangentPlane>& planes, int p) {
  Eigen::Matrix3d sum = planes[p].normal * planes[p].normal.transpose();
  for (const int* w = graph.begin(p); w != graph.end(p); ++w) sum += planes[*w].normal * planes[*w].normal.transpose();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(sum);
  const Eigen::Vector3d normal = solver.eigenvectors().col(2);
  return normal.dot(planes[p].normal) < 0 ? Eigen::Vector3d(-normal) : normal;
}

// The angle of d about `normal`, counter-clockwise from `reference`, in [0, 2 pi).
double angle_about(const Eigen::Vector3d& d, const Eigen::Vector3d& reference, const Eigen::Vector3d& normal) {
  Eigen::Vector3d u = reference - reference.dot(normal) * normal;
  if (u.squaredNorm() == 0) u = normal.unitOrthogonal();
  u.normalize();
  const double angle = std::atan2(d.dot(normal.cross(u)), d.dot(u));
  return angle < 0 ? angle + 2 * 3.14159265358979323846 : angle;
}

// Where paths part, each is seen in the direction of its point kReach steps on: descending paths
// run into a minimum nearly along one line from either side, so the first steps of two paths
// arriving side by side are ordered by noise.
constexpr int kReach = 8;

// The ends in `group` (all through the point outward[depth]) in counter-clockwise order about
// the normal, appended to `order`. Ends that share their first points (descending paths that
// merged before their 0-cell) form a tree rooted at the vertex, drawn in the surface: where
// they part, the branches are ordered counter-clockwise from the direction back towards the
// vertex, and the order round the vertex is the tree's depth-first order.
void order_ends(const Positions& points, const std::vector<Eigen::Vector3d>& normals, const std::vector<End>& ends,
                std::vector<int> group, int depth, Eigen::Vector3d normal, Eigen::Vector3d reference,
                std::vector<int>& order) {
  for (;;) {
    const int p = ends[group.front()].outward[depth];
    normal = aligned_normal(normals, p, normal);
    std::map<int, std::vector<int>> by_next;
    for (int e : group) {
      if (static_cast<int>(ends[e].outward.size()) == depth + 1) order.push_back(e);  // stops here
      else by_next[ends[e].outward[depth + 1]].push_back(e);
    }
    if (by_next.empty()) return;
    if (by_next.size() == 1) {  // no parting here: walk on
      const int next = by_next.begin()->first;
      group = by_next.begin()->second;
      reference = (points.row(p) - points.row(next)).transpose();
      ++depth;
      continue;
    }
    std::vector<std::pair<double, int>> branches;
    for (const auto& [next, members] : by_next) {
      const std::vector<int>& out = ends[members.front()].outward;
      const int ahead = out[std::min<std::size_t>(depth + kReach, out.size() - 1)];
      branches.emplace_back(angle_about((points.row(ahead) - points.row(p)).transpose(), reference, normal), next);
    }
    std::sort(branches.begin(), branches.end());
    for (const auto& [angle, next] : branches)
      order_ends(points, normals, ends, by_next[next], depth + 1, normal,
                 (points.row(p) - points.row(next)).transpose(), order);
    return;
  }
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
                        const BoundaryCurves& curves, const std::vector<TangentPlane>& planes, const Cells& cells) {
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
  attachment.ends = cell_ends(cells);

  // the vertices of the 1-skeleton: the 0-cells, then the points where a 1-cell ends without
  // one (a boundary curve without 0-cells closes on itself there; a descending path that
  // stopped elsewhere is a dead end, and the words through it are not complete)
  std::vector<int> vertex_point = cells.zero_cells;
  const int zero_count = static_cast<int>(vertex_point.size());
  std::map<int, int> extra_vertex;
  std::vector<std::array<int, 2>> vertex_of(count);
  std::vector<char> closed(count, 0);  // a boundary curve without 0-cells: one arc, no corner
  for (int c = 0; c < count; ++c) {
    const OneCell& cell = cells.one_cells[c];
    closed[c] = cell.kind == OneCellKind::boundary_arc && attachment.ends[c][0] < 0 && attachment.ends[c][1] < 0 &&
                cell.path.size() > 1 && cell.path.front() == cell.path.back();
    for (int s = 0; s < 2; ++s) {
      if (attachment.ends[c][s] >= 0) {
        vertex_of[c][s] = attachment.ends[c][s];
        continue;
      }
      const int p = s == 0 ? cell.path.front() : cell.path.back();
      const auto found = extra_vertex.find(p);
      if (found != extra_vertex.end()) {
        vertex_of[c][s] = found->second;
        continue;
      }
      vertex_of[c][s] = extra_vertex[p] = static_cast<int>(vertex_point.size());
      vertex_point.push_back(p);
      if (!closed[c])
        attachment.problems.push_back("1-cell " + std::to_string(c) + " ends at point " + std::to_string(p) +
                                      ", not at a 0-cell");
    }
  }
  const int vertex_count = static_cast<int>(vertex_point.size());
  std::vector<Eigen::Vector3d> normals(n, Eigen::Vector3d::Zero());  // smoothed, on the 1-skeleton
  for (const OneCell& cell : cells.one_cells)
    for (int v : cell.path)
      if (normals[v].isZero()) normals[v] = smoothed_normal(graph, planes, v);
  std::vector<Eigen::Vector3d> frame(vertex_count);
  for (int v = 0; v < vertex_count; ++v) frame[v] = normals[vertex_point[v]] = smoothed_normal(graph, planes, vertex_point[v]);

  // along each 1-cell, the normal carried from its first vertex's: whether it arrives flipped
  // against the last vertex's normal (a twist), the 2-cell labels of the points on either side
  // (left: normal x tangent; only where one 1-cell runs alone), and for a boundary arc the side
  // its neighbours lie on (the inside of the surface)
  std::vector<int> cells_at(n, 0);
  for (int c = 0; c < count; ++c) {
    std::vector<int> path = cells.one_cells[c].path;
    std::sort(path.begin(), path.end());
    path.erase(std::unique(path.begin(), path.end()), path.end());
    for (int v : path) ++cells_at[v];
  }
  std::vector<char> twist(count, 0);
  std::vector<std::array<std::map<int, int>, 2>> side_labels(count);
  std::vector<int> inside(count, -1);
  std::vector<int> depth(n, -1), ball;
  for (int c = 0; c < count; ++c) {
    const std::vector<int>& path = cells.one_cells[c].path;
    Eigen::Vector3d normal = frame[vertex_of[c][0]];
    Eigen::Vector3d top_across = Eigen::Vector3d::Zero();
    long inward = 0;
    for (std::size_t i = 0; i < path.size(); ++i) {
      const int q = path[i];
      normal = aligned_normal(normals, q, normal);
      const int prev = path[i > 0 ? i - 1 : i];
      const int next = path[i + 1 < path.size() ? i + 1 : i];
      const Eigen::Vector3d tangent = (points.row(next) - points.row(prev)).transpose();
      if (tangent.squaredNorm() == 0) continue;
      const Eigen::Vector3d across = normal.cross(tangent);
      if (q == cells.one_cells[c].top) top_across = across;
      for (const int* w = graph.begin(q); w != graph.end(q); ++w) {
        if (on_cell[*w] >= 0) continue;
        const double side = across.dot((points.row(*w) - points.row(q)).transpose());
        if (side == 0) continue;
        inward += side > 0 ? 1 : -1;
        if (cells_at[q] == 1 && cells.label[*w] >= 0) ++side_labels[c][side > 0 ? 0 : 1][cells.label[*w]];
      }
    }
    // a saddle 1-cell: the points beside it climb to the saddle and part there, where the flow
    // is flat and the discrete Up chooses at random; its sides are told by the saddle's sides
    // above instead (the labels of the points above it on the rim of its 5-edge ball, by the
    // side of the 1-cell they lie on), when there are such points on both sides
    if (top_across.squaredNorm() > 0) {
      const int t = cells.one_cells[c].top;
      const int rings = 5;
      std::array<std::map<int, int>, 2> above;
      ball.assign(1, t);
      depth[t] = 0;
      for (std::size_t head = 0; head < ball.size(); ++head) {
        const int u = ball[head];
        if (depth[u] == rings) {
          const double side = top_across.dot((points.row(u) - points.row(t)).transpose());
          if (f[u] > f[t] && side != 0 && cells.label[u] >= 0) ++above[side > 0 ? 0 : 1][cells.label[u]];
          continue;
        }
        for (const int* w = graph.begin(u); w != graph.end(u); ++w)
          if (depth[*w] < 0) {
            depth[*w] = depth[u] + 1;
            ball.push_back(*w);
          }
      }
      for (int u : ball) depth[u] = -1;
      if (!above[0].empty() && !above[1].empty()) side_labels[c] = above;
    }
    twist[c] = normal.dot(frame[vertex_of[c][1]]) < 0 ? 1 : 0;
    if (cells.one_cells[c].kind == OneCellKind::boundary_arc) inside[c] = inward >= 0 ? 0 : 1;
  }

  // the cyclic order of the 1-cell ends round each vertex (the 1-skeleton drawn in the surface)
  std::vector<End> ends;
  std::vector<std::vector<int>> ends_at(vertex_count);
  for (int c = 0; c < count; ++c)
    for (int s = 0; s < 2; ++s) {
      const std::vector<int>& path = cells.one_cells[c].path;
      End end{2 * c + s, {}};
      const int vertex = vertex_point[vertex_of[c][s]];
      if ((s == 0 ? path.front() : path.back()) != vertex) end.outward.push_back(vertex);  // an arc cut beside its 0-cell
      if (s == 0) end.outward.insert(end.outward.end(), path.begin(), path.end());
      else end.outward.insert(end.outward.end(), path.rbegin(), path.rend());
      ends_at[vertex_of[c][s]].push_back(static_cast<int>(ends.size()));
      ends.push_back(std::move(end));
    }
  std::vector<std::vector<int>> rotation(vertex_count);  // end ids, counter-clockwise
  std::vector<int> position(2 * count, 0);
  for (int v = 0; v < vertex_count; ++v) {
    if (ends_at[v].empty()) continue;
    const int p = vertex_point[v];
    std::vector<int> order;
    order_ends(points, normals, ends, ends_at[v], 0, frame[v], planes[p].t1, order);
    // on the boundary the ends inside lie between the two arcs: first the arc with the inside
    // on its left (counter-clockwise of it), last the other (the order found for the ends
    // that leave along the boundary band first is not to be trusted there)
    std::vector<int> arcs;
    for (int e : order)
      if (inside[ends[e].id / 2] >= 0) arcs.push_back(e);
    if (arcs.size() == 2) {
      auto inside_left = [&](int e) {
        const int c = ends[e].id / 2, s = ends[e].id % 2;
        return s == 0 ? inside[c] == 0 : inside[c] == (1 ^ twist[c]);
      };
      if (inside_left(arcs[0]) != inside_left(arcs[1])) {
        const int first = inside_left(arcs[0]) ? arcs[0] : arcs[1];
        const int last = first == arcs[0] ? arcs[1] : arcs[0];
        const auto at = std::find(order.begin(), order.end(), first);
        std::rotate(order.begin(), at, order.end());
        order.erase(std::find(order.begin(), order.end(), last));
        order.push_back(last);
      }
    }
    for (int e : order) {
      position[ends[e].id] = static_cast<int>(rotation[v].size());
      rotation[v].push_back(ends[e].id);
    }
  }

  // the crown flowed down to the 1-skeleton is the walk round its 2-cell: along a 1-cell with
  // the 2-cell on its left (in the frame carried along the walk), then at the vertex on to the
  // next end clockwise (counter-clockwise while the frame is flipped). Each side of each
  // 1-cell is walked once; the walks along the outside of boundary arcs are the holes.
  std::vector<std::array<char, 2>> used(count, {0, 0});
  struct Dart {
    AttachingEdge letter;
    int side;  // 0: left of the path in its first vertex's frame, 1: right
  };
  std::vector<std::vector<Dart>> walks;
  for (int c = 0; c < count; ++c)
    for (int first_side = 0; first_side < 2; ++first_side) {
      if (used[c][first_side]) continue;
      std::vector<Dart> walk;
      int end = 2 * c;         // leaving by the path's start ...
      int flip = first_side;   // ... with the walk's 2-cell on the left (0) or right (1) in its frame
      for (int guard = 0; guard <= 2 * count; ++guard) {
        const int cell = end / 2, s = end % 2;
        const int side = s == 0 ? flip : 1 ^ flip ^ twist[cell];
        if (used[cell][side]) break;
        used[cell][side] = 1;
        walk.push_back({{cell, s == 0 ? 1 : -1}, side});
        flip ^= twist[cell];
        const int arrive = 2 * cell + 1 - s;
        const std::vector<int>& round = rotation[vertex_of[cell][1 - s]];
        const int k = static_cast<int>(round.size());
        end = flip == 0 ? round[(position[arrive] + k - 1) % k] : round[(position[arrive] + 1) % k];
      }
      walks.push_back(std::move(walk));
    }

  // each walk to the 2-cell on its sides; a 2-cell without a walk is attached to a point (the
  // 0-cell without 1-cells in it)
  const int two_count = static_cast<int>(cells.two_cells.size());
  attachment.words.assign(two_count, {});
  attachment.collapses_to.assign(two_count, -1);
  std::vector<int> walk_of(two_count, -1);
  std::vector<int> extra_walks(two_count, 0);  // walks beside a 2-cell that already has one
  int holes = 0;
  for (int w = 0; w < static_cast<int>(walks.size()); ++w) {
    int outside = 0;
    for (const Dart& d : walks[w])
      if (inside[d.letter.cell] >= 0 && d.side != inside[d.letter.cell]) ++outside;
    if (outside > 0) {
      ++holes;
      if (outside < static_cast<int>(walks[w].size()))
        attachment.problems.push_back("a walk runs both outside the boundary and along 1-cells inside it");
      continue;
    }
    std::map<int, int> votes;
    for (const Dart& d : walks[w])
      for (const auto& [label, v] : side_labels[d.letter.cell][d.side]) votes[label] += v;
    int best = -1, best_votes = 0;
    for (const auto& [label, v] : votes)
      if (v > best_votes) {
        best = label;
        best_votes = v;
      }
    if (best < 0) {
      attachment.problems.push_back("a walk round 1-cells with no 2-cell beside them");
      continue;
    }
    for (const Dart& d : walks[w]) {
      int own = -1, own_votes = 0;
      for (const auto& [label, v] : side_labels[d.letter.cell][d.side])
        if (v > own_votes) {
          own = label;
          own_votes = v;
        }
      if (own >= 0 && own != best) ++attachment.side_mismatches;
    }
    if (walk_of[best] >= 0) {
      ++extra_walks[best];
      continue;
    }
    walk_of[best] = w;
    for (const Dart& d : walks[w]) attachment.words[best].push_back(d.letter);
  }
  for (int t = 0; t < two_count; ++t)
    if (extra_walks[t] > 0)
      attachment.problems.push_back("2-cell " + std::to_string(t) + " is beside " + std::to_string(1 + extra_walks[t]) +
                                    " walks");
  if (holes != curves.count())
    attachment.problems.push_back(std::to_string(holes) + " walks outside the boundary for " +
                                  std::to_string(curves.count()) + " boundary curves");
  std::vector<int> lone;  // 0-cells without 1-cells
  for (int z = 0; z < zero_count; ++z)
    if (rotation[z].empty()) lone.push_back(z);
  std::vector<int> without_walk;
  for (int t = 0; t < two_count; ++t)
    if (walk_of[t] < 0) without_walk.push_back(t);
  for (int t : without_walk) {
    for (int z : lone)
      if (cells.label[cells.zero_cells[z]] == t) attachment.collapses_to[t] = z;
    if (attachment.collapses_to[t] < 0 && without_walk.size() == 1 && lone.size() == 1) attachment.collapses_to[t] = lone[0];
    if (attachment.collapses_to[t] < 0)
      attachment.problems.push_back("2-cell " + std::to_string(t) + " has no walk and no 0-cell of its own");
  }
  if (attachment.side_mismatches > 0)
    attachment.problems.push_back(std::to_string(attachment.side_mismatches) +
                                  " letters have another 2-cell beside them than their word's");

  // checks
  attachment.uses.assign(count, 0);
  for (const auto& word : attachment.words)
    for (const AttachingEdge& e : word) ++attachment.uses[e.cell];
  for (int c = 0; c < count; ++c) {
    const int expected = cells.one_cells[c].kind == OneCellKind::boundary_arc ? 1 : 2;
    if (attachment.uses[c] != expected)
      attachment.problems.push_back("1-cell " + std::to_string(c) + " is in the words " +
                                    std::to_string(attachment.uses[c]) + " times, not " + std::to_string(expected));
  }
  for (const auto& word : attachment.words)
    for (std::size_t i = 0; i < word.size(); ++i) {
      const AttachingEdge& a = word[i];
      const AttachingEdge& b = word[(i + 1) % word.size()];
      const int a_end = vertex_of[a.cell][a.sign > 0 ? 1 : 0];
      const int b_start = vertex_of[b.cell][b.sign > 0 ? 0 : 1];
      if (a_end != b_start || (a_end >= zero_count && !closed[a.cell])) ++attachment.corner_mismatches;
    }
  attachment.complete = attachment.problems.empty() && attachment.corner_mismatches == 0;
  attachment.orientable = attachment.complete ? (words_orientable(attachment.words, count) ? 1 : 0) : -1;
  return attachment;
}

}  // namespace tela::morse
