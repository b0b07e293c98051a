#include "cloth/bending.h"

#include "geometry/reference_element.h"

#include <Eigen/Dense>

namespace tela {

Eigen::SparseMatrix<double> weak_laplacian(const Mesh& mesh) {
  const int n = mesh.node_count();
  std::vector<Eigen::Triplet<double>> triplets;
  for (const Face& face : mesh.faces) {
    const int m = face.size();
    const ReferenceElement& ref = reference_element(m);
    for (int l = 0; l < ref.point_count; ++l) {
      const QuadraturePoint& q = ref.points[l];
      Eigen::Matrix<double, 3, 2> frame = Eigen::Matrix<double, 3, 2>::Zero();  // [phi_xi phi_eta]
      for (int a = 0; a < m; ++a) {
        frame.col(0) += q.dxi[a] * mesh.positions.row(face.v[a]).transpose();
        frame.col(1) += q.deta[a] * mesh.positions.row(face.v[a]).transpose();
      }
      const Eigen::Matrix2d metric = frame.transpose() * frame;
      const double dA = std::sqrt(std::abs(metric.determinant())) * q.weight;
      const Eigen::Matrix2d inverse = metric.inverse();
      for (int i = 0; i < m; ++i) {
        const Eigen::Vector2d gi(q.dxi[i], q.deta[i]);
        for (int j = 0; j < m; ++j) {
          const Eigen::Vector2d gj(q.dxi[j], q.deta[j]);
          // grad_S N_i . grad_S N_j = gi^T g^-1 gj
          triplets.emplace_back(face.v[i], face.v[j], gi.dot(inverse * gj) * dA);
        }
      }
    }
  }
  Eigen::SparseMatrix<double> L(n, n);
  L.setFromTriplets(triplets.begin(), triplets.end());
  return L;
}

Eigen::SparseMatrix<double> bending_matrix(const Mesh& mesh, const std::vector<double>& lumped_area,
                                           const std::vector<char>& on_boundary) {
  const int n = mesh.node_count();
  const Eigen::SparseMatrix<double> L = weak_laplacian(mesh);
  Eigen::VectorXd inverse_mass = Eigen::VectorXd::Zero(n);
  for (int k = 0; k < n; ++k)
    if (!on_boundary[k]) inverse_mass[k] = 1.0 / lumped_area[k];
  const Eigen::SparseMatrix<double> K = L.transpose() * inverse_mass.asDiagonal() * L;
  return K.pruned();
}

}  // namespace tela
