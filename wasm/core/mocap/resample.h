// Resampling recorded trajectories onto the simulation's time steps t_n = n dt by linear
// interpolation between the two recorded frames around t_n.
#pragma once

#include "mocap/recording.h"

#include <Eigen/Core>
#include <vector>

namespace tela {

// Positions of `points` at t_n = n dt, n = 0 .. frames-1 (#frames by 3 #points, metres).
// A sample is valid only when both recorded frames around t_n hold the point and are at most
// 1.5 frame intervals apart: occlusion gaps stay missing (NaN), never interpolated.
Eigen::MatrixXd resample_markers(const Recording& recording, const std::vector<int>& points, double dt,
                                 int frames);

// The trajectory of one point at t_n = n dt with its gaps filled by a cubic Hermite curve
// whose end velocities come from the frames on either side of the gap (linear between
// neighbouring frames), held constant before the first valid sample and after the last. #frames by 3, metres.
// Precondition: the point has at least one valid sample.
Eigen::MatrixXd gap_filled_track(const Recording& recording, int point, double dt, int frames);

}  // namespace tela
