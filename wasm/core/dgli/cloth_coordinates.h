// dGLI cloth coordinates (thesis §7.1-7.3, Fig. 7.1; docs/math.md §5.3): choose m segments of the
// boundary curve in a fixed order, and list dGLI(s_i, s_j) for i < j (the upper triangle of the
// symmetric dGLI matrix, row by row: (0,1), (0,2), ..., (0,m-1), (1,2), ...).
//
// Invariances: translations, and rotations about the table normal (+z), exactly up to
// round-off; reflections and tilting the table change the values. With
// normalize_by_perimeter the values are also invariant under uniform scaling. The start and
// orientation come from the boundary curve (dgli/cloth_boundary.h), so relabelling the mesh
// or reversing the polyline changes the coordinates.
#pragma once

#include "dgli/cloth_boundary.h"
#include "dgli/segment_dgli.h"
#include "base/result.h"

#include <array>
#include <string>
#include <vector>

namespace tela {

enum class SegmentChoice {
  all,        // every boundary edge; pairs of adjacent edges share an endpoint (undefined)
  alternate,  // edges 0, 2, 4, ... (an odd last edge is dropped so no two share an endpoint)
  per_side,   // k segments per side (corner to corner), placed by arc length (SideLayout):
              // none touching, and the same segments for any mesh resolution
};
const char* to_string(SegmentChoice choice);
bool parse_segment_choice(const std::string& text, SegmentChoice& out);

// Where the k per-side segments sit on each side (side parameter s in [0, 1] from its first
// corner). The symmetries of a square (half folds, diagonal folds) map s to s or 1 - s, so a
// layout that is not mirror-symmetric keeps folded segments from landing on (or touching the
// ends of) other chosen segments, where the dGLI blows up.
enum class SideLayout {
  spread,      // pieces 0, 2, ..., 2k-2 of 2k equal pieces (mirror-symmetric up to touching ends)
  first_half,  // piece j = [(j + 0.1) / (2k), (j + 0.8) / (2k)]: all in the first half of the side
};
const char* to_string(SideLayout layout);
bool parse_side_layout(const std::string& text, SideLayout& out);

struct CoordinateSettings {
  SegmentChoice choice = SegmentChoice::per_side;
  int per_side = 2;                     // k for per_side (>= 1)
  SideLayout layout = SideLayout::spread;
  int sides = 4;                        // corners of the cloth (a napkin: 4)
  bool normalize_by_perimeter = false;  // multiply by the perimeter (dimensionless values)
};

using Segment = std::array<Point3, 2>;  // start, end (metres), in boundary orientation

// At most this many segments (their coordinates grow with the square: 499,500 values here).
constexpr int kMaxSegments = 1000;

// The chosen segments of the curve. per_side uses curve.corners when it holds `sides` values,
// otherwise splits the perimeter into `sides` equal parts from the first point.
Result<std::vector<Segment>> choose_segments(const BoundaryCurve& curve, const CoordinateSettings& settings);

struct DgliCoordinates {
  std::vector<Segment> segments;
  std::vector<double> values;        // m (m - 1) / 2, 1/metre (dimensionless when normalized)
  std::vector<PairStatus> status;    // per value; values of undefined pairs are 0
  int undefined = 0;                 // pairs whose status is not ok
  double perimeter = 0;              // metres
};

// Index of the entry (i, j), i < j < m, in the upper-triangle vector.
inline int upper_index(int i, int j, int m) { return i * m - i * (i + 1) / 2 + (j - i - 1); }

// dGLI matrix entries of given segments (scale multiplies every value).
DgliCoordinates segment_coordinates(const std::vector<Segment>& segments, double scale = 1.0);

// Segments chosen on the curve, then their coordinates.
Result<DgliCoordinates> cloth_coordinates(const BoundaryCurve& curve, const CoordinateSettings& settings);

}  // namespace tela
