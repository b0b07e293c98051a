#include "cloth/model.h"

#include "cloth/bending.h"
#include "geometry/topology.h"

#include <cmath>
#include <string>

namespace tela {
namespace {

using Sparse = Eigen::SparseMatrix<double>;

// Gradient rows of a constraint set at the given positions as a sparse (#rows by 3n) matrix.
Sparse gradient_matrix(const ConstraintSet& set, const Positions& positions) {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> gradient;
  constraint_gradients(set, positions, gradient);
  std::vector<Eigen::Triplet<double>> triplets;
  for (int r = 0; r < set.rows(); ++r)
    for (int s = set.support_start[r]; s < set.support_start[r + 1]; ++s)
      for (int c = 0; c < 3; ++c) triplets.emplace_back(r, 3 * set.support[s] + c, gradient(s, c));
  Sparse J(set.rows(), 3 * positions.rows());
  J.setFromTriplets(triplets.begin(), triplets.end());
  return J;
}

// K (n by n) acting on each coordinate: K (x) I3 in the interleaved dof order.
Sparse expand_to_dofs(const Sparse& K) {
  std::vector<Eigen::Triplet<double>> triplets;
  for (int col = 0; col < K.outerSize(); ++col)
    for (Sparse::InnerIterator it(K, col); it; ++it)
      for (int c = 0; c < 3; ++c) triplets.emplace_back(3 * it.row() + c, 3 * col + c, it.value());
  Sparse out(3 * K.rows(), 3 * K.cols());
  out.setFromTriplets(triplets.begin(), triplets.end());
  return out;
}

}  // namespace

Result<std::shared_ptr<const ClothModel>> build_model(const Mesh& mesh, const ClothMaterial& material,
                                                      const StepSettings& solver,
                                                      const std::vector<int>& controlled_nodes) {
  using R = Result<std::shared_ptr<const ClothModel>>;
  const int n = mesh.node_count();
  if (n < 3 || mesh.faces.empty()) return R::failure("mesh: needs at least one face");
  if (!mesh.positions.allFinite()) return R::failure("mesh: node positions must be finite");
  // every face must be a proper element at rest: the constraint scales are rest lengths and
  // metric values, which a collapsed edge or a flat face makes zero (the projection would
  // then divide by zero)
  const std::vector<double> face_area = face_areas(mesh, mesh.positions);
  for (int f = 0; f < mesh.face_count(); ++f) {
    const Face& face = mesh.faces[f];
    const std::string name = "mesh: face " + std::to_string(f) + " ";
    for (int a = 0; a < face.size(); ++a) {
      const int i = face.v[a], j = face.v[(a + 1) % face.size()];
      if (mesh.positions.row(i) == mesh.positions.row(j))
        return R::failure(name + "has nodes " + std::to_string(i) + " and " + std::to_string(j) +
                          " at the same position (every edge needs a length at rest)");
    }
    if (!(face_area[f] > 0))
      return R::failure(name + "has zero area at rest (its nodes lie on one line)");
  }

  auto model = std::make_shared<ClothModel>();
  model->rest_positions = mesh.positions;
  model->material = material;
  model->solver = solver;
  model->lumped_area = lumped_areas(mesh);
  for (int k = 0; k < n; ++k) {
    const double m = model->lumped_area[k];
    if (!(m > 0) || !std::isfinite(m))
      return R::failure("mesh: node " + std::to_string(k) +
                        " belongs to no face of positive area (every node needs a mass)");
  }
  for (double a : face_areas(mesh, mesh.positions)) model->rest_area += a;

  model->on_boundary.assign(n, 0);
  for (const Edge& e : boundary_edges(mesh)) model->on_boundary[e[0]] = model->on_boundary[e[1]] = 1;

  model->controlled.assign(n, 0);
  for (int k : controlled_nodes) model->controlled[k] = 1;
  model->free_index.assign(n, -1);
  for (int k = 0; k < n; ++k)
    if (!model->controlled[k]) model->free_index[k] = model->free_count++;

  // hard constraints; rows whose nodes are all prescribed are constant and left out
  ConstraintOptions options;
  options.metric_f = material.shear == 0;  // shearing energy replaces the hard F constraints
  const ConstraintSet all = build_constraints(mesh, model->lumped_area, options);
  std::vector<char> keep(all.rows(), 0);
  for (int r = 0; r < all.rows(); ++r)
    for (int s = all.support_start[r]; s < all.support_start[r + 1]; ++s)
      if (!model->controlled[all.support[s]]) keep[r] = 1;
  model->constraints = select_rows(all, keep);

  if (material.shear > 0) {
    ConstraintOptions shear_options;
    shear_options.metric_f = shear_options.metric_eg = shear_options.boundary_edges = false;
    shear_options.all_nodes_f = true;
    model->shear_rows = build_constraints(mesh, model->lumped_area, shear_options);
  }
  if (material.kappa > 0 || material.beta > 0)
    model->bending = bending_matrix(mesh, model->lumped_area, model->on_boundary);

  // parts of the unconstrained step matrix S(h) = (rho + h alpha) M + h beta K + h^2 (kappa K + H_s)
  model->step_matrix_diagonal = material.kappa == 0 && material.beta == 0 && material.shear == 0;
  if (model->bending.nonZeros() > 0) {
    const Sparse K = expand_to_dofs(model->bending);
    if (material.beta > 0) model->damping = material.beta * K;
    if (material.kappa > 0) model->stiffness = material.kappa * K;
  }
  if (material.shear > 0) {
    // thesis Remark 2.5.1: Gauss-Newton term k_s grad C_F^T M grad C_F. It is evaluated on
    // the rest configuration so that S stays constant and is factorized once (our choice;
    // the shear force itself is evaluated exactly at every step).
    const Sparse Js = gradient_matrix(model->shear_rows, mesh.positions);
    Eigen::VectorXd row_mass(model->shear_rows.rows());
    for (int r = 0; r < row_mass.size(); ++r) row_mass[r] = model->lumped_area[model->shear_rows.node[r]];
    const Sparse H = material.shear * Sparse(Js.transpose() * row_mass.asDiagonal() * Js);
    if (model->stiffness.nonZeros() > 0) model->stiffness += H;
    else model->stiffness = H;
  }
  return R::success(model);
}

}  // namespace tela
