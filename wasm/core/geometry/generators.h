// Mesh generators: rectangles (quads, triangles with either diagonal, irregular triangles),
// discs and rings, and explicit meshes. All generators are deterministic for a given seed.
#pragma once

#include "geometry/mesh.h"

#include <cstdint>
#include <string>

namespace tela {

enum class ElementKind { quad, tri_right, tri_left, tri_irregular };

// Which plane the flat cloth lies in: width along the first axis e1, height along the second
// e2, i.e. position = origin + u e1 + v e2. Faces are counter-clockwise seen from the normal
// e1 x e2: +z for xy, -y for xz, +x for yz. Noise displaces nodes along that normal.
enum class MeshPlane { xy, xz, yz };

struct RectangleSpec {
  double width = 1.0, height = 1.0;  // metres
  int nx = 10, ny = 10;              // nodes along width and height (>= 2)
  ElementKind elements = ElementKind::quad;
  // tri_irregular: total node count wanted (0 means nx*ny); interior nodes are random
  // (jittered grid), boundary nodes evenly spaced, Delaunay triangulated.
  int irregular_nodes = 0;
  MeshPlane plane = MeshPlane::xy;
  Eigen::Vector3d origin{0, 0, 0};   // position of the node (0,0), the bottom-left corner
  double noise = 0.0;                // SD of random displacement normal to the plane, metres
  std::uint64_t seed = 1;
};

// Node (i, j) of a structured rectangle has index j*nx + i, i along width, j along height.
// Quads are [a, a+1, a+nx+1, a+nx] with a = j*nx + i; tri_right splits them along a -> a+nx+1,
// tri_left along a+1 -> a+nx. tri_irregular: the boundary nodes come first (counter-clockwise
// from the bottom-left corner), then the interior ones; the four corners are nodes.
// Node sets (v = 0 is the bottom): corners (bottom-left, bottom-right, top-right, top-left),
// top_corners (top-left, top-right), boundary (counter-clockwise from the bottom-left corner).
// Preconditions (debug asserts): width, height > 0, nx, ny >= 2, irregular_nodes 0 or >= 4.
Mesh make_rectangle(const RectangleSpec& spec);

struct DiscSpec {
  double radius = 0.15;       // outer radius, metres
  double inner_radius = 0.0;  // > 0 makes a ring (annulus)
  int rings = 8;              // radial node layers (excluding the centre of a disc)
  int sectors = 96;           // nodes per circle
  MeshPlane plane = MeshPlane::xy;
  Eigen::Vector3d center{0, 0, 0};
  double noise = 0.0;
  std::uint64_t seed = 1;
};

// A polar quad mesh (the disc's centre fan is made of triangles). Ring: `rings` circles from
// inner_radius to radius, node r*sectors + s at angle 2 pi s / sectors. Disc: node 0 is the
// centre, then `rings` circles (node 1 + r*sectors + s). Node sets, in boundary-loop order
// (cloth on the left): boundary (outer circle, counter-clockwise), inner_boundary (rings
// only, inner circle, clockwise). Preconditions (debug asserts): radius > inner_radius >= 0,
// sectors >= 3, rings >= 1 (disc) or >= 2 (ring).
Mesh make_disc(const DiscSpec& spec);

}  // namespace tela
