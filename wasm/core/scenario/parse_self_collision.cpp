// The self_collision section: on or off, thickness, friction and proximity.
#include "scenario/parse_sections.h"

#include "base/json_read.h"

namespace tela {

using json = nlohmann::json;

bool parse_self_collision(const json& j, SelfCollision& out, std::string& error) {
  const std::string p = "self_collision";
  SelfCollision self;
  if (!require_object(j, p, error) ||
      !check_keys(j, p, {"enabled", "thickness", "mu", "proximity"}, error) ||
      !read_number(j, "thickness", p, NumberRange{0.0, 0.1, false, false}, self.thickness, error) ||
      !read_number(j, "mu", p, kNonNegative, self.mu, error) ||
      !read_number(j, "proximity", p, NumberRange{0.0, 0.5, false, false}, self.proximity, error)) {
    return false;
  }
  if (const json* e = find_member(j, "enabled")) {
    if (!e->is_boolean()) {
      error = "self_collision.enabled: must be true or false" + got_type(*e);
      return false;
    }
    self.enabled = e->get<bool>();
  }
  out = self;
  return true;
}

}  // namespace tela
