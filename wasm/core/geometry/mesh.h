// A cloth mesh: rest positions, faces (quads, triangles or both) and named node sets.
#pragma once

#include <Eigen/Core>
#include <array>
#include <map>
#include <string>
#include <vector>

namespace tela {

using Positions = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;  // #nodes by 3, metres

// One element: 3 or 4 node indices, counter-clockwise in the reference (parameter) plane.
// For triangles v[3] == -1. Quads follow the reference-square order (-1,-1),(1,-1),(1,1),(-1,1).
struct Face {
  std::array<int, 4> v{-1, -1, -1, -1};
  int size() const { return v[3] < 0 ? 3 : 4; }
};

struct Mesh {
  Positions positions;        // #nodes by 3, metres
  std::vector<Face> faces;    // #faces
  // named node sets the generators know about: "corners", "top_corners", "boundary",
  // "inner_boundary" (rings), ... Node selectors in scenarios refer to these names.
  std::map<std::string, std::vector<int>> node_sets;

  int node_count() const { return static_cast<int>(positions.rows()); }
  int face_count() const { return static_cast<int>(faces.size()); }
};

// Triangle index list for rendering: quads split along their 0-2 diagonal. #tris*3.
std::vector<int> render_triangles(const Mesh& mesh);

// Area of each face at the given positions (quads: 2x2 Gauss on the bilinear patch). #faces.
std::vector<double> face_areas(const Mesh& mesh, const Positions& positions);

}  // namespace tela
