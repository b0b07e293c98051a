#include "geometry/obj_text.h"

#include <cstdio>
#include <cstdlib>

namespace tela {
namespace {

// the shortest of %.15g, %.16g, %.17g that reads back as the same double (the page's
// String(x) reads back as the same doubles; its text can differ, 1e-7 against 1e-07)
void append_number(std::string& out, double x) {
  char text[32];
  for (int digits = 15; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    if (std::strtod(text, nullptr) == x) break;
  }
  out += text;
}

}  // namespace

std::string obj_text(const Positions& positions, const std::vector<Face>& faces, std::string_view comment) {
  std::string out;
  if (!comment.empty()) out.append("# ").append(comment).append("\n");
  for (Eigen::Index k = 0; k < positions.rows(); ++k) {
    out += 'v';
    for (int c = 0; c < 3; ++c) append_number(out += ' ', positions(k, c));
    out += '\n';
  }
  for (const Face& f : faces) {
    out += 'f';
    for (int i = 0; i < f.size(); ++i) out.append(" ").append(std::to_string(f.v[i] + 1));
    out += '\n';
  }
  return out;
}

}  // namespace tela
