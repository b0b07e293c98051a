// The reference QP solver: a plain primal-dual interior-point method (Mehrotra's
// predictor-corrector) for QpProblem (qp/qp_problem.h), used by the tests as an independent
// oracle for the active-set solver and by bench/bench_qp.cpp as the baseline the thesis
// compared against (an interior-point method, thesis §3.5 / Table 4.8).
//
// Slack form: A x - b = s, s >= 0, z >= 0. Each Newton system is reduced to the sparse
// quasi-definite matrix
//   [ M + A^T (Z S^-1) A    E^T            ]
//   [ E                     -(sigma + d) I ]
// (d a tiny regularization, 1e-12 of its scale) factorized by Eigen's SimplicialLDLT; its
// pattern is analyzed once per problem. No warm start (interior points cannot use one).
#pragma once

#include "qp/qp_problem.h"

namespace tela {

struct InteriorPointSettings {
  int max_iterations = 200;
  // relative residuals; the largest s_k z_k must be below 1e-2 tolerance of the objective scale
  double tolerance = 1e-9;
};

QpSolution solve_interior_point(const QpProblem& problem, const InteriorPointSettings& settings = {});

}  // namespace tela
