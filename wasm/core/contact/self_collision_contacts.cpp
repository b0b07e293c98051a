#include "contact/self_collision_contacts.h"

#include <algorithm>

namespace tela {

SelfCollisionContacts::SelfCollisionContacts(const Mesh& mesh, const ContactSettings& settings,
                                             const std::vector<char>& controlled)
    : settings_(settings),
      controlled_(controlled),
      mesh_(settings.self_collision ? collision_mesh(mesh) : CollisionMesh{}) {}

void SelfCollisionContacts::contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) {
  if (!settings_.self_collision) return;
  SelfCollisionSettings settings;
  settings.thickness = settings_.thickness;
  settings.omega = settings_.proximity / static_cast<double>(1 << std::min(query.attempt, 20));
  settings.mu = settings_.self_mu;
  settings.close_pairs = true;
  for (const SelfContact& c : self_collisions(mesh_, query.start, query.current, controlled_, settings))
    out.push_back(c.row);
}

bool SelfCollisionContacts::accept(const ContactQuery& query) {
  if (!settings_.self_collision) return true;
  SelfCollisionSettings settings;
  settings.thickness = settings_.thickness;
  settings.omega = 0;
  settings.close_pairs = false;
  return self_collisions(mesh_, query.start, query.current, controlled_, settings).empty();
}

}  // namespace tela
