// Error metrics of a simulation against a recording (thesis eq. 4.3 and 4.5), at the marker
// nodes only, leaving out the markers that are occluded in that frame (no interpolation).
//   e_i = sqrt( sum_j m_j |phi_j - varphi_j|^2 / sum_j m_j )   (mass norm, M normalized to unit weight)
//   s_i = sqrt( Var_j |phi_j - varphi_j| )                       (spatial standard deviation)
// with m_j the lumped mass of marker node j; both reported in centimetres.
#pragma once

#include "geometry/mesh.h"

#include <vector>

namespace tela {

struct FrameError {
  double time = 0;     // s
  double e_cm = 0;     // eq. 4.3
  double s_cm = 0;     // eq. 4.5 (population variance over the visible markers)
  int visible = 0;     // markers that entered the frame's error
};

// `recorded` points at 3 #markers values (x, y, z per marker, metres; NaN = occluded).
FrameError frame_error(const Positions& simulated, const std::vector<int>& marker_nodes,
                       const std::vector<double>& marker_weights, const double* recorded);

struct ErrorSummary {
  double mean_error_cm = 0;   // time mean of e_i over the frames with a visible marker
  double mean_sd_cm = 0;      // time mean of s_i
  int frames = 0;
};

// Time means over the frames with begin <= time <= end.
ErrorSummary time_mean(const std::vector<FrameError>& frames, double begin = 0, double end = 1e300);

}  // namespace tela
