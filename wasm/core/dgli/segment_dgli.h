// The dGLI of two segments (thesis §7.3, docs/math.md §5.2): the directional derivative of the
// segment GLI when the second endpoints B and D of both segments move along the table normal
// e, dGLI(AB, CD) = d/de G(A, B + eps e, C, D + eps e) at eps = 0 (includes the 1/(4 pi) factor
// of the GLI; units 1/metre).
//
// Computed exactly, not by finite differences: 4 pi G is the signed solid angle that the
// parallelogram {AC + t CD - s AB : s, t in [0,1]} subtends at the origin, i.e. the sum of two
// Van Oosterom-Strackee triangle terms 2 atan2(N, D). Its derivative along the motion
// (corner velocities 0, -e, 0, e) is sum 2 (N' D - N D') / (N^2 + D^2), well conditioned also
// for coplanar segments, where it reduces to the closed form (AC ^ BD) * I / (4 pi) of
// docs/math.md §5.2.
#pragma once

#include "dgli/segment_gli.h"

namespace tela {

// Whether a pair of segments has a dGLI (thesis: G is undefined when the segments intersect).
enum class PairStatus {
  ok,
  shared_endpoint,   // the segments touch at an endpoint (e.g. adjacent boundary edges)
  intersecting,      // the segments cross or touch elsewhere
  degenerate,        // a segment has zero length
};
const char* to_string(PairStatus status);

struct SegmentDgli {
  double value = 0;  // 1/metre; 0 whenever status != ok
  PairStatus status = PairStatus::ok;
};

// Classifies the pair: distances below 1e-12 times the longer segment's length count as
// contact. Endpoint coincidence is checked first.
PairStatus segment_pair_status(const Point3& a, const Point3& b, const Point3& c, const Point3& d);

// dGLI of AB and CD for the motion of B and D along `normal` (unit vector, default +z).
// Symmetric in the two segments; invariant under translations and rotations about `normal`.
SegmentDgli segment_dgli(const Point3& a, const Point3& b, const Point3& c, const Point3& d,
                         const Point3& normal = Point3(0, 0, 1));

// Closed form for coplanar segments in a plane normal to +z (docs/math.md §5.2, verified there):
// (AC ^ BD) * I / (4 pi), with I integrated exactly over the image parallelogram by the
// divergence theorem (edge sums of tau / (h sqrt(h^2 + tau^2))). Only the x, y components are
// used. Parallel segments (AB ^ CD = 0, a degenerate parallelogram) are passed to segment_dgli.
SegmentDgli segment_dgli_flat(const Point3& a, const Point3& b, const Point3& c, const Point3& d);

}  // namespace tela
