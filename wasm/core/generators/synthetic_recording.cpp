#include "generators/synthetic_recording.h"

#include "cloth/model.h"
#include "scenario/contact_scenes.h"
#include "sim/compile.h"
#include "sim/runner.h"
#include "geometry/generators.h"
#include "base/portable_math.h"
#include "base/portable_random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <numeric>
#include <random>

namespace tela {

namespace {

std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

std::string synthetic_spec_error(const SyntheticRecordingSpec& spec) {
  const bool twist = spec.motion == "twist";
  auto range = [](const char* name, double v, double lo, double hi, const char* unit) -> std::string {
    if (v >= lo && v <= hi) return {};
    return std::string(name) + ": from " + number_text(lo) + " to " + number_text(hi) + unit + " (got " + number_text(v) + ")";
  };
  if (spec.size != "A2" && spec.size != "A3") return "size: 'A2' or 'A3' (got '" + spec.size + "')";
  if (!twist && spec.motion != "lay" && spec.motion != "shake")
    return "motion: 'shake', 'twist' or 'lay' (got '" + spec.motion + "')";
  for (std::string e : {range("duration", spec.duration, 1e-9, 600, " s"), range("dt", spec.dt, 1e-6, 0.1, " s"),
                        range("rho", spec.rho, 1e-6, 1e3, " kg/m^2"),
                        range("delta / rho", spec.delta_ratio, 0, 1e3, ""),
                        range("alpha / rho", spec.alpha_ratio, 0, 1e3, " 1/s"),
                        range("kappa", spec.kappa, 0, 1e3, ""), range("mu", spec.mu, 0, 100, ""),
                        range("noise", spec.noise, 0, 0.1, " m"), range("occlusion", spec.occlusion, 0, 0.5, ""),
                        range("amplitude", spec.amplitude, 0, twist ? 180 : 1, twist ? " degrees (0: 20)" : " m (0: 0.03)"),
                        range("frequency", spec.frequency, 0, 20, " Hz (0: the default)")})
    if (!e.empty()) return e;
  if (spec.refine < 1 || spec.refine > 8) return "refine: 1 to 8 (got " + std::to_string(spec.refine) + ")";
  if (spec.gap_min < 1 || spec.gap_max < spec.gap_min) return "gap lengths: 1 <= gap_min <= gap_max";
  if (!(spec.motion_fraction > 0) || spec.motion_fraction > 1) return "motion_fraction: (0, 1]";
  if (!(spec.rest_before >= 0) || spec.rest_before >= spec.motion_fraction * spec.duration)
    return "rest_before: from 0 s to the end of the motion";
  return {};
}

Result<Recording> synthesize_recording(const SyntheticRecordingSpec& spec) {
  using R = Result<Recording>;
  if (const std::string error = synthetic_spec_error(spec); !error.empty()) return R::failure(error);
  const bool a2 = spec.size == "A2";
  const bool twist = spec.motion == "twist";
  const bool lay = spec.motion == "lay";
  const double amplitude = spec.amplitude > 0 ? spec.amplitude : (twist ? 20.0 : 0.03);
  const double frequency = spec.frequency > 0 ? spec.frequency : (twist ? 0.4 : 0.8);
  const double stop = spec.motion_fraction * spec.duration;
  const int cols = a2 ? 4 : 3, rows = a2 ? 5 : 4;

  RectangleSpec mesh_spec;
  mesh_spec.width = a2 ? 0.42 : 0.297;
  mesh_spec.height = a2 ? 0.594 : 0.42;
  mesh_spec.nx = (cols - 1) * spec.refine + 1;
  mesh_spec.ny = (rows - 1) * spec.refine + 1;
  mesh_spec.plane = MeshPlane::xz;
  mesh_spec.origin = Eigen::Vector3d(-0.5 * mesh_spec.width, 0.0, 1.0);
  // lay: the tablecloth scene's table (top at z = 0.75, y from -0.25 to 0.25) and floor; the
  // sheet hangs in the plane y = -0.05 over the table, its bottom edge 10 cm above the top
  std::vector<ObstacleDesc> obstacles;
  double table_top = 0;
  if (lay) {
    obstacles = contact_scene("tablecloth")->obstacles;
    for (ObstacleDesc& o : obstacles) {
      o.mu = spec.mu;
      if (o.type == "box") table_top = o.center.z() + 0.5 * o.size.z();
    }
    mesh_spec.origin = Eigen::Vector3d(-0.5 * mesh_spec.width, -0.05, table_top + 0.1);
  }
  const Mesh mesh = make_rectangle(mesh_spec);
  const std::vector<int> top = mesh.node_sets.at("top_corners");
  ClothMaterial material;
  material.rho = spec.rho;
  material.delta = spec.delta_ratio * spec.rho;
  material.alpha = spec.alpha_ratio * spec.rho;
  material.kappa = spec.kappa;
  material.beta = material.shear = 0;
  StepSettings solver;
  solver.dt = spec.dt;
  solver.tolerance = spec.tolerance;
  Result<std::shared_ptr<const ClothModel>> built = build_model(mesh, material, solver, top);
  if (!built.ok()) return R::failure(built.error);
  const std::shared_ptr<const ClothModel> model = *built.value;

  // corner motions, one keyframe per step: still for rest_before, then the amplitude ramps up over half a period and
  // down over the half period before `stop`; then the corners hold still and the sheet swings
  // freely (the decay shows the damping)
  const int frames = static_cast<int>(std::floor(spec.duration / spec.dt + 1e-9)) + 1;
  std::vector<ControlTrack> tracks(2);
  const Eigen::Vector3d centre = 0.5 * (mesh.positions.row(top[0]) + mesh.positions.row(top[1])).transpose();
  for (int h = 0; h < 2; ++h) {
    tracks[h].nodes = {top[h]};
    tracks[h].motion.kind = MotionKind::keyframes;
    const Eigen::Vector3d arm = mesh.positions.row(top[h]).transpose() - centre;
    for (int n = 0; n < frames; ++n) {
      const double t = n * spec.dt;
      const double tm = t - spec.rest_before;  // motion time
      // smootherstep ramps (zero first and second derivatives at both ends): the corners'
      // motion is smooth, as a hand's or a robot's is
      const double x = std::clamp(std::min(tm, stop - t) * 2 * frequency, 0.0, 1.0);
      const double envelope = x * x * x * (x * (6 * x - 15) + 10);
      double sine = 0, cosine = 0;
      portable_sin_cos_turns(frequency * std::max(tm, 0.0), &sine, &cosine);
      Eigen::Vector3d offset = Eigen::Vector3d::Zero();
      if (lay) {
        // one smootherstep leg from rest_before: in 2 s the corners move 50 cm back (+y, over
        // the table's back edge) while lowering to 20 cm above the table top, so that the
        // bottom edge meets the table while already moving and trails behind (a sheet lowered
        // straight down would buckle one way or the other: a bifurcation no fit can follow);
        // then still
        const double drop = table_top + 0.2 - (table_top + 0.1 + mesh_spec.height);
        const double u = std::clamp(tm / 2.0, 0.0, 1.0);
        const double s2 = u * u * u * (u * (6 * u - 15) + 10);
        offset = Eigen::Vector3d(0, 0.5 * s2, drop * s2);
      } else if (twist) {
        double s = 0, c = 0;
        portable_sin_cos_turns(envelope * sine * amplitude / 360.0, &s, &c);
        offset = Eigen::Vector3d(c * arm.x() - s * arm.y(), s * arm.x() + c * arm.y(), arm.z()) - arm;
      } else {
        offset.y() = amplitude * envelope * sine;
      }
      tracks[h].motion.keyframes.push_back({t, offset});
    }
  }

  // marker nodes in grid order (row 0 at the top), then a shuffled column order
  std::vector<int> marker_nodes;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) marker_nodes.push_back((rows - 1 - r) * spec.refine * mesh_spec.nx + c * spec.refine);
  std::mt19937_64 rng(spec.seed);
  std::vector<int> column_order(marker_nodes.size());
  std::iota(column_order.begin(), column_order.end(), 0);
  for (std::size_t k = column_order.size(); k > 1; --k)
    std::swap(column_order[k - 1], column_order[uniform_index(rng, static_cast<int>(k))]);

