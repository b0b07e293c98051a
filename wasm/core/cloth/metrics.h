// Measures of a cloth state: area errors (thesis eq. 2.23), Cusick's drape coefficient
// (thesis eq. 2.22), the determinism hash.
#pragma once

#include "geometry/mesh.h"

#include <cstdint>
#include <string>

namespace tela {

// Total area of the mesh's faces at `positions` (#nodes by 3), m^2.
double total_area(const Mesh& mesh, const Positions& positions);

// Area of the shadow along z of the faces together with the table disc of radius
// `table_radius` centred at `center`, rasterized on a `resolution`^2 grid covering the square
// of half-side `extent` around the centre. m^2.
double shadow_area(const Mesh& mesh, const Positions& positions,
                   const Eigen::Vector3d& center, double table_radius, double extent,
                   int resolution = 1024);

// Cusick's drape coefficient (thesis eq. 2.22), %: DC = 100 (C - T) / (C_0 - T) with C the
// shadow area at `positions`, C_0 the shadow area of the flat rest cloth (mesh.positions) and T the table disc: the
// overhanging ring's projected area over its flat area. The table is the disc spanned by the
// ring's inner boundary.
double drape_coefficient(const Mesh& mesh, const Positions& positions, const Eigen::Vector3d& center,
                         double table_radius);

// FNV-1a 64 of the positions' IEEE doubles (little-endian), 16 hex digits.
std::string positions_hash(const Positions& positions);

}  // namespace tela
