// Wavefront OBJ text of a mesh's positions and faces (v lines whose numbers read back as the
// same doubles, then 1-based f lines, triangles and quads as they are), for the CLI's mesh
// outputs. The page writes the same format in web/src/io/export.js.
#pragma once

#include "geometry/mesh.h"

#include <string>
#include <string_view>
#include <vector>

namespace tela {

// positions: #nodes by 3; comment: one line after "# " (empty: none)
std::string obj_text(const Positions& positions, const std::vector<Face>& faces, std::string_view comment = {});

}  // namespace tela
