// The contact provider of a scene's obstacles (contact/contact_provider.h): obstacle contacts,
// the stick's edge-edge contacts and the needle cusps as point obstacles, as ContactConstraint
// rows for the contact-aware step.
//
// Rows per call (positions `start` at t0, the iterate `current` at t1):
//  - node-obstacle (plane, box, sphere, cylinder, needle field, stick capsules): every free
//    node whose signed distance at `current` (obstacle posed at t1) is below the clearance +
//    kProximity + the node's motion over the step; normal and closest point frozen there;
//    gap = n . x - (n . closest + clearance). Friction mu of the obstacle; the surface
//    velocity is the obstacle's motion over the step at the closest point.
//  - stick edges (thesis §4.3.2): edge-edge CCD of each short stick edge (moving t0 -> t1)
//    against the cloth edges (start -> current), displaced by omega tau toward each other,
//    plus pairs closer than tau at t1; tau = stick radius + clearance.
//  - needle cusps (thesis §3.6.3): CCD of each tip (a fixed point) against the cloth triangles,
//    plus triangles closer than the clearance at `current`; gap = nu . (u x1 + v x2 + w x3 - q)
//    - clearance, with nu the triangle normal oriented so that the gap is >= 0 at `start`.
// The clearance of the cloth from obstacles is half the cloth thickness tau0; omega is the
// settings' proximity.
#pragma once

#include "contact/contact_provider.h"
#include "contact/contact_settings.h"
#include "contact/obstacles/obstacle.h"
#include "contact/self_collision.h"
#include "geometry/mesh.h"

#include <vector>

namespace tela {

// Extra distance (metres) beyond the clearance within which node-obstacle rows are made.
constexpr double kProximity = 0.005;

// Its answers depend on the query alone (contact/contact_provider.h): omega comes from the
// query's attempt, and it carries nothing from one query to the next.
class ObstacleContacts final : public ContactProvider {
 public:
  // `controlled`: #nodes flags of the nodes that controls prescribe (they get no rows alone).
  ObstacleContacts(const Mesh& mesh, const std::vector<Obstacle>& obstacles, const ContactSettings& settings,
                   const std::vector<char>& controlled);

  void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) override;

  // Largest depth (metres, >= 0) of a node inside an obstacle's surface at time t.
  double penetration(const Positions& positions, double t) const;

 private:
  void obstacle_rows(int index, const ContactQuery& q, std::vector<ContactConstraint>& out) const;
  void stick_rows(int index, const ContactQuery& q, double omega, std::vector<ContactConstraint>& out) const;
  void cusp_rows(int index, const ContactQuery& q, double omega, std::vector<ContactConstraint>& out) const;

  std::vector<Obstacle> obstacles_;
  ContactSettings settings_;
  std::vector<char> controlled_;
  CollisionMesh mesh_;
  std::vector<std::vector<Eigen::Vector3d>> stick_points_;  // per obstacle: subdivided polyline
  std::vector<std::vector<Eigen::Vector3d>> tips_;          // per obstacle: needle cusps
};

}  // namespace tela
