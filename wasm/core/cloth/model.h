// ClothModel: everything constant during a run (thesis ch. 2): rest geometry, lumped masses,
// the constraint tensors and their rest values, bending, and the factorized matrix of the
// unconstrained implicit-Euler step. Built once; never mutated; shared by many states.
#pragma once

#include "base/result.h"
#include "cloth/constraints.h"
#include "cloth/material.h"
#include "cloth/step_settings.h"
#include "geometry/mesh.h"

#include <Eigen/SparseCore>
#include <memory>
#include <vector>

namespace tela {

constexpr double kGravity = 9.8;  // m/s^2, as in the thesis

struct ClothModel {
  Positions rest_positions;            // #nodes by 3, metres
  std::vector<double> lumped_area;     // #nodes, m_k = integral of N_k dA, m^2 (mass = rho m_k)
  std::vector<char> on_boundary;       // #nodes
  std::vector<char> controlled;        // #nodes: 1 if a control prescribes the node
  std::vector<int> free_index;         // #nodes: index among uncontrolled nodes, or -1
  int free_count = 0;
  double rest_area = 0;                // m^2

  ClothMaterial material;
  StepSettings solver;

  // hard constraints (rows that touch at least one free node)
  ConstraintSet constraints;
  // F rows at every node for the shearing energy (thesis eq. 2.17); empty when shear == 0
  ConstraintSet shear_rows;
  // K = L^T M^-1 L (#nodes by #nodes); kappa is applied where it is used
  Eigen::SparseMatrix<double> bending;

  // Parts of the unconstrained step matrix (see cloth/step_system.h), 3n by 3n in the
  // interleaved dof order, empty when zero:  S(h) = (rho + h alpha) M + h damping + h^2 stiffness
  Eigen::SparseMatrix<double> damping;    // beta K (x) I3
  Eigen::SparseMatrix<double> stiffness;  // kappa K (x) I3 + shear Gauss-Newton term H_s
  bool step_matrix_diagonal = true;       // damping and stiffness are both zero

  int node_count() const { return static_cast<int>(rest_positions.rows()); }
};

// Builds the model of `mesh` with the given material and solver settings; `controlled`
// lists the nodes that controls prescribe. Fails with a message on degenerate input
// (a node in no face, zero-area elements, non-finite positions).
Result<std::shared_ptr<const ClothModel>> build_model(const Mesh& mesh, const ClothMaterial& material,
                                                      const StepSettings& solver,
                                                      const std::vector<int>& controlled);

}  // namespace tela