  Recording rec;
  rec.format = "motive-csv";
  rec.format_version = "1.23";
  rec.units = "mm";
  rec.rate = 1.0 / spec.dt;
  rec.up_axis = 'y';
  const int markers = static_cast<int>(marker_nodes.size());
  for (int m = 0; m < markers; ++m) {
    const int g = column_order[m];
    char name[32];
    std::snprintf(name, sizeof name, "Cloth:M%d%d", g / cols + 1, g % cols + 1);
    rec.names.push_back(name);
    rec.kinds.push_back(PointKind::marker);
  }
  rec.positions.resize(frames, 3 * markers);

  RunPieces pieces;
  pieces.mesh = std::make_shared<const Mesh>(mesh);
  pieces.model = model;
  pieces.tracks = std::move(tracks);
  pieces.obstacles = compile_obstacles(obstacles);
  Result<Runner> made = Runner::create(std::move(pieces), Runner::initial_state(mesh), false);
  if (!made.ok()) return R::failure(made.error);
  Runner& runner = *made.value;
  const ClothState& state = runner.state();
  for (int n = 0; n < frames; ++n) {
    if (n > 0) {
      const StepStatus status = runner.step();
      if (status == StepStatus::diverged || status == StepStatus::non_finite)
        return R::failure(std::string("the simulation ") +
                          (status == StepStatus::diverged ? "diverged" : "produced non-finite positions") +
                          " at t = " + number_text(state.time) + " s: try milder parameters (amplitude, kappa) or a smaller dt");
    }
    rec.frame_numbers.push_back(n);
    rec.times.push_back(n * spec.dt);
    for (int m = 0; m < markers; ++m) {
      const Eigen::RowVector3d x = state.positions.row(marker_nodes[column_order[m]]);
      // z-up (x, y, z) -> Motive's y-up (y, z, x)
      rec.positions(n, 3 * m + 0) = x(1);
      rec.positions(n, 3 * m + 1) = x(2);
      rec.positions(n, 3 * m + 2) = x(0);
    }
  }
  // noise, then occlusion gaps until the wanted fraction of samples is missing
  const double sd = spec.noise / std::sqrt(3.0);
  for (int n = 0; n < frames; ++n)
    for (int c = 0; c < 3 * markers; ++c) rec.positions(n, c) += sd * standard_normal(rng);
  const long wanted = static_cast<long>(spec.occlusion * frames * markers);
  long missing = 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  while (missing < wanted) {
    const int m = uniform_index(rng, markers);
    const int length = spec.gap_min + uniform_index(rng, spec.gap_max - spec.gap_min + 1);
    const int start = 1 + uniform_index(rng, std::max(1, frames - 1 - length));
    for (int n = start; n < std::min(frames, start + length) && missing < wanted; ++n) {
      if (!rec.valid(n, m)) continue;
      rec.positions.block<1, 3>(n, 3 * m).setConstant(nan);
      ++missing;
    }
  }
  return R::success(std::move(rec));
}

}  // namespace tela
