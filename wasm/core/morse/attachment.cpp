#include "morse/attachment.h"

#include <map>

namespace tela::morse {

Attachment attach_cells(const Positions& points, const NeighbourGraph& graph,
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
  return attachment;
}

}  // namespace tela::morse
