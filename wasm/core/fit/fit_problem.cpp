#include "fit/fit_problem.h"

#include "cloth/projection.h"
#include "contact/obstacles/obstacle.h"
#include "base/integer_cast.h"
#include "mocap/resample.h"
#include "sim/compile.h"
#include "sim/runner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace tela {

Result<FitProblem> make_fit_problem(Recording recording, const FitProblemOptions& options) {
  using R = Result<FitProblem>;
  auto got = [](double v) {
    char text[48];
    std::snprintf(text, sizeof text, " (got %g)", v);
    return std::string(text);
  };
  if (!(options.rho > 0) || !std::isfinite(options.rho))
    return R::failure("rho: must be a density > 0 in kg/m^2" + got(options.rho));
  if (!(options.kappa >= 0) || !std::isfinite(options.kappa)) return R::failure("kappa: must be >= 0" + got(options.kappa));
  if (!(options.solver.dt > 0) || options.solver.dt > 0.1)
    return R::failure("dt: must be in (0, 0.1] s" + got(options.solver.dt));
  // messages start with the page's option key (wasm/bindings/fit_options.h), which the Fit
  // panel marks at its field
  if (options.held_smoothing < 1 || options.held_smoothing > 101)
    return R::failure("held_smoothing: must be a whole number of samples from 1 to 101" + got(options.held_smoothing));
  if (!(options.taut_tolerance >= 0) || !std::isfinite(options.taut_tolerance))
    return R::failure("taut_tolerance: must be a distance >= 0 in metres" + got(options.taut_tolerance));
  if (recording.frame_count() < 2) return R::failure("the recording needs at least 2 frames");

  FitProblem problem;
  problem.rho = options.rho;
  problem.dt = options.solver.dt;
  if (options.up.empty()) {
    problem.up = default_up_axis(recording);
  } else {
    Result<UpAxis> up = parse_up_axis(options.up);
    if (!up.ok()) return R::failure(up.error);
    problem.up = *up.value;
  }
  to_z_up(recording, problem.up);

  Result<MarkerGrid> grid = detect_marker_grid(recording, options.grid);
  if (!grid.ok()) return R::failure(grid.error);
  problem.grid = std::move(*grid.value);
  // a user's order is taken as given; one far from a regular lattice is probably mistyped
  if (problem.grid.source == "user" && problem.grid.residual > options.grid.max_residual)
    problem.warnings.push_back("the given grid order fits a regular lattice poorly (misfit " +
                               std::to_string(problem.grid.residual) + " marker spacings): are two markers swapped?");
  Result<MarkerCloth> cloth = build_marker_cloth(recording, problem.grid, options.cloth);
  if (!cloth.ok()) return R::failure(cloth.error);
  problem.cloth = std::move(*cloth.value);
  // a sheet a robot or a person shakes is centimetres to metres across; far outside that the
  // file's length units are the likely culprit (a millimetre file declared as metres)
  const double extent = std::max(problem.cloth.width, problem.cloth.height);
  if (extent > kPlausibleClothSize[1] || extent < kPlausibleClothSize[0]) {
    char size[96];
    std::snprintf(size, sizeof size, "%.3g x %.3g m", problem.cloth.width, problem.cloth.height);
    problem.warnings.push_back(std::string("the marker grid spans ") + size + " (coordinates read as " +
                               recording.units + "): a cloth this size is unlikely; check the length units");
  }

  const double duration = options.duration > 0 ? std::min(options.duration, recording.duration()) : recording.duration();
  // counted as a double first: a recording whose times span 10^13 s (frame numbers up to 2^53
  // are accepted) would overflow the cast and read as "shorter than one step"
  const double steps = std::floor(duration / problem.dt + 1e-9);
  if (!(steps >= 1)) return R::failure("the recording is shorter than one simulation step");
  if (steps > 200000) {
    char span[64];
    std::snprintf(span, sizeof span, "%.4g s", duration);
    return R::failure(std::string("the recording spans ") + span + " and needs more than 200,000 simulation steps" +
                      " (check its time column or frame numbers and frame rate, or fit a shorter duration)");
  }
  problem.steps = static_cast<int>(steps);
  const int frames = problem.steps + 1;

  // model: held corners controlled; delta and alpha are set per evaluation
  ClothMaterial material;
  material.rho = options.rho;
  material.delta = material.alpha = material.beta = material.shear = 0;
  material.kappa = options.kappa;
  Result<std::shared_ptr<const ClothModel>> model =
      build_model(problem.cloth.mesh, material, compile_solver(options.solver),
                  {problem.cloth.held_nodes[0], problem.cloth.held_nodes[1]});
  if (!model.ok()) return R::failure(model.error);
  problem.base_model = *model.value;

  // held corners: gaps filled, smoothed, their distance kept within the rest width (the top
  // edge cannot stretch) and set to it when nearly taut (see taut_tolerance), then one keyframe per step as offsets from the rest positions
  Eigen::MatrixXd held[2];
  for (int h = 0; h < 2; ++h) {
    const Eigen::MatrixXd raw = gap_filled_track(recording, problem.grid.points[problem.grid.held[h]], problem.dt, frames);
    held[h] = raw;
    // Savitzky-Golay (quadratic) smoothing over a centred window, shrunk near the ends: it
    // removes noise without the lag of a moving average (exact for cubic motion)
    const int half = options.held_smoothing / 2;
    if (half > 0)
      for (int n = 0; n < frames; ++n) {
        const int m = std::min({half, n, frames - 1 - n});
        if (m == 0) continue;
        const double norm = static_cast<double>((2 * m - 1) * (2 * m + 1) * (2 * m + 3));
        Eigen::RowVector3d sum = Eigen::RowVector3d::Zero();
        for (int k = -m; k <= m; ++k) sum += (3.0 * (3 * m * m + 3 * m - 1) - 15.0 * k * k) / norm * raw.row(n + k);
        held[h].row(n) = sum;
      }
  }
  const double rest_distance =
      (problem.cloth.mesh.positions.row(problem.cloth.held_nodes[0]) - problem.cloth.mesh.positions.row(problem.cloth.held_nodes[1])).norm();
  int clamps = 0;
  for (int n = 0; n < frames; ++n) {
    const Eigen::RowVector3d a = held[0].row(n), b = held[1].row(n);
    const double d = (a - b).norm();
    if (d > rest_distance - options.taut_tolerance && d > 0) {
      const Eigen::RowVector3d mid = 0.5 * (a + b), half_gap = 0.5 * rest_distance * (a - b) / d;
      held[0].row(n) = mid + half_gap;
      held[1].row(n) = mid - half_gap;
      ++clamps;
    }
  }
  problem.held_taut_fraction = static_cast<double>(clamps) / frames;
  for (int h = 0; h < 2; ++h) {
    ControlTrack track;
    track.nodes = {problem.cloth.held_nodes[h]};
    track.motion.kind = MotionKind::keyframes;
    track.motion.keyframes.resize(frames);
    const Eigen::RowVector3d rest = problem.base_model->rest_positions.row(problem.cloth.held_nodes[h]);
    for (int n = 0; n < frames; ++n) {
      track.motion.keyframes[n].time = n * problem.dt;
      track.motion.keyframes[n].offset = (held[h].row(n) - rest).transpose();
    }
    problem.tracks.push_back(std::move(track));
  }

  // initial state: frame 0 with the held corners on their tracks, projected onto the constraints
  problem.initial_positions = problem.cloth.initial_positions;
  for (int h = 0; h < 2; ++h) problem.initial_positions.row(problem.cloth.held_nodes[h]) = held[h].row(0);
  Projector projector;
  Preconditioner preconditioner;
  const ProjectionReport projected = projector.project(*problem.base_model, preconditioner, problem.initial_positions,
                                                       options.solver.tolerance, 200);
  if (projected.status != ProjectionStatus::converged)
    problem.warnings.push_back("the first frame could not be made inextensible to the tolerance (relative error " +
                               std::to_string(projected.error) + ")");

  // contact scenes: the cloth must start outside every obstacle (as a scenario's must)
  for (std::size_t i = 0; i < options.obstacles.size(); ++i) {
    const ObstacleDesc& o = options.obstacles[i];
    if (!(o.mu >= 0) || !std::isfinite(o.mu)) return R::failure("obstacles[" + std::to_string(i) + "]: mu must be >= 0");
    const Obstacle obstacle = compile_obstacle(o);
    for (int k = 0; k < problem.initial_positions.rows(); ++k) {
      const double d = obstacle_closest_at(obstacle, 0.0, problem.initial_positions.row(k).transpose()).distance;
      if (d < 0)
        return R::failure("obstacles[" + std::to_string(i) + "]: the first frame's cloth is inside this " + o.type +
                          " (node " + std::to_string(k) + " is " + std::to_string(-d * 1000) +
                          " mm inside); obstacles are in the recording's z-up frame, in metres");
    }
  }
  problem.obstacles = options.obstacles;

  problem.targets = resample_markers(recording, problem.grid.points, problem.dt, frames);
  for (int node : problem.cloth.marker_nodes) problem.marker_weights.push_back(problem.base_model->lumped_area[node]);
  problem.recording = std::move(recording);
  return R::success(std::move(problem));
}

