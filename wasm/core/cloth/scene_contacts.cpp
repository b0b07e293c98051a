#include "cloth/scene_contacts.h"

namespace tela {

SceneContacts::SceneContacts(const Mesh& mesh, const std::vector<Obstacle>& obstacles,
                             const ContactSettings& settings, const std::vector<char>& controlled,
                             double strain_limit)
    : obstacles_(mesh, obstacles, settings, controlled),
      strain_limit_(mesh, strain_limit),
      self_(mesh, settings, controlled),
      controlled_(controlled) {}

void SceneContacts::contacts(const ContactQuery& query, std::vector<ContactConstraint>& out) {
  obstacles_.contacts(query, out);
  strain_limit_.rows(query.current, controlled_, out);
  self_.contacts(query, out);
}

bool SceneContacts::accept(const ContactQuery& query) { return self_.accept(query); }

}  // namespace tela
