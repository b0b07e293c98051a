#include "dgli/cloth_boundary.h"

#include "geometry/topology.h"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace tela {

double perimeter_length(const Positions& points) {
  double length = 0;
  const Eigen::Index n = points.rows();
  for (Eigen::Index k = 0; k < n; ++k) length += (points.row((k + 1) % n) - points.row(k)).norm();
  return length;
}

Eigen::Vector3d point_at_arc_length(const Positions& points, double s) {
  const Eigen::Index n = points.rows();
  const double total = perimeter_length(points);
  s = std::fmod(s, total);
  if (s < 0) s += total;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Vector3d p = points.row(k).transpose(), q = points.row((k + 1) % n).transpose();
    const double length = (q - p).norm();
    if (s <= length || k == n - 1) {
      const double w = length > 0 ? std::min(s / length, 1.0) : 0.0;
      return p + w * (q - p);
    }
    s -= length;
  }
  return points.row(0).transpose();
}

Result<BoundaryCurve> mesh_boundary(const Mesh& mesh, const Positions& positions, int corner_count) {
  using R = Result<BoundaryCurve>;
  if (positions.rows() != mesh.node_count())
    return R::failure("positions: " + std::to_string(positions.rows()) + " rows for a mesh of " +
                      std::to_string(mesh.node_count()) + " nodes");
  if (!positions.allFinite()) return R::failure("positions: non-finite coordinate");
  Mesh current;
  current.positions = positions;
  current.faces = mesh.faces;
  const BoundaryLoops loops = boundary_loops(current);
  if (!loops.ok) return R::failure("mesh: " + loops.message);
  if (loops.loops.empty()) return R::failure("mesh: has no boundary");
  const std::vector<int>& loop = loops.loops.front();
  if (loop.size() < 4) return R::failure("mesh: the boundary loop has fewer than 4 nodes");

  BoundaryCurve curve;
  curve.nodes = loop;
  curve.ignored_loops = static_cast<int>(loops.loops.size()) - 1;
  curve.points.resize(static_cast<Eigen::Index>(loop.size()), 3);
  for (std::size_t k = 0; k < loop.size(); ++k) curve.points.row(k) = positions.row(loop[k]);

  // interior angle sums (pi on a straight boundary, pi/2 at a rectangle's corner)
  std::vector<double> angle(mesh.node_count(), 0.0);
  for (const Face& f : mesh.faces) {
    const int m = f.size();
    for (int i = 0; i < m; ++i) {
      const Eigen::Vector3d p = positions.row(f.v[i]).transpose();
      const Eigen::Vector3d u = positions.row(f.v[(i + 1) % m]).transpose() - p;
      const Eigen::Vector3d v = positions.row(f.v[(i + m - 1) % m]).transpose() - p;
      angle[f.v[i]] += std::atan2(u.cross(v).norm(), u.dot(v));
    }
  }
  std::vector<int> order(loop.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return angle[loop[i]] < angle[loop[j]]; });
  const double limit = 0.8 * 3.14159265358979323846;
  if (corner_count > 0 && static_cast<int>(order.size()) >= corner_count &&
      angle[loop[order[corner_count - 1]]] < limit) {
    std::vector<int> corner_points(order.begin(), order.begin() + corner_count);
    std::sort(corner_points.begin(), corner_points.end());
    double s = 0;
    int next = 0;
    for (int k = 0; k < static_cast<int>(loop.size()) && next < corner_count; ++k) {
      if (k == corner_points[next]) {
        curve.corners.push_back(s);
        ++next;
      }
      s += (curve.points.row((k + 1) % loop.size()) - curve.points.row(k)).norm();
    }
  }
  return R::success(std::move(curve));
}

Result<BoundaryCurve> polyline_boundary(const Positions& points) {
  using R = Result<BoundaryCurve>;
  if (points.rows() < 4) return R::failure("boundary: needs at least 4 points (got " + std::to_string(points.rows()) + ")");
  for (Eigen::Index k = 0; k < points.rows(); ++k) {
    if (!points.row(k).allFinite()) return R::failure("boundary: point " + std::to_string(k + 1) + " is not finite");
    if (points.row(k) == points.row((k + 1) % points.rows()))
      return R::failure("boundary: points " + std::to_string(k + 1) + " and " +
                        std::to_string((k + 1) % points.rows() + 1) + " coincide");
  }
  BoundaryCurve curve;
  curve.points = points;
  return R::success(std::move(curve));
}

}  // namespace tela
