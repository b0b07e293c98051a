// A fitting problem (thesis §4.2.2): a z-up recording mapped onto a simulation mesh, the
// held corners driven along their recorded trajectories, and the recorded marker positions
// resampled to the simulation steps. The geometry-dependent model is built once; each
// parameter set (delta / rho, alpha / rho) gets its own copy of it with that material and a
// fresh state, so evaluations are independent and can run in parallel.
#pragma once

#include "cloth/controls.h"
#include "cloth/model.h"
#include "fit/error_metrics.h"
#include "mocap/marker_cloth.h"
#include "mocap/marker_grid.h"
#include "mocap/recording.h"
#include "mocap/up_axis.h"
#include "scenario/result.h"
#include "scenario/scenario.h"

#include <memory>
#include <string>
#include <vector>

namespace tela {

struct FitProblemOptions {
  double rho = 0.1804;            // kg/m^2 (Table 4.1; default wool)
  double kappa = 0;               // bending stiffness, fixed during the fit (thesis §4.2.2: 0)
  SolverSettings solver;          // dt = 0.01 s, tolerance 1e-3, 50 iterations
  std::string up;                 // "" = the format's convention or detected; else x, y, z, -x, ...
  MarkerGridOptions grid;
  MarkerClothOptions cloth;
  double duration = 0;            // s of the recording to use; 0 = all of it
  // window (samples) of the Savitzky-Golay (quadratic) filter applied to the held corners'
  // trajectories before they drive the simulation; 1 = none
  int held_smoothing = 21;
  // held corners whose distance is within this much (metres) of the rest width are set to it:
  // the top edge is taut. A slack edge amplifies marker noise enormously (1 mm of slack on a
  // 42 cm edge lets its middle sag by about 1.2 cm), so noise must not make a taut edge slack.
  double taut_tolerance = 0.005;
};

struct FitProblem {
  Recording recording;            // z-up, metres
  UpAxis up;
  MarkerGrid grid;
  MarkerCloth cloth;
  double rho = 0;
  double dt = 0;
  int steps = 0;                  // simulated steps; frame n is at t = n dt, n = 0 .. steps
  std::shared_ptr<const ClothModel> base_model;  // built with delta = alpha = 0
  std::vector<ControlTrack> tracks;              // the two held corners, one keyframe per step
  Positions initial_positions;    // #nodes by 3, projected onto the constraints
  // #steps+1 by 3 #markers, row-major (one frame contiguous)
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> targets;  // recorded markers at the steps (NaN = occluded)
  std::vector<double> marker_weights;  // lumped areas of the marker nodes, m^2
  double held_taut_fraction = 0;       // fraction of steps with the held corners set to the rest width
  std::vector<std::string> warnings;
};

// Builds the problem from a recording in the file's axes. Errors name the offending option.
Result<FitProblem> make_fit_problem(Recording recording, const FitProblemOptions& options);

// A time window in seconds (inclusive).
struct Window {
  double begin = 0, end = 1e300;
};

struct Evaluation {
  double delta_ratio = 0, alpha_ratio = 0;  // delta / rho, alpha / rho
  double mean_error_cm = 0;                 // time mean of e_i over the window (infinite when failed)
  double mean_sd_cm = 0;                    // time mean of s_i
  int frames = 0;
  bool ok = true;
  std::string message;                      // why a simulation failed
};

// Hook for mu (contact scenes, thesis §4.3): this is where a third parameter would reach the
// per-evaluation model copy, together with the scene's obstacles; the contacts module is not
// on this branch, so evaluate() fits delta and alpha only.
//
// Simulates with (delta / rho, alpha / rho) from t = 0 to the end of the window and returns
// the window's error means. `frames` (optional) receives e_i and s_i of every step in the
// window; `trajectory` (optional) the positions at every step (#steps+1 of them).
Evaluation evaluate(const FitProblem& problem, double delta_ratio, double alpha_ratio, const Window& window,
                    std::vector<FrameError>* frames = nullptr, std::vector<Positions>* trajectory = nullptr);

}  // namespace tela
