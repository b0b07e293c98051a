// Reference elements and their quadrature (thesis §2.4, docs/math.md §1.3).
// Triangle: (0,0),(1,0),(0,1); 3-point edge-midpoint rule, weights 1/6 (exact for degree 2).
// Quad: bilinear on [-1,1]^2, nodes (-1,-1),(1,-1),(1,1),(-1,1); 2x2 Gauss, weights 1.
#pragma once

#include <array>
#include <cmath>

namespace tela {

struct QuadraturePoint {
  std::array<double, 4> N{};     // shape function values N_i
  std::array<double, 4> dxi{};   // dN_i / d xi
  std::array<double, 4> deta{};  // dN_i / d eta
  double weight = 0;
};

struct ReferenceElement {
  int nodes = 0;                     // 3 or 4
  int point_count = 0;               // quadrature points
  std::array<QuadraturePoint, 4> points{};
};

inline ReferenceElement make_reference_triangle() {
  ReferenceElement e;
  e.nodes = 3;
  e.point_count = 3;
  const double pts[3][2] = {{0.5, 0.0}, {0.0, 0.5}, {0.5, 0.5}};
  for (int l = 0; l < 3; ++l) {
    const double xi = pts[l][0], eta = pts[l][1];
    QuadraturePoint& q = e.points[l];
    q.N = {1 - xi - eta, xi, eta, 0};
    q.dxi = {-1, 1, 0, 0};
    q.deta = {-1, 0, 1, 0};
    q.weight = 1.0 / 6.0;
  }
  return e;
}

inline ReferenceElement make_reference_quad() {
  ReferenceElement e;
  e.nodes = 4;
  e.point_count = 4;
  const double g = 1.0 / std::sqrt(3.0);
  const double pts[4][2] = {{-g, -g}, {g, -g}, {g, g}, {-g, g}};
  for (int l = 0; l < 4; ++l) {
    const double xi = pts[l][0], eta = pts[l][1];
    QuadraturePoint& q = e.points[l];
    q.N = {0.25 * (1 - xi) * (1 - eta), 0.25 * (1 + xi) * (1 - eta),
           0.25 * (1 + xi) * (1 + eta), 0.25 * (1 - xi) * (1 + eta)};
    q.dxi = {0.25 * (eta - 1), 0.25 * (1 - eta), 0.25 * (1 + eta), 0.25 * (-1 - eta)};
    q.deta = {0.25 * (xi - 1), 0.25 * (-1 - xi), 0.25 * (1 + xi), 0.25 * (1 - xi)};
    q.weight = 1.0;
  }
  return e;
}

inline const ReferenceElement& reference_element(int nodes) {
  static const ReferenceElement tri = make_reference_triangle();
  static const ReferenceElement quad = make_reference_quad();
  return nodes == 3 ? tri : quad;
}

}  // namespace tela
