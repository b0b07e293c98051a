// The inextensibility constraints of thesis ch. 2 as quadratic forms of the positions.
//
// Every row r is  C_r(x) = sum_ij t^r_ij <x_i, x_j> - C0_r  with a symmetric coefficient
// table t^r. Nodal metric rows (thesis Algorithm 1, eq. 2.16) have t^r = T_{E,F,G}^{k..};
// a boundary-edge row |x_a - x_b|^2 - L0^2 has t_aa = t_bb = 1, t_ab = t_ba = -1.
// Hence one formula serves all rows:  grad_{x_i} C_r = 2 sum_j t^r_ij x_j  and
// C_r = 1/2 grad C_r . x - C0_r  (thesis §2.4.5).
#pragma once

#include "geometry/mesh.h"

#include <Eigen/Core>
#include <vector>

namespace tela {

enum class ConstraintKind : unsigned char { metric_e, metric_f, metric_g, boundary_edge };

struct ConstraintSet {
  // rows
  std::vector<ConstraintKind> kind;  // #rows
  std::vector<int> node;             // #rows: node k of a metric row, first node of an edge
  std::vector<double> rest;          // #rows: C0_r
  // scale s_r that makes |C_r| / s_r a relative error (a strain-like number):
  // E_k^0 for E rows, G_k^0 for G rows, sqrt(E_k^0 G_k^0) for F rows (F_k^0 may be 0 on
  // quads, so it cannot be its own scale), L0^2 for edges.
  std::vector<double> scale;
  // nodes each row touches (sorted), CSR: nodes of row r are support[support_start[r] ..
  // support_start[r+1]). The gradient of row r has 3 entries per support node.
  std::vector<int> support_start;
  std::vector<int> support;
  // coefficient table of row r: dense s_r by s_r (s_r its support size), row-major, starting
  // at coeff[coeff_start[r]]; entry (a, b) is t^r_ij for the support nodes i, j in slots a, b.
  // (A quad-mesh row has 9 support nodes and 49 of its 81 entries non-zero; the loops use
  // the non-zero lists below.)
  std::vector<int> coeff_start;
  std::vector<double> coeff;
  // the non-zero entries of the same tables, for the gradient loop: support entry e (row r,
  // slot a) has entries nz_start[e] .. nz_start[e+1] of (nz_slot, nz_coeff), slots ascending
  std::vector<int> nz_start;
  std::vector<int> nz_slot;
  std::vector<double> nz_coeff;
  std::vector<int> nz_upper;  // per support entry: its first entry with slot b >= a

  int support_size(int r) const { return support_start[r + 1] - support_start[r]; }

  int rows() const { return static_cast<int>(rest.size()); }
};

struct ConstraintOptions {
  bool metric_f = true;      // hard F constraints (interior nodes and corners); off with shear
  bool metric_eg = true;     // E and G at interior nodes
  bool boundary_edges = true;
  bool all_nodes_f = false;  // F rows at every node (the shearing energy of thesis eq. 2.17)
};

// Builds the constraint rows from the rest mesh (thesis §2.4.5 / docs/math.md §1.6): E, G at
// interior nodes, F at interior nodes and corners, lengths of all boundary edges.
// `lumped_area` (#nodes) is m_k, the 1/m_k normalization of the tensors.
ConstraintSet build_constraints(const Mesh& mesh, const std::vector<double>& lumped_area,
                                const ConstraintOptions& options);

// Removes the rows for which `keep[r]` is false.
ConstraintSet select_rows(const ConstraintSet& set, const std::vector<char>& keep);

// Gradient values of every row at `positions`: for row r and support slot s,
// gradient(support_start[r] + s, 0..2) = 2 sum_j t^r_{s j} x_j.  (#support entries by 3)
void constraint_gradients(const ConstraintSet& set, const Positions& positions,
                          Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& gradient);

// C_r = 1/2 grad C_r . x - C0_r for every row, from gradients computed at `positions`.
void constraint_values(const ConstraintSet& set, const Positions& positions,
                       const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& gradient,
                       Eigen::VectorXd& values);

// constraint_gradients, constraint_values and relative_error in one pass over the rows (the
// same numbers), returning max_r |C_r| / s_r. Rows whose error exceeds `stop_above` end the
// pass early: the result then exceeds `stop_above` (it is not the max) and the gradients and
// values are incomplete. The pass starts at row *first_row (cyclically; 0 when null) and
// stores the row that ended it there, so the next pass can start with it. `work` is scratch.
double constraint_gradients_values(const ConstraintSet& set, const Positions& positions,
                                   Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>& gradient,
                                   Eigen::VectorXd& values, std::vector<double>& work,
                                   double stop_above = 1e300, int* first_row = nullptr);

// max_r |C_r| / s_r with C_r = sum_ab t_ab <x_a, x_b> - C0_r evaluated directly (each
// symmetric pair once, no gradients: about half the work of constraint_gradients_values, and
// the same numbers up to round-off). Stops early, like constraint_gradients_values, at the
// first row whose error exceeds `stop_above` or is not a number (then returns infinity).
double constraint_error(const ConstraintSet& set, const Positions& positions, std::vector<double>& work,
                        double stop_above = 1e300, int* first_row = nullptr);

// max_r |C_r| / s_r
double relative_error(const ConstraintSet& set, const Eigen::VectorXd& values);

}  // namespace tela
