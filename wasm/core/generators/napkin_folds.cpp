#include "generators/napkin_folds.h"

#include "geometry/generators.h"
#include "base/portable_math.h"
#include "base/portable_random.h"
#include "geometry/topology.h"
#include "sim/simulation.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace tela {
namespace {

using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;

constexpr int kKeysPerStage = 12;

// A rigid fold: the nodes in `carried` rotate by half a turn about the line q + lambda d in
// the table plane, from the side its normal n points to, over the top.
struct FoldStage {
  Vec2 point, normal;           // local napkin coordinates (metres); normal points to the flap
  std::vector<int> carried;     // corner numbers 0..3 (bottom-left, bottom-right, top-right, top-left)
  int label = kFlat;            // class of the state once this stage is done
  double max_progress = 1.0;    // < 1: lift partly and put back (flat sequences)
};

double smoothstep(double x) {
  x = std::clamp(x, 0.0, 1.0);
  return x * x * (3 - 2 * x);
}

// rotation of p by the angle pi * progress about the axis through m with unit direction a
Vec3 rotate_about(const Vec3& p, const Vec3& m, const Vec3& a, double progress) {
  double s = 0, c = 0;
  portable_sin_cos_turns(0.5 * progress, &s, &c);
  const Vec3 v = p - m;
  return m + v * c + a.cross(v) * s + a * a.dot(v) * (1 - c);
}

Vec2 corner_of(int k, double side) {
  switch (((k % 4) + 4) % 4) {
    case 0: return Vec2(0, 0);
    case 1: return Vec2(side, 0);
    case 2: return Vec2(side, side);
    default: return Vec2(0, side);
  }
}

// the node nearest to a point of the table plane (first one on ties)
int nearest_node(const Mesh& mesh, const Vec2& p) {
  int best = 0;
  double best_distance = 1e300;
  for (int k = 0; k < mesh.node_count(); ++k) {
    const double d = (mesh.positions.row(k).head<2>().transpose() - p).squaredNorm();
    if (d < best_distance) {
      best_distance = d;
      best = k;
    }
  }
  return best;
}

// fold of one corner about the line perpendicular to its diagonal at fraction f of the way
// from the corner to the centre
FoldStage corner_stage(int k, double f, double side, int label) {
  const Vec2 corner = corner_of(k, side), centre(side / 2, side / 2);
  FoldStage stage;
  stage.point = corner + f * (centre - corner);
  stage.normal = (corner - centre).normalized();
  stage.carried = {((k % 4) + 4) % 4};
  stage.label = label;
  return stage;
}

// side r (corner r to r+1) stays; the opposite side is carried over a line parallel to it at
// distance f * side
FoldStage half_stage(int r, double f, double side, int label) {
  const Vec2 a = corner_of(r, side), b = corner_of(r + 1, side);
  const Vec2 along = (b - a).normalized();
  const Vec2 inward(-along.y(), along.x());  // counter-clockwise corners: the napkin is on the left
  FoldStage stage;
  stage.point = a + f * side * inward;
  stage.normal = inward;
  stage.carried = {(r + 2) % 4, (r + 3) % 4};
  stage.label = label;
  return stage;
}

}  // namespace

const std::vector<std::string>& napkin_class_names() {
  static const std::vector<std::string> names = {
      "flat", "one_corner", "two_adjacent_corners", "two_opposite_corners",
      "half_side", "half_diagonal", "quarter", "crumpled"};
  return names;
}

int label_at(const FoldPlan& plan, double t) {
  const std::size_t stages = plan.stage_starts.size();
  int last = -1;
  for (std::size_t i = 0; i < stages; ++i) {
    const double d = plan.stage_ends[i] - plan.stage_starts[i];
    if (t >= plan.stage_starts[i] + 0.1 * d) last = static_cast<int>(i);
  }
  if (last < 0) return kFlat;
  const double d = plan.stage_ends[last] - plan.stage_starts[last];
  if (t >= plan.stage_ends[last] - 0.1 * d) return plan.stage_labels[last];
  return -1;
}

