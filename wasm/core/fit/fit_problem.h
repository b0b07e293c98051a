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
#include "base/result.h"
#include "scenario/scenario.h"

#include <limits>
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
  // contact scenes (thesis §4.3): obstacles in the recording's z-up frame (metres), e.g. the
  // table of a tablecloth recording; their mu is the starting guess when mu is fitted
  std::vector<ObstacleDesc> obstacles;
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
  std::vector<ObstacleDesc> obstacles; // contact scenes: simulated with contacts and friction
  std::vector<std::string> warnings;
};

// A marker grid whose larger side lies outside [min, max] metres gets a warning naming the
// length units the coordinates were read in (a millimetre file declared as metres spans
// hundreds of metres).
constexpr double kPlausibleClothSize[2] = {0.05, 5.0};

// Builds the problem from a recording in the file's axes. Errors name the offending option.
Result<FitProblem> make_fit_problem(Recording recording, const FitProblemOptions& options);

// A time window in seconds (inclusive).
struct Window {
  double begin = 0, end = 1e300;
};

struct Evaluation {
  double delta_ratio = 0, alpha_ratio = 0;  // delta / rho, alpha / rho
  double mu = std::numeric_limits<double>::quiet_NaN();  // the friction used (NaN: no obstacles)
  double mean_error_cm = 0;                 // time mean of e_i over the window (infinite when failed)
  double mean_sd_cm = 0;                    // time mean of s_i
  int frames = 0;
  bool ok = true;
  std::string message;                      // why a simulation failed
};

// A point of the parameter space: delta / rho, alpha / rho and, in contact scenes, the
// Coulomb friction mu of every obstacle (thesis §4.3 fits one mu per recording); a NaN mu
// keeps each obstacle's own.
struct FitPoint {
  double delta_ratio = 0, alpha_ratio = 0;
  double mu = std::numeric_limits<double>::quiet_NaN();
};

// Simulates the point from t = 0 to the end of the window (with contacts when the problem has
// obstacles) and returns the window's error means. `frames` (optional) receives e_i and s_i
// of every step in the window; `trajectory` (optional) the positions at every step
// (#steps+1 of them).
Evaluation evaluate(const FitProblem& problem, const FitPoint& point, const Window& window,
                    std::vector<FrameError>* frames = nullptr, std::vector<Positions>* trajectory = nullptr);
// The same without friction to set (problems without obstacles, or their own mu).
inline Evaluation evaluate(const FitProblem& problem, double delta_ratio, double alpha_ratio, const Window& window,
                           std::vector<FrameError>* frames = nullptr, std::vector<Positions>* trajectory = nullptr) {
  return evaluate(problem, FitPoint{delta_ratio, alpha_ratio}, window, frames, trajectory);
}

}  // namespace tela
