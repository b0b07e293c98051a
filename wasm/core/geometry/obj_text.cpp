#include "geometry/obj_text.h"

#include <cstdio>

namespace tela {

std::string obj_text(const Positions& positions, const std::vector<Face>& faces, std::string_view comment) {
  std::string out;
  if (!comment.empty()) out.append("# ").append(comment).append("\n");
  char line[128];
  for (Eigen::Index k = 0; k < positions.rows(); ++k) {
    std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", positions(k, 0), positions(k, 1), positions(k, 2));
    out += line;
  }
  for (const Face& f : faces) {
    out += 'f';
    for (int i = 0; i < f.size(); ++i) out.append(" ").append(std::to_string(f.v[i] + 1));
    out += '\n';
  }
  return out;
}

}  // namespace tela