Result<FoldPlan> plan_fold_sequence(const FoldSequenceSpec& spec) {
  using R = Result<FoldPlan>;
  const NapkinPose& pose = spec.pose;
  if (!(pose.side > 0)) return R::failure("pose.side: must be > 0");
  if (pose.nodes_per_side < 3 || pose.nodes_per_side > 60)
    return R::failure("pose.nodes_per_side: must be in [3, 60]");
  if (spec.kind < 0 || spec.kind >= kNapkinClassCount) return R::failure("kind: unknown napkin class");
  const double L = pose.side;
  const int n = pose.nodes_per_side;

  RectangleSpec rect;
  rect.width = rect.height = L;
  rect.nx = rect.ny = n;
  rect.elements = pose.elements == "tri"            ? ElementKind::tri_right
                  : pose.elements == "tri_left"      ? ElementKind::tri_left
                  : pose.elements == "tri_irregular" ? ElementKind::tri_irregular
                                                     : ElementKind::quad;
  rect.seed = spec.seed;
  const Mesh local = make_rectangle(rect);
  auto corner_node = [&](int k, int) { return nearest_node(local, corner_of(k, L)); };

  // pose on the table: rotation about +z around the local origin, then the translation
  double rs = 0, rc = 0;
  portable_sin_cos_turns(pose.rotation_turns, &rs, &rc);
  // table mode: the mid-surface starts tau0 / 2 (+ 0.5 mm) above the table plane z = 0
  const double z0 = spec.table ? 0.5 * spec.thickness + 0.0005 : 0.0;
  auto to_world = [&](const Vec3& p) {
    return Vec3(rc * p.x() - rs * p.y() + pose.translation.x(), rs * p.x() + rc * p.y() + pose.translation.y(),
                p.z() + z0);
  };

  const int r = ((spec.variant % 4) + 4) % 4;
  std::vector<FoldStage> stages;
  switch (spec.kind) {
    case kFlat: {
      FoldStage lift = corner_stage(r, spec.depth, L, kFlat);
      lift.max_progress = 0.12;
      stages.push_back(lift);
      break;
    }
    case kOneCorner: stages.push_back(corner_stage(r, spec.depth, L, kOneCorner)); break;
    case kTwoAdjacentCorners:
      stages.push_back(corner_stage(r, spec.depth, L, kOneCorner));
      stages.push_back(corner_stage(r + 1, spec.depth, L, kTwoAdjacentCorners));
      break;
    case kTwoOppositeCorners:
      stages.push_back(corner_stage(r, spec.depth, L, kOneCorner));
      stages.push_back(corner_stage(r + 2, spec.depth, L, kTwoOppositeCorners));
      break;
    case kHalfSide: stages.push_back(half_stage(r, spec.depth, L, kHalfSide)); break;
    case kHalfDiagonal: {
      // corner r is carried over the diagonal through corners r+1 and r+3
      FoldStage stage = corner_stage(r, spec.table ? spec.depth : 1.0, L, kHalfDiagonal);
      stages.push_back(stage);
      break;
    }
    case kQuarter: {
      stages.push_back(half_stage(r, spec.depth, L, kHalfSide));
      // then the half towards corner r+1 (or r, for odd variant / 4) over the perpendicular midline
      const bool mirror = ((spec.variant / 4) % 2) != 0;
      const Vec2 a = corner_of(r, L), b = corner_of(r + 1, L);
      FoldStage second;
      second.point = a + spec.depth * (b - a);
      second.normal = (mirror ? (a - b) : (b - a)).normalized();
      second.carried = mirror ? std::vector<int>{r, (r + 3) % 4} : std::vector<int>{(r + 1) % 4, (r + 2) % 4};
      second.label = kQuarter;
      stages.push_back(second);
      break;
    }
    default: break;
  }

  FoldPlan plan;
  Scenario& s = plan.scenario;
  s.name = "napkin-" + napkin_class_names()[spec.kind];
  s.description = spec.table ? "A square napkin on a table folded by keyframed corners, self-collisions on "
                               "(tela dgli database generator)."
                             : "A square napkin folded by keyframed corners in zero gravity, the part on the table "
                               "held (tela dgli database generator, zero-gravity mode: no table contact).";
  s.material = spec.table ? Material{0.1804, 0.1804, 0.5, 0.0, 0.0, 0.0} : Material{0.1804, 0.0, 1.0, 0.0, 0.0, 0.0};
  if (spec.table) {
    ObstacleDesc plane;
    plane.type = "plane";
    plane.mu = spec.table_mu;
    s.obstacles = {plane};
    s.self_collision.enabled = true;
    s.self_collision.thickness = spec.thickness;
    s.self_collision.mu = spec.cloth_mu;
  }
  // 150 projection iterations per substep: a step whose last-level substep stops at the cap
  // runs its remaining substeps from an unconverged state, and flaps landing on the cloth
  // hit the cap often (349 steps of the database at 50 iterations, 203 at 150); chosen on
  // the held-out validation seed 12 (docs/validation.md, "dGLI classification")
  s.solver = SolverSettings{0.01, 1e-3, 150};
  s.seed = spec.seed;

  ExplicitMeshDesc desc;
  for (int k = 0; k < local.node_count(); ++k) {
    const Vec3 w = to_world(local.positions.row(k).transpose());
    desc.vertices.insert(desc.vertices.end(), {w.x(), w.y(), w.z()});
  }
  for (const Face& f : local.faces) {
    std::vector<int> face;
    for (int i = 0; i < f.size(); ++i) face.push_back(f.v[i]);
    desc.faces.push_back(face);
  }
  s.mesh = desc;

  std::map<int, std::vector<Keyframe>> keys;  // node -> keyframes (world offsets)
  std::vector<char> controlled(local.node_count(), 0);
  double t = spec.rest_before;

  if (spec.kind == kCrumpled && spec.table) {
    // on a table: 2 to 4 of the 8 boundary points (corners, side midpoints) are pushed along
    // the table a random part of the way towards the centre; the cloth between them buckles
    // into random wrinkles and folds under gravity, table friction and self-collisions (the
    // pushed points stay held where they end)
    std::mt19937_64 rng(spec.seed * 7919 + 17);
    std::vector<Vec2> boundary_points;
    for (int k = 0; k < 4; ++k) {
      boundary_points.push_back(corner_of(k, L));
      boundary_points.push_back(0.5 * (corner_of(k, L) + corner_of(k + 1, L)));
    }
    const int count = 2 + static_cast<int>(uniform_index(rng, 3));
    const int first = static_cast<int>(uniform_index(rng, 8));
    const double duration = spec.stage_duration * uniform_real(rng, 0.8, 1.2);
    for (int i = 0; i < count; ++i) {
      // spread around the boundary: 8 / count steps apart, jittered by one step
      const int step = 8 / count;
      const int index = (first + i * step + static_cast<int>(uniform_index(rng, 2))) % 8;
      const int node = nearest_node(local, boundary_points[index]);
      if (controlled[node]) continue;
      const Vec3 rest = local.positions.row(node).transpose();
      const double push = uniform_real(rng, 0.2, 0.4);
      const Vec3 target = rest + push * (Vec3(L / 2, L / 2, 0) - rest) +
                          Vec3(uniform_real(rng, -0.05, 0.05) * L, uniform_real(rng, -0.05, 0.05) * L,
                               uniform_real(rng, 0.0, 0.04) * L);
      std::vector<Keyframe>& list = keys[node];
      for (int j = 0; j <= kKeysPerStage; ++j) {
        const double u = static_cast<double>(j) / kKeysPerStage;
        list.push_back({t + u * duration, to_world(rest + smoothstep(u) * (target - rest)) - to_world(rest)});
      }
      controlled[node] = 1;
    }
    plan.stage_starts.push_back(t);
    plan.stage_ends.push_back(t + duration);
    plan.stage_labels.push_back(kCrumpled);
    t += duration;
  } else if (spec.kind == kCrumpled) {
    // corners and side midpoints move together (one timing, convex combinations of rest and
    // target, so no distance grows) towards random points near the centre, bulging upwards
    std::mt19937_64 rng(spec.seed * 7919 + 17);
    std::vector<int> nodes;
    for (int k = 0; k < 4; ++k) nodes.push_back(corner_node(k, n));
    for (const Vec2& p : {Vec2(L / 2, 0), Vec2(L, L / 2), Vec2(L / 2, L), Vec2(0, L / 2)})
      nodes.push_back(nearest_node(local, p));
    const double duration = spec.stage_duration * uniform_real(rng, 0.9, 1.2);
    const double bump = uniform_real(rng, 0.15, 0.35) * L;
    for (int node : nodes) {
      const Vec3 rest = local.positions.row(node).transpose();
      Vec3 target;
      if (spec.table) {
        // on a table: pushed a random part of the way towards the centre (so that the carried
        // points stay apart and the cloth between them buckles under gravity and contacts)
        const double s = uniform_real(rng, 0.4, 0.75);
        target = rest + s * (Vec3(L / 2, L / 2, 0) - rest);
        target += Vec3(uniform_real(rng, -0.06, 0.06) * L, uniform_real(rng, -0.06, 0.06) * L, uniform_real(rng, 0.01, 0.1) * L);
      } else {
        target = Vec3(L / 2 + uniform_real(rng, -0.15, 0.15) * L, L / 2 + uniform_real(rng, -0.15, 0.15) * L,
                      uniform_real(rng, 0.02, 0.12) * L);
      }
      std::vector<Keyframe>& list = keys[node];
      for (int i = 0; i <= kKeysPerStage; ++i) {
        const double u = static_cast<double>(i) / kKeysPerStage, sigma = smoothstep(u);
        Vec3 p = rest + sigma * (target - rest);
        p.z() += 4 * sigma * (1 - sigma) * bump;
        list.push_back({t + u * duration, to_world(p) - to_world(rest)});
      }
      controlled[node] = 1;
    }
    plan.stage_starts.push_back(t);
    plan.stage_ends.push_back(t + duration);
    plan.stage_labels.push_back(kCrumpled);
    t += duration;
    // the centre node stays on the table
    const int centre = nearest_node(local, Vec2(L / 2, L / 2));
    if (!controlled[centre] && !spec.table) {
      Control hold;
      hold.nodes.indices = {centre};
      s.controls.push_back(hold);
    }
  } else {
    // With a flap margin, every node that is beyond it on the moving side of a stage is carried
    // rigidly in that stage (the flap pressed flat), provided it never sits in the moving-side
    // crease zone (0 < distance <= margin) of any stage: a control there would have to stretch
    // the cloth. Each node's path depends only on the stages, so this is decided node by node.
    std::vector<Vec3> current(local.node_count());
    for (int k = 0; k < local.node_count(); ++k) current[k] = local.positions.row(k).transpose();
    const double grip = spec.grip_margin_fraction * L;
    std::vector<std::vector<char>> carries(stages.size(), std::vector<char>(local.node_count(), 0));
    if (grip > 0) {
      for (int k = 0; k < local.node_count(); ++k) {
        Vec3 p = current[k];
        bool valid = true, moves = false;
        std::vector<char> moving(stages.size(), 0);
        for (std::size_t s = 0; s < stages.size() && valid; ++s) {
          const FoldStage& stage = stages[s];
          if (stage.max_progress < 1) {
            valid = false;
            break;
          }
          const double distance = (p.head<2>() - stage.point).dot(stage.normal);
          if (distance > grip) {
            moving[s] = 1;
            moves = true;
            const Vec3 m(stage.point.x(), stage.point.y(), 0);
            const Vec3 axis = Vec3(stage.normal.x(), stage.normal.y(), 0).cross(Vec3::UnitZ());
            p = rotate_about(p, m, axis, 1.0);
          } else if (distance > 0) {
            valid = false;
          }
        }
        if (valid && moves)
          for (std::size_t s = 0; s < stages.size(); ++s) carries[s][k] = moving[s];
      }
    }
    for (std::size_t stage_index = 0; stage_index < stages.size(); ++stage_index) {
      const FoldStage& stage = stages[stage_index];
      const double duration = spec.stage_duration;
      std::vector<int> carried;
      for (int k : stage.carried) carried.push_back(corner_node(k, n));
      for (int k = 0; k < local.node_count(); ++k)
        if (carries[stage_index][k] && std::find(carried.begin(), carried.end(), k) == carried.end())
          carried.push_back(k);
      double highest = 0;
      for (int node : carried) highest = std::max(highest, current[node].z());
      const double lift = spec.hover + 2 * highest;
      const Vec3 m(stage.point.x(), stage.point.y(), 0);
      const Vec3 axis = Vec3(stage.normal.x(), stage.normal.y(), 0).cross(Vec3::UnitZ());
      for (int node : carried) {
        const Vec3 rest = local.positions.row(node).transpose();
        const Vec3 start = current[node];
        std::vector<Keyframe>& list = keys[node];
        Vec3 p = start;
        for (int i = 0; i <= kKeysPerStage; ++i) {
          const double u = static_cast<double>(i) / kKeysPerStage;
          // up and back down for a partial lift
          double bump = 0, unused = 0;
          portable_sin_cos_turns(0.5 * u, &bump, &unused);
          const double progress = stage.max_progress < 1 ? stage.max_progress * bump : smoothstep(u);
          p = rotate_about(start, m, axis, progress);
          if (stage.max_progress >= 1) p.z() += lift * progress;
          const double key_time = t + u * duration;
          if (!list.empty() && key_time <= list.back().time) continue;
          list.push_back({key_time, to_world(p) - to_world(rest)});
        }
        current[node] = p;
        controlled[node] = 1;
      }
      plan.stage_starts.push_back(t);
      plan.stage_ends.push_back(t + duration);
      plan.stage_labels.push_back(stage.label);
      t += duration;
    }
    // the part that lies on the table: beyond the margin on the stationary side of every line
    std::vector<int> held;
    const double margin = spec.pin_margin_fraction * L;
    for (int k = 0; k < local.node_count(); ++k) {
      if (controlled[k]) continue;
      const Vec2 p = local.positions.row(k).head<2>().transpose();
      bool stays = true;
      for (const FoldStage& stage : stages)
        if ((p - stage.point).dot(stage.normal) > -margin) stays = false;
      if (stays) held.push_back(k);
    }
    if (!held.empty() && !spec.table) {
      Control hold;
      hold.nodes.indices = held;
      s.controls.push_back(hold);
    }
  }
  for (const auto& entry : keys) {
    Control control;
    control.nodes.indices = {entry.first};
    control.motion.type = "keyframes";
    control.motion.keyframes = entry.second;
    s.controls.push_back(control);
  }
  if (spec.kind == kFlat) plan.stage_labels.assign(plan.stage_labels.size(), kFlat);
  plan.duration = t + spec.rest_after;
  s.duration = plan.duration;

  Result<Simulation> check = Simulation::create(s);
  if (!check.ok()) return R::failure("napkin scenario: " + check.error);
  plan.mesh = check.value->mesh();
  return R::success(std::move(plan));
}

