// Level sections (thesis §5.3, §5.4.6): the heights are cut at levels c_j = min f - shift + j h,
// j = 1 .. slabs - 1, and the graph edges that straddle a level give a noisy sample of the
// level set f^-1(c_j). Two straddling edges belong to the same level curve when they share an
// end point, or end points on the same side that are neighbours (the graph is not a
// triangulation), so the curves are the connected components of the straddling edges.
#pragma once

#include "geometry/mesh.h"
#include "morse/neighbours.h"

#include <array>
#include <vector>

namespace tela::morse {

struct LevelSlicing {
  double origin = 0;            // lower end of slab 0: min f minus the shift of the levels
  double spacing = 1;           // h
  int slab_count = 1;           // slabs between consecutive levels; levels = slab_count - 1
  std::vector<int> slab_of;     // #points: slab index in [0, slab_count)
  double level(int cut) const { return origin + cut * spacing; }  // cut in [1, slab_count)
};

// Cuts [min f, max f] into about `requested` slabs of height h, fewer when the graph has edges
// taller than a slab: h is at least the largest height difference along an edge no longer
// than three times the median edge length, so that such edges straddle at most one level
// (longer edges, rare outliers, may straddle more and are then ignored by the level curves).
// The levels are shifted (by less than h) to keep as far as possible from the heights in
// `avoid` (the critical values of f on the boundary curves): a level that grazes a boundary
// extremum cuts the noisy boundary band into pieces and reads the extremum wrongly. The levels
// are then moved up by a further extra_shift level spacings (modulo h).
LevelSlicing slice_levels(const Positions& points, const NeighbourGraph& graph, const std::vector<double>& f,
                          int requested, const std::vector<double>& avoid = {}, double extra_shift = 0);

// The level curves at every cut: straddling edges (lower end first), grouped in components.
// Same-side neighbours that are both boundary points (on_boundary, when given) do not join:
// they lie along the boundary band, and a level curve ends at the boundary instead of running
// along it (where a level passes through the band along a flat boundary extremum, joining
// there merged the two level arcs that end on either side of it).
struct LevelCurves {
  struct Crossing {
    int lower = -1, upper = -1;  // edge end points, f(lower) < c <= f(upper)
    int cut = 0;                 // level index
    int component = -1;          // global level-curve index
  };
  std::vector<Crossing> crossings;         // sorted by cut, then by edge
  std::vector<int> component_cut;          // per level curve: its cut
  int component_count() const { return static_cast<int>(component_cut.size()); }
};
LevelCurves level_curves(const NeighbourGraph& graph, const LevelSlicing& slicing,
                         const std::vector<char>& on_boundary = {});

// Display geometry of the level curves: the crossing points (linear interpolation on each
// straddling edge) and segments joining crossings of edges that share an end point and whose
// other ends are neighbours (the curve passes between them).
struct LevelCurveGeometry {
  Positions points;                          // #crossings by 3
  std::vector<int> component;                // #crossings
  std::vector<std::array<int, 2>> segments;  // indices into points
};
LevelCurveGeometry level_curve_geometry(const Positions& points, const NeighbourGraph& graph,
                                        const std::vector<double>& f, const LevelSlicing& slicing,
                                        const LevelCurves& curves);

}  // namespace tela::morse
