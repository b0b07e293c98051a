// Gauss linking integral (GLI) of two straight segments and the linking number of two closed
// polygons (thesis §7.2-7.3.1, eqs. 7.2-7.5; docs/math.md §5.1). Points are in metres; the GLI is
// dimensionless and carries the 1/(4 pi) factor, so closed curves give integers.
#pragma once

#include <Eigen/Core>

namespace tela {

using Point3 = Eigen::Vector3d;

// Signed GLI of the segments AB and CD in the Klenin-Langowski closed form (thesis eq. 7.3):
// sign(det(AB, AC, AD)) * (asin(nA.nD) + asin(nD.nB) + asin(nB.nC) + asin(nC.nA)) / (4 pi).
// Coplanar (det = 0) pairs give 0, also when they touch; the caller decides whether a
// touching pair is meaningful (see segment_pair_status in segment_dgli.h).
double segment_gli(const Point3& a, const Point3& b, const Point3& c, const Point3& d);

// The same quantity as the signed solid angle of the parallelogram {AC + t CD - s AB} seen
// from the origin, summed over its two triangles with the Van Oosterom-Strackee formula
// (well conditioned near coplanarity; the form whose derivative gives the dGLI).
double segment_gli_solid_angle(const Point3& a, const Point3& b, const Point3& c, const Point3& d);

// The integral form G = V6 * I / (4 pi), V6 = det(AB, AC, AD), I = int int |AC + t CD - s AB|^-3
// ds dt (thesis eq. 7.5), by tensor Gauss-Legendre quadrature on panels x panels cells with
// 12 points each way. For checks only: accurate when the segments are well apart relative to
// their length / panels.
double segment_gli_quadrature(const Point3& a, const Point3& b, const Point3& c, const Point3& d,
                              int panels = 16);

// Linking number of two closed polygons (thesis eq. 7.2): the sum of segment_gli over all pairs
// of edges P_i P_{i+1}, Q_j Q_{j+1} (indices cyclic). #p by 3 and #q by 3, metres, each with at
// least 3 vertices; the curves must be disjoint. An integer up to round-off.
double linking_number(const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>& p,
                      const Eigen::Ref<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>& q);

}  // namespace tela
