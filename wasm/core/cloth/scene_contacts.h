// The contact provider of a cloth in its scene (contact/contact_provider.h): the rows the
// contact-aware step enforces, asked in this order at every call:
//  1. the obstacles' contacts (contact/obstacle_contacts.h: nodes, stick edges, needle cusps);
//  2. the cloth's own strain-limit rows (cloth/strain_limit.h) when solver.strain_limit > 0;
//  3. cloth self-collisions (contact/self_collision_contacts.h), whose final crossing check is
//     accept().
#pragma once

#include "cloth/strain_limit.h"
#include "contact/contact_provider.h"
#include "contact/contact_settings.h"
#include "contact/obstacle_contacts.h"
#include "contact/obstacles/obstacle.h"
#include "contact/self_collision_contacts.h"
#include "geometry/mesh.h"

#include <vector>

namespace tela {

// Its answers depend on the query alone (contact/contact_provider.h), as its parts' do: a run
// continued from a copy of its state (cloth/state.h) gets a fresh one.
class SceneContacts final : public ContactProvider {
 public:
  // `controlled`: #nodes flags of the nodes that controls prescribe (they get no rows alone);
  // `strain_limit`: solver.strain_limit (0: off).
  SceneContacts(const Mesh& mesh, const std::vector<Obstacle>& obstacles, const ContactSettings& settings,
                const std::vector<char>& controlled, double strain_limit);

  void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) override;
  bool accept(const ContactQuery& query) override;

  const StrainLimit& strain_limit() const { return strain_limit_; }
  // Largest depth (metres, >= 0) of a node inside an obstacle's surface at time t.
  double penetration(const Positions& positions, double t) const { return obstacles_.penetration(positions, t); }

 private:
  ObstacleContacts obstacles_;
  StrainLimit strain_limit_;
  SelfCollisionContacts self_;
  std::vector<char> controlled_;
};

}  // namespace tela