Evaluation evaluate(const FitProblem& problem, const FitPoint& point, const Window& window,
                    std::vector<FrameError>* frames, std::vector<Positions>* trajectory) {
  Evaluation out;
  out.delta_ratio = point.delta_ratio;
  out.alpha_ratio = point.alpha_ratio;
  // one model per parameter set: the geometry is shared by copy, the material is this set's
  auto model = std::make_shared<ClothModel>(*problem.base_model);
  model->material.delta = point.delta_ratio * problem.rho;
  model->material.alpha = point.alpha_ratio * problem.rho;
  // contact scenes: the obstacles with this point's friction (no self-collisions: a sheet
  // laid on a table or shaken does not fold onto itself)
  RunPieces pieces;
  pieces.mesh = std::make_shared<const Mesh>(problem.cloth.mesh);
  pieces.model = model;
  pieces.tracks = problem.tracks;
  pieces.obstacles = compile_obstacles(problem.obstacles);
  if (std::isfinite(point.mu))
    for (Obstacle& o : pieces.obstacles) o.mu = point.mu;
  if (!pieces.obstacles.empty()) out.mu = pieces.obstacles.front().mu;

  ClothState start = Runner::initial_state(*pieces.mesh);
  start.positions = problem.initial_positions;
  Result<Runner> made = Runner::create(std::move(pieces), std::move(start), false);
  if (!made.ok()) {
    out.ok = false;
    out.message = made.error;
    out.mean_error_cm = out.mean_sd_cm = std::numeric_limits<double>::infinity();
    return out;
  }
  Runner& runner = *made.value;
  const ClothState& state = runner.state();
  const int last = window.end >= problem.steps * problem.dt
                       ? problem.steps
                       : clamped_floor(window.end / problem.dt + 1e-9, 0, problem.steps);
  if (trajectory) {
    trajectory->clear();
    trajectory->push_back(state.positions);
  }
  if (frames) frames->clear();
  double e_sum = 0, s_sum = 0;
  for (int n = 1; n <= last; ++n) {
    const StepStatus status = runner.step();
    if (status == StepStatus::diverged || status == StepStatus::non_finite) {
      out.ok = false;
      out.message = std::string("the simulation ") + to_string(status) + " at t = " + std::to_string(state.time) + " s";
      out.mean_error_cm = out.mean_sd_cm = std::numeric_limits<double>::infinity();
      return out;
    }
    if (trajectory) trajectory->push_back(state.positions);
    if (state.time < window.begin - 1e-9) continue;
    FrameError fe = frame_error(state.positions, problem.cloth.marker_nodes, problem.marker_weights,
                                problem.targets.row(n).data());
    fe.time = state.time;
    if (frames) frames->push_back(fe);
    if (fe.visible == 0) continue;
    e_sum += fe.e_cm;
    s_sum += fe.s_cm;
    ++out.frames;
  }
  if (out.frames) {
    out.mean_error_cm = e_sum / out.frames;
    out.mean_sd_cm = s_sum / out.frames;
  }
  return out;
}

}  // namespace tela
