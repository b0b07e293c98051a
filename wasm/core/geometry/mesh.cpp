#include "geometry/mesh.h"

#include "geometry/reference_element.h"

#include <Eigen/Geometry>
#include <cmath>

namespace tela {

std::vector<int> render_triangles(const Mesh& mesh) {
  std::vector<int> tris;
  tris.reserve(6 * mesh.faces.size());
  for (const Face& f : mesh.faces) {
    tris.insert(tris.end(), {f.v[0], f.v[1], f.v[2]});
    if (f.size() == 4) tris.insert(tris.end(), {f.v[0], f.v[2], f.v[3]});
  }
  return tris;
}

std::vector<double> face_areas(const Mesh& mesh, const Positions& positions) {
  std::vector<double> areas(mesh.faces.size(), 0.0);
  for (std::size_t e = 0; e < mesh.faces.size(); ++e) {
    const Face& f = mesh.faces[e];
    if (f.size() == 3) {
      // exact: half the norm of the cross product of two edges
      const Eigen::Vector3d a = positions.row(f.v[0]).transpose();
      const Eigen::Vector3d b = positions.row(f.v[1]).transpose();
      const Eigen::Vector3d c = positions.row(f.v[2]).transpose();
      areas[e] = 0.5 * (b - a).cross(c - a).norm();
      continue;
    }
    // bilinear patch: sum over the 2x2 Gauss points of sqrt(E G - F^2) w (docs/math.md §1.3)
    const ReferenceElement& ref = reference_element(4);
    for (int l = 0; l < ref.point_count; ++l) {
      const QuadraturePoint& q = ref.points[l];
      Eigen::Vector3d phi_xi = Eigen::Vector3d::Zero(), phi_eta = Eigen::Vector3d::Zero();
      for (int i = 0; i < 4; ++i) {
        phi_xi += q.dxi[i] * positions.row(f.v[i]).transpose();
        phi_eta += q.deta[i] * positions.row(f.v[i]).transpose();
      }
      const double E = phi_xi.dot(phi_xi), F = phi_xi.dot(phi_eta), G = phi_eta.dot(phi_eta);
      areas[e] += std::sqrt(std::abs(E * G - F * F)) * q.weight;
    }
  }
  return areas;
}

}  // namespace tela
