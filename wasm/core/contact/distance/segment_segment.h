// Closest points of two segments p0 + s (p1 - p0) and q0 + t (q1 - q0), s, t in [0, 1]
// (Ericson §5.1.9, with the parallel and zero-length cases handled).
#pragma once

#include <Eigen/Core>

namespace tela {

struct SegmentSegmentClosest {
  double s = 0, t = 0;   // parameters of the closest points
  double distance = 0;   // metres
  bool parallel = false; // directions parallel (or a segment of zero length): s was chosen
};

SegmentSegmentClosest segment_segment_closest(const Eigen::Vector3d& p0, const Eigen::Vector3d& p1,
                                              const Eigen::Vector3d& q0, const Eigen::Vector3d& q1);

}  // namespace tela
