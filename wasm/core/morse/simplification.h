// Cancelling critical points that the slab pieces read from noise, keeping the Euler
// characteristic (the sum of the contributions) and the cells' alternating sum.
// 1. A local extremum of S on the boundary with a point beyond it up to 3 rings away (the band
//    lies a spacing inside the edge, and the slope into the surface is weakly estimated where
//    the boundary curves) is an extremum of f on the boundary only; the saddle the pieces
//    needed for it (contributions 0 + -1 for a maximum, +1 + -1 for a minimum) is then one too
//    many: the interior saddle nearest it in its slab or the slabs beside it is dropped.
// 2. Such a maximum with a minimum of f on the boundary higher than it up to 6 rings away on
//    its curve (f falls from a maximum to the next minimum along the curve; both contribute 0):
//    both are dropped.
// 3. Along each boundary curve the maxima and minima of f alternate, so there are as many of
//    each: surplus ones of contribution 0 (local maxima of S on the boundary, minima of f on the
//    boundary only; a spur of the band shorter than a slab shows one end of a pair) are
//    dropped, those with a point beyond them nearby first, then the lowest maximum or the
//    highest minimum.
#pragma once

#include "geometry/mesh.h"
#include "morse/boundary.h"
#include "morse/critical_points.h"
#include "morse/level_sets.h"
#include "morse/neighbours.h"

#include <vector>

namespace tela::morse {

void cancel_noise_critical_points(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                                  const LevelSlicing& slicing, const BoundaryCurves& curves,
                                  CriticalPoints& critical);

}  // namespace tela::morse
