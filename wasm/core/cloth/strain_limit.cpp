#include "cloth/strain_limit.h"

#include <algorithm>
#include <cmath>

namespace tela {

StrainLimit::StrainLimit(const Mesh& mesh, double epsilon) : epsilon_(epsilon) {
  if (!(epsilon > 0)) return;
  for (const Face& f : mesh.faces) {
    const int m = f.size();
    // triangles: the three edges; quads: the four edges and the two diagonals
    for (int i = 0; i < m; ++i)
      for (int j = i + 1; j < m; ++j) pairs_.push_back({std::min(f.v[i], f.v[j]), std::max(f.v[i], f.v[j])});
  }
  std::sort(pairs_.begin(), pairs_.end());
  pairs_.erase(std::unique(pairs_.begin(), pairs_.end()), pairs_.end());
  rest_.reserve(pairs_.size());
  for (const auto& p : pairs_) rest_.push_back((mesh.positions.row(p[0]) - mesh.positions.row(p[1])).norm());
}

void StrainLimit::rows(const Positions& current, const std::vector<char>& controlled,
                       std::vector<ContactConstraint>& out) const {
  if (!enabled()) return;
  for (std::size_t i = 0; i < pairs_.size(); ++i) {
    const int a = pairs_[i][0], b = pairs_[i][1];
    if (controlled[a] && controlled[b]) continue;
    const Eigen::Vector3d d = (current.row(a) - current.row(b)).transpose();
    const double length = d.norm();
    if (!(length > (1 + kStrainLimitNear * epsilon_) * rest_[i])) continue;  // also skips NaN
    ContactConstraint c;
    c.nodes = {a, b, -1, -1};
    c.weights = {-1, 1, 0, 0};
    c.normal = d / length;
    c.offset = -(1 + epsilon_) * rest_[i];
    c.mu = 0;
    c.source = kStrainLimitSource;
    out.push_back(c);
  }
}

double StrainLimit::max_stretch(const Positions& positions) const {
  double most = 0;
  for (std::size_t i = 0; i < pairs_.size(); ++i)
    if (rest_[i] > 0)
      most = std::max(most, (positions.row(pairs_[i][0]) - positions.row(pairs_[i][1])).norm() / rest_[i] - 1);
  return most;
}

}  // namespace tela
