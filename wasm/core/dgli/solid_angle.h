// Signed solid angles of triangles and their derivatives (Van Oosterom & Strackee 1983), the
// building block of the segment GLI and dGLI (dgli/segment_gli.h, dgli/segment_dgli.h).
#pragma once

#include <Eigen/Core>
#include <array>

namespace tela {

// Corners P0..P3 of the parallelogram {AC + t CD - s AB : s, t in [0, 1]} in the order
// (s, t) = (0,0), (1,0), (1,1), (0,1); its oriented normal is CD x AB, so its signed solid
// angle at the origin is 4 pi GLI(AB, CD) (thesis eq. 7.4).
using ParallelogramCorners = std::array<Eigen::Vector3d, 4>;
ParallelogramCorners gli_parallelogram(const Eigen::Vector3d& a, const Eigen::Vector3d& b,
                                       const Eigen::Vector3d& c, const Eigen::Vector3d& d);

// Numerator N = det(p, q, r) and denominator D = |p||q||r| + (p.q)|r| + (p.r)|q| + (q.r)|p| of
// tan(omega / 2) = N / D for the triangle (p, q, r) seen from the origin.
struct SolidAngleTerms {
  double numerator = 0, denominator = 0;
};
SolidAngleTerms solid_angle_terms(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                                  const Eigen::Vector3d& r);

// Signed solid angle 2 atan2(N, D) in (-2 pi, 2 pi], positive when det(p, q, r) > 0.
double triangle_solid_angle(const Eigen::Vector3d& p, const Eigen::Vector3d& q, const Eigen::Vector3d& r);

// Derivative of the signed solid angle when the corners move with velocities dp, dq, dr:
// 2 (N' D - N D') / (N^2 + D^2). Uses + - * / and sqrt only (bit-identical across builds).
// Finite unless the origin lies on the closed triangle's boundary (N = D = 0).
double triangle_solid_angle_derivative(const Eigen::Vector3d& p, const Eigen::Vector3d& q,
                                       const Eigen::Vector3d& r, const Eigen::Vector3d& dp,
                                       const Eigen::Vector3d& dq, const Eigen::Vector3d& dr);

}  // namespace tela
