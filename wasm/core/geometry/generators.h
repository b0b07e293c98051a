// Mesh generators: rectangles (quads, triangles with either diagonal, irregular triangles),
// discs and rings, and explicit meshes. All generators are deterministic for a given seed.
#pragma once

#include "geometry/mesh.h"

#include <cstdint>
#include <string>

namespace tela {

enum class ElementKind { quad, tri_right, tri_left, tri_irregular };

// Which plane the flat cloth lies in: width along the first axis, height along the second.
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
// Node sets: corners (bottom-left, bottom-right, top-right, top-left), top_corners
// (top-left, top-right), boundary.
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

// A polar quad mesh (the disc's centre fan is made of triangles). Node sets: boundary
// (outer circle), inner_boundary (rings only).
Mesh make_disc(const DiscSpec& spec);

}  // namespace tela
