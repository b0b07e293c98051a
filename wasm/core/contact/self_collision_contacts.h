// The contact provider of cloth self-collisions (contact/contact_provider.h, thesis §3.3):
// the rows of contact/self_collision.h with omega halved on every rejected attempt, and
// accept() as the final omega = 0 crossing check (thesis §3.4.1). Reports nothing when the
// settings turn self-collisions off.
#pragma once

#include "contact/contact_provider.h"
#include "contact/contact_settings.h"
#include "contact/self_collision.h"
#include "geometry/mesh.h"

#include <vector>

namespace tela {

class SelfCollisionContacts final : public ContactProvider {
 public:
  // `controlled`: #nodes flags of the nodes that controls prescribe (pairs of them alone get no rows).
  SelfCollisionContacts(const Mesh& mesh, const ContactSettings& settings, const std::vector<char>& controlled);

  void contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) override;
  bool accept(const ContactQuery& query) override;

 private:
  ContactSettings settings_;
  std::vector<char> controlled_;
  CollisionMesh mesh_;
};

}  // namespace tela
