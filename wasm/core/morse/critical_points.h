// Critical points of the height function on a sampled surface, with or without boundary
// (thesis §5.2.2 stratified Morse theory, §5.3, §5.4.7).
//
// The surface is cut by the levels c_j into slab pieces: connected components of the graph
// restricted to one slab, merged when one level curve touches several of them from the same
// side. A piece P is treated as a planar surface (features shorter than the level spacing h
// are not resolved, as in the thesis), so its Euler characteristic is 2 minus the number of
// its boundary cycles; the cycles are formed by its level curves and the pieces of the
// boundary curves inside it, linked where a boundary curve crosses a level. Crossing P upwards
// changes the Euler characteristic of the sublevel set by chi(P) - chi(level curves below P)
// (a level arc has chi 1, a circle 0), and by Goresky-MacPherson this change is the sum over
// the critical points in P of:
//   interior minimum +1, interior saddle -1, interior maximum +1,
//   local minimum of S on the boundary +1, boundary minimum (of f|dS only) 0,
//   local maximum of S on the boundary 0, boundary maximum (of f|dS only) -1.
// Extrema of f|dS are read off the boundary pieces (a piece of boundary curve whose ends both
// cross the lower level holds a boundary maximum, ...), classified by the slope of f into the
// surface; interior extrema are the lowest/highest points of pieces with no level curve
// below/above; the interior saddles are the remaining change and are located where the
// level curves of P merge when P is swept from above and from below.
#pragma once

#include "geometry/mesh.h"
#include "morse/boundary.h"
#include "morse/level_sets.h"
#include "morse/neighbours.h"

#include <string>
#include <vector>

namespace tela::morse {

enum class CriticalType {
  interior_minimum,
  interior_saddle,
  interior_maximum,
  boundary_local_minimum,   // local minimum of S located on the boundary
  boundary_minimum,         // minimum of f restricted to the boundary only
  boundary_local_maximum,   // local maximum of S located on the boundary
  boundary_maximum,         // maximum of f restricted to the boundary only
};
constexpr int kCriticalTypeCount = 7;
const char* to_string(CriticalType type);

// Change of the Euler characteristic of the sublevel set when crossing a point of this type.
int euler_contribution(CriticalType type);

struct CriticalPoint {
  CriticalType type = CriticalType::interior_minimum;
  int point = -1;   // index into the cloud
  int piece = -1;   // slab piece holding it
};

struct SlabPieces {
  std::vector<int> piece_of;          // #points
  std::vector<int> piece_slab;        // per piece
  std::vector<int> piece_chi;         // per piece: 2 - boundary cycles
  std::vector<int> component_lower_piece, component_upper_piece;  // per level curve
  std::vector<char> component_is_arc;                             // per level curve
  std::vector<char> component_removed;  // level curves dropped when a tiny piece was merged
  int count() const { return static_cast<int>(piece_slab.size()); }
};

struct CriticalPoints {
  std::vector<CriticalPoint> points;  // sorted by height
  SlabPieces pieces;
  int euler_from_pieces = 0;          // sum chi(P) - sum chi(level curves)
  std::vector<std::string> warnings;
  int count(CriticalType type) const;
};

CriticalPoints find_critical_points(const Positions& points, const NeighbourGraph& graph,
                                    const std::vector<double>& f, const std::vector<char>& on_boundary,
                                    const LevelSlicing& slicing, const LevelCurves& curves);

}  // namespace tela::morse