Result<FoldSequence> simulate_fold_sequence(const FoldSequenceSpec& spec, double frame_interval) {
  using R = Result<FoldSequence>;
  Result<FoldPlan> plan = plan_fold_sequence(spec);
  if (!plan.ok()) return R::failure(plan.error);
  Result<Simulation> created = Simulation::create(plan.value->scenario);
  if (!created.ok()) return R::failure(created.error);
  Simulation& sim = *created.value;
  FoldSequence sequence;
  sequence.mesh = sim.mesh();
  sequence.scenario = plan.value->scenario;
  const double dt = plan.value->scenario.solver.dt;
  const long steps = sim.steps_for_duration();
  double next_frame = 0;
  for (long k = 0; k <= steps; ++k) {
    if (k > 0) {
      sim.step();
      if (sim.failed()) return R::failure("simulation failed at t = " + std::to_string(sim.time()) + ": " + sim.failure_message());
      if (sim.last_report().qp_iterations > spec.max_step_qp_iterations)
        return R::failure("contact solver stalled: " + std::to_string(sim.last_report().qp_iterations) +
                          " active-set iterations in the step ending at t = " + std::to_string(sim.time()));
    }
    if (sim.time() + 0.5 * dt >= next_frame) {
      sequence.frames.push_back({sim.state().positions, sim.time(), label_at(*plan.value, sim.time())});
      next_frame += frame_interval;
    }
  }
  sequence.unconverged_steps = sim.stats().unconverged_steps;
  return R::success(std::move(sequence));
}

}  // namespace tela
