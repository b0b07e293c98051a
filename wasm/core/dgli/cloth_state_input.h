// Parsers for the cloth states `tela dgli` and `tela classify` read (the core parses text it is
// given; the CLI reads the files): an OBJ mesh, a boundary polyline CSV, and one frame of a
// trajectory CSV as `tela simulate --out` writes it. Errors name the line (and field).
#pragma once

#include "geometry/mesh.h"
#include "base/result.h"

#include <string>

namespace tela {

// OBJ: `v x y z` and `f a b c [d]` lines (1-based indices, `a/b/c` forms and negative indices
// accepted); other records ignored. Faces with more than 4 vertices are errors.
Result<Mesh> parse_obj_mesh(const std::string& text);

// Boundary polyline: one `x,y,z` per line, in order (the loop closes itself); an optional
// header line without numbers, blank lines and `#` comments are skipped.
Result<Positions> parse_boundary_csv(const std::string& text);

// Positions of frame `frame` from a trajectory CSV (`frame,time,node,x,y,z` with a header);
// every node 0..node_count-1 must appear exactly once in that frame.
Result<Positions> parse_trajectory_frame(const std::string& text, long frame, int node_count);

}  // namespace tela
