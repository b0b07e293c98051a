// Cloth self-collisions (thesis §3.3): the triangulated collision mesh, and
// Collisions_omega(start -> current) (thesis Definition 5): node-face and edge-edge pairs
// found by cubic CCD on positions displaced by omega tau0 toward each other (§3.3.3), each
// answered by a response constraint with frozen normal and barycentric weights computed at
// `current` and oriented so that it holds at `start` (§3.3.2):
//   node-face: nu . (x4 - (u x1 + v x2 + w x3)) >= tau0
//   edge-edge: nu . ((1-a) x1 + a x2 - (1-b) x3 - b x4) >= tau0
// Our addition: pairs already closer than tau0 at `current` (node over a triangle's interior,
// edges between their interiors) get the same constraint, so that cloth resting on cloth
// keeps its thickness even when the displaced CCD sees no crossing.
#pragma once

#include "contact/contact_constraint.h"
#include "geometry/mesh.h"

#include <array>
#include <vector>

namespace tela {

struct CollisionMesh {
  std::vector<std::array<int, 3>> triangles;  // quads split along their 0-2 diagonal
  std::vector<std::array<int, 2>> edges;      // unique triangle edges (diagonals included)
  double mean_edge_length = 0;                // metres, at rest
};

CollisionMesh collision_mesh(const Mesh& mesh);

enum class SelfPairKind { node_face, edge_edge };

struct SelfContact {
  SelfPairKind kind = SelfPairKind::node_face;
  int a = 0, b = 0;   // node and triangle, or edge and edge (a < b)
  bool crossing = false;  // found by CCD (not only by proximity)
  ContactConstraint row;
};

struct SelfCollisionSettings {
  double thickness = 0.003;  // tau0, metres
  double omega = 0.5;        // proximity parameter, [0, 0.5]
  double mu = 0.3;
  bool close_pairs = true;   // also constrain pairs closer than tau0 at `current`
};

// Pairs of the motion start -> current (#nodes by 3 each), sorted by (kind, a, b). Pairs whose
// nodes are all `fixed` (controlled) are skipped. With omega = 0 and close_pairs = false this
// is the final crossing check of thesis §3.4.1.
std::vector<SelfContact> self_collisions(const CollisionMesh& mesh, const Positions& start,
                                         const Positions& current, const std::vector<char>& fixed,
                                         const SelfCollisionSettings& settings);

}  // namespace tela
