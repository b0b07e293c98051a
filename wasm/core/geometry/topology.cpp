#include "geometry/topology.h"

#include "geometry/reference_element.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <tuple>

namespace tela {
namespace {

// one side of a face: directed a -> b in the face's winding, keyed by the undirected edge
struct Side {
  Edge edge;  // smaller index first
  int a, b;
  bool operator<(const Side& o) const {
    return std::tie(edge, a, b) < std::tie(o.edge, o.a, o.b);
  }
};

// all face sides, sorted so that the sides of one edge are adjacent
std::vector<Side> sorted_sides(const Mesh& mesh) {
  std::vector<Side> sides;
  for (const Face& f : mesh.faces) {
    const int m = f.size();
    for (int i = 0; i < m; ++i) {
      const int a = f.v[i], b = f.v[(i + 1) % m];
      sides.push_back({{std::min(a, b), std::max(a, b)}, a, b});
    }
  }
  std::sort(sides.begin(), sides.end());
  return sides;
}

}  // namespace

std::vector<Edge> mesh_edges(const Mesh& mesh) {
  std::vector<Edge> edges;
  for (const Side& s : sorted_sides(mesh))
    if (edges.empty() || edges.back() != s.edge) edges.push_back(s.edge);
  return edges;
}

std::vector<Edge> boundary_edges(const Mesh& mesh) {
  const std::vector<Side> sides = sorted_sides(mesh);
  std::vector<Edge> edges;
  for (std::size_t k = 0; k < sides.size();) {
    std::size_t end = k;
    while (end < sides.size() && sides[end].edge == sides[k].edge) ++end;
    if (end - k == 1) edges.push_back(sides[k].edge);
    k = end;
  }
  return edges;
}

BoundaryLoops boundary_loops(const Mesh& mesh) {
  BoundaryLoops result;
  const int n = mesh.node_count();
  auto fail = [&](const std::string& message) {
    result.loops.clear();
    result.ok = false;
    result.message = message;
    return result;
  };

  // boundary sides keep the direction of their face's winding, so the cloth is on their left
  const std::vector<Side> sides = sorted_sides(mesh);
  std::vector<int> next(n, -1), incoming(n, 0);
  for (std::size_t k = 0; k < sides.size();) {
    std::size_t end = k;
    while (end < sides.size() && sides[end].edge == sides[k].edge) ++end;
    const Edge& e = sides[k].edge;
    auto name = [&] { return "(" + std::to_string(e[0]) + ", " + std::to_string(e[1]) + ")"; };
    if (end - k > 2) return fail("non-manifold mesh: edge " + name() + " belongs to " +
                                 std::to_string(end - k) + " faces");
    if (end - k == 2 && sides[k].a == sides[k + 1].a)
      return fail("inconsistent face orientation: both faces of edge " + name() +
                  " traverse it in the same direction");
    if (end - k == 1) {
      const int a = sides[k].a, b = sides[k].b;
      if (next[a] >= 0)
        return fail("non-manifold boundary: node " + std::to_string(a) +
                    " starts two boundary edges (faces meet only at this node)");
      next[a] = b;
      if (++incoming[b] > 1)
        return fail("non-manifold boundary: node " + std::to_string(b) +
                    " ends two boundary edges (faces meet only at this node)");
    }
    k = end;
  }

  // trace the loops, each starting at its smallest node index
  std::vector<char> visited(n, 0);
  std::vector<double> lengths;
  for (int start = 0; start < n; ++start) {
    if (next[start] < 0 || visited[start]) continue;
    std::vector<int> loop;
    double length = 0;
    int node = start;
    do {
      if (next[node] < 0 || visited[node])
        return fail("open boundary: the boundary edges at node " + std::to_string(node) +
                    " do not close into a loop");
      visited[node] = 1;
      loop.push_back(node);
      length += (mesh.positions.row(next[node]) - mesh.positions.row(node)).norm();
      node = next[node];
    } while (node != start);
    result.loops.push_back(std::move(loop));
    lengths.push_back(length);
  }

  // longest first (ties keep the order of the first node)
  std::vector<int> order(result.loops.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int i, int j) { return lengths[i] > lengths[j]; });
  std::vector<std::vector<int>> sorted;
  for (int i : order) sorted.push_back(std::move(result.loops[i]));
  result.loops.swap(sorted);
  return result;
}

std::vector<int> corner_nodes(const Mesh& mesh, double min_turn_radians) {
  std::vector<int> corners;
  const BoundaryLoops boundary = boundary_loops(mesh);
  for (const std::vector<int>& loop : boundary.loops) {
    const int m = static_cast<int>(loop.size());
    if (m < 3) continue;
    for (int k = 0; k < m; ++k) {
      // turning angle between the incoming and the outgoing boundary edge
      const Eigen::Vector3d p = mesh.positions.row(loop[(k + m - 1) % m]).transpose();
      const Eigen::Vector3d c = mesh.positions.row(loop[k]).transpose();
      const Eigen::Vector3d q = mesh.positions.row(loop[(k + 1) % m]).transpose();
      const Eigen::Vector3d in = c - p, out = q - c;
      const double turn = std::atan2(in.cross(out).norm(), in.dot(out));
      if (turn > min_turn_radians) corners.push_back(loop[k]);
    }
  }
  return corners;
}

std::vector<double> lumped_areas(const Mesh& mesh) {
  // m_k = sum over faces and quadrature points of N_k dA, dA = sqrt|E G - F^2| w computed
  // from the rest positions (docs/math.md §1.4, thesis Algorithm 1 line 9)
  std::vector<double> areas(mesh.node_count(), 0.0);
  for (const Face& f : mesh.faces) {
    const int m = f.size();
    const ReferenceElement& ref = reference_element(m);
    for (int l = 0; l < ref.point_count; ++l) {
      const QuadraturePoint& q = ref.points[l];
      Eigen::Vector3d phi_xi = Eigen::Vector3d::Zero(), phi_eta = Eigen::Vector3d::Zero();
      for (int i = 0; i < m; ++i) {
        phi_xi += q.dxi[i] * mesh.positions.row(f.v[i]).transpose();
        phi_eta += q.deta[i] * mesh.positions.row(f.v[i]).transpose();
      }
      const double E = phi_xi.dot(phi_xi), F = phi_xi.dot(phi_eta), G = phi_eta.dot(phi_eta);
      const double dA = std::sqrt(std::abs(E * G - F * F)) * q.weight;
      for (int i = 0; i < m; ++i) areas[f.v[i]] += q.N[i] * dA;
    }
  }
  return areas;
}

}  // namespace tela
