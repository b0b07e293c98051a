// Isometric bending (thesis §2.5, Bergou et al.): K = L^T M^-1 L with L the weak FEM
// Laplacian of the rest surface.
#pragma once

#include "geometry/mesh.h"

#include <Eigen/SparseCore>
#include <vector>

namespace tela {

// Weak Laplacian L_ij = integral of grad_S N_i . grad_S N_j dA over the rest surface, with the
// surface gradient grad_S N = [phi_xi phi_eta] g^-1 [dN/dxi; dN/deta] (g the metric).
// #nodes by #nodes, symmetric, rows sum to zero.
Eigen::SparseMatrix<double> weak_laplacian(const Mesh& mesh);

// K = L_I^T diag(1/m_I) L_I where L_I keeps only the rows of interior nodes. The Neumann rows
// of boundary nodes are left out: they are non-zero on the flat rest state, so they would push
// boundary nodes in the plane of a flat cloth (docs/math.md §8). #nodes by #nodes.
Eigen::SparseMatrix<double> bending_matrix(const Mesh& mesh, const std::vector<double>& lumped_area,
                                           const std::vector<char>& on_boundary);

}  // namespace tela
