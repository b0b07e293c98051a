// Parametrization of a disc-like 2-cell and re-sampling (thesis §5.4.9): the ordered boundary
// curve is mapped by arc length onto a convex polygon (here a rectangle, the thesis's option
// for re-meshing, with corners at the four sharpest turns of the curve), every other point is
// placed at the average of its neighbours (Tutte's embedding: one sparse linear system with a
// unique solution), the embedded points are Delaunay-triangulated and a regular grid of the
// rectangle is mapped back to space by linear interpolation, giving a quad mesh.
#pragma once

#include "geometry/delaunay.h"
#include "geometry/mesh.h"
#include "morse/neighbours.h"
#include "base/result.h"

#include <vector>

namespace tela::morse {

struct Reconstruction;

// Tutte embedding: `fixed` points keep their `fixed_uv`; every other point of the graph's
// component is the average of its neighbours. #points by 2 (fixed rows copied). Fails when a
// point cannot reach any fixed point or the solve fails.
Result<Points2> tutte_embedding(const NeighbourGraph& graph, const std::vector<int>& fixed,
                                const Points2& fixed_uv);

// The whole cloud as one disc (one connected component, one boundary curve, Euler
// characteristic 1) re-sampled to a quad mesh with `nodes` nodes along the rectangle's longer
// side (0: about sqrt(#points) / 2, between 5 and 40). Node sets: corners, top_corners, boundary.
Result<Mesh> resample_disc(const Reconstruction& reconstruction, int nodes);

}  // namespace tela::morse
