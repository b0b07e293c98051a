// Folding sequences of a square napkin, simulated with the cloth simulator (sim/), for the
// dGLI reference database (thesis §7.4: "a data-base of cloth configurations of a napkin taken
// from simulated folding sequences").
//
// Physics (`table`, the default): the napkin lies on a table (the plane z = 0, friction
// `table_mu`) under gravity (delta = rho, Rayleigh damping), with self-collisions (thickness
// tau0 = `thickness`, friction `cloth_mu`). The folded corners are carried by keyframed controls
// along half-circle arcs about the fold line and laid down `hover` above the layer below
// (tau0 + 1 mm: on it); they stay held there, since a scenario's controls cannot be released,
// and gravity lays the rest of the flap onto the cloth. Nothing else is controlled: the part
// that stays on the table is kept by friction. Crumpled: 2 to 4 corners or side midpoints are
// pushed along the table towards the centre, and the cloth between them buckles.
//
// `table = false` is the zero-gravity generator (no contacts): delta = 0,
// the part of the napkin that would rest on the table is held by hold controls (the nodes
// farther than `pin_margin` from every fold line on the stationary side), the folded corners are
// carried in the same way, ending `hover` above the cloth (optionally with the whole flap beyond
// a margin from the fold line carried rigidly); self-collisions are off, so crumpled states
// (corners and midpoints carried towards random points near the centre) may interpenetrate.
#pragma once

#include "geometry/mesh.h"
#include "base/result.h"
#include "scenario/scenario.h"

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tela {

// The eight classes of the database, in this order (class index = position).
const std::vector<std::string>& napkin_class_names();
enum NapkinClass : int {
  kFlat = 0, kOneCorner, kTwoAdjacentCorners, kTwoOppositeCorners, kHalfSide, kHalfDiagonal,
  kQuarter, kCrumpled, kNapkinClassCount
};

// Where and how the napkin lies on the (virtual) table.
struct NapkinPose {
  double side = 0.4;            // metres
  int nodes_per_side = 9;       // mesh resolution
  std::string elements = "quad";  // quad | tri (generator rectangle elements)
  double rotation_turns = 0;    // about +z, around the napkin's bottom-left corner
  Eigen::Vector2d translation{0, 0};  // metres
};

struct FoldSequenceSpec {
  int kind = kOneCorner;        // NapkinClass of the final state
  int variant = 0;              // symmetry variant: which corner / side / order (any integer)
  double depth = 0.4;           // fold-line position, a fraction (see napkin_folds.cpp)
  std::uint64_t seed = 1;       // crumpled and flat sequences
  NapkinPose pose;
  double hover = 0.004;         // height of a folded layer above the one below, metres
  double pin_margin_fraction = 0.12;  // of the side
  // > 0: every node beyond this fraction of the side from the fold line on the flap side is
  // carried rigidly with the corners (the flap pressed flat, as gravity and the table would do;
  // nodes that would sit in a later stage's moving crease zone stay free). 0: corners only.
  double grip_margin_fraction = 0.0;
  double stage_duration = 1.5;  // s per folding stage
  // Physics: true = on a table (plane z = 0, gravity, friction, self-collisions; no holds);
  // false = zero gravity with hold controls standing in for the table.
  bool table = true;
  double thickness = 0.003;     // table mode: cloth thickness tau0 (self-collisions), metres
  double table_mu = 0.5, cloth_mu = 0.3;  // table mode: friction coefficients
  // Table mode: a sequence fails (the database skips it and reports it) when one time step
  // needs more active-set iterations than this (ordinary steps need at most ~1,200). Before the
  // active-set fix some contact configurations (crumpled seed 118 at 9x9, a flap landing on
  // another flap) ran for minutes in one step below this count; they now fail within seconds
  // with the contact QP reported infeasible, so this is a second guard.
  long max_step_qp_iterations = 10000;
  double rest_before = 0.2, rest_after = 0.6;  // s
};

struct LabeledFrame {
  Positions positions;          // #nodes by 3, metres
  double time = 0;              // s
  int label = -1;               // NapkinClass, or -1 during a transition (not labelled)
};

struct FoldSequence {
  Mesh mesh;                    // the napkin in its pose (faces and rest positions)
  Scenario scenario;            // the scenario that was simulated
  std::vector<LabeledFrame> frames;
  long unconverged_steps = 0;
};

// The scenario of a folding sequence and the labels of its time windows.
struct FoldPlan {
  Mesh mesh;
  Scenario scenario;
  // label of the state at time t: stage_labels[i] from stage_ends[i] - 0.1 stage_duration on
  // (until the next stage passes its own 10 %), flat before the first stage's first 10 %
  std::vector<double> stage_starts, stage_ends;
  std::vector<int> stage_labels;
  double duration = 0;
};
Result<FoldPlan> plan_fold_sequence(const FoldSequenceSpec& spec);

// Label of time t in a plan (see FoldPlan).
int label_at(const FoldPlan& plan, double t);

// Simulates a plan and keeps a frame every `frame_interval` seconds (and the first).
Result<FoldSequence> simulate_fold_sequence(const FoldSequenceSpec& spec, double frame_interval = 0.1);

}  // namespace tela
