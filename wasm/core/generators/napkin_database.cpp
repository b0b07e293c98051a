#include "generators/napkin_database.h"

#include "dgli/cloth_boundary.h"
#include "dgli/dgli_classifier.h"
#include "dgli/representatives.h"
#include "base/portable_random.h"
#include "geometry/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace tela {
namespace {

std::string describe(const FoldSequenceSpec& s) {
  char text[120];
  std::snprintf(text, sizeof text, "%s v%d d%.3g n%d", napkin_class_names()[s.kind].c_str(), s.variant, s.depth,
                s.pose.nodes_per_side);
  return text;
}

// fold-depth range of each class (fractions; see generators/napkin_folds.cpp)
// On a table two opposite corners are folded at most 0.45 of the way to the centre: at 0.6 the
// second flap lands on the first, and the contact solver stalled for minutes in one step
// (before the active-set fix; it now diverges at t = 3.22 s, so the range stays).
void depth_range(int kind, bool table, double& lo, double& hi) {
  switch (kind) {
    case kOneCorner: lo = 0.3; hi = 0.6; break;
    case kTwoAdjacentCorners: lo = 0.3; hi = 0.48; break;
    case kTwoOppositeCorners: lo = 0.3; hi = table ? 0.45 : 0.6; break;
    case kHalfSide: case kQuarter: lo = 0.45; hi = 0.55; break;
    // zero gravity folds exactly along the diagonal (the depth is not used); on a table the
    // line is 5 % of the half diagonal off it (an exact diagonal fold lays the flap's edges
    // right onto the lower ones, and the contact solver then needs minutes per step)
    case kHalfDiagonal: lo = hi = 0.95; break;
    default: lo = 0.3; hi = 0.5; break;
  }
}

// Corners only: carrying whole flaps rigidly (grip_margin_fraction > 0) made more sequences
// diverge and did not classify better.
double grip_for(int) { return 0.0; }

// Quad elements lock on a crease along their diagonal: the diagonal fold of corner r (over the
// line through corners r+1 and r+3) runs on triangles split along that line.
std::string elements_for(int kind, int variant, const std::string& elements) {
  if (kind != kHalfDiagonal) return elements;
  return variant % 2 == 0 ? "tri_left" : "tri";
}

// On a table the diagonal fold runs only on "tri_left" meshes (corner 0 or 2 folded over the
// diagonal through corners 1 and 3; the others are the same states up to a quarter turn, which
// the classifier's distance ignores): on "tri" meshes a table fold made the contact solver stall
// for minutes in a single step (measured at 9x9 nodes, before the active-set fix; the 5 %-off
// fold now completes on "tri" too, the range and meshes are kept so the database is unchanged).
bool table_variant_ok(int kind, int variant) { return kind != kHalfDiagonal || variant % 2 == 0; }

int variant_count(int kind) {
  switch (kind) {
    case kTwoOppositeCorners: return 2;
    case kQuarter: return 8;
    default: return 4;
  }
}

// Simulates one sequence; its states (noise `noise`, seed `noise_seed`) go to `out`, followed by
// `copies` noisy copies (noise `copy_noise`, seeds derived from `noise_seed`, sources tagged " c1", ...).
void simulate_into(const FoldSequenceSpec& s, const CoordinateSettings& settings, int stride, double noise,
                   std::uint64_t noise_seed, std::vector<ReferenceState>& out, GenerationReport& report,
                   int copies = 0, double copy_noise = 0.0) {
  ++report.sequences;
  if (report.on_sequence) report.on_sequence(report.sequences, describe(s));
  Result<FoldSequence> sequence = simulate_fold_sequence(s);
  if (!sequence.ok()) {
    ++report.failed_sequences;
    report.failures.push_back(describe(s) + ": " + sequence.error);
    return;
  }
  report.unconverged_steps += sequence.value->unconverged_steps;
  std::vector<ReferenceState> states = sequence_states(s, *sequence.value, settings, stride, noise, noise_seed);
  out.insert(out.end(), states.begin(), states.end());
  for (int c = 1; c <= copies; ++c) {
    std::vector<ReferenceState> noisy = sequence_states(s, *sequence.value, settings, stride, copy_noise,
                                                        noise_seed * 31 + static_cast<std::uint64_t>(c));
    for (ReferenceState& state : noisy) state.source += " c" + std::to_string(c);
    out.insert(out.end(), noisy.begin(), noisy.end());
  }
}

}  // namespace

std::vector<ReferenceState> sequence_states(const FoldSequenceSpec& spec, const FoldSequence& sequence,
                                            const CoordinateSettings& settings, int stride, double noise,
                                            std::uint64_t noise_seed) {
  std::vector<ReferenceState> out;
  std::mt19937_64 rng(noise_seed);
  const std::vector<Edge> edges = boundary_edges(sequence.mesh);
  std::vector<int> boundary;
  for (const Edge& e : edges) boundary.insert(boundary.end(), {e[0], e[1]});
  std::sort(boundary.begin(), boundary.end());
  boundary.erase(std::unique(boundary.begin(), boundary.end()), boundary.end());
  int seen = 0;
  for (const LabeledFrame& frame : sequence.frames) {
    if (frame.label < 0) continue;
    if (frame.label == kFlat && spec.kind != kFlat) continue;
    if (seen++ % std::max(stride, 1) != 0) continue;
    Positions positions = frame.positions;
    if (noise > 0)
      for (int k : boundary)
        for (int c = 0; c < 3; ++c) positions(k, c) += noise * standard_normal(rng);
    Result<BoundaryCurve> curve = mesh_boundary(sequence.mesh, positions);
    if (!curve.ok()) continue;
    Result<DgliCoordinates> coordinates = cloth_coordinates(*curve.value, settings);
    if (!coordinates.ok()) continue;
    ReferenceState state;
    state.label = frame.label;
    state.coordinates = coordinates.value->values;
    char text[40];
    std::snprintf(text, sizeof text, " t%.2f", frame.time);
    state.source = describe(spec) + text;
    out.push_back(std::move(state));
  }
  return out;
}

std::vector<FoldSequenceSpec> database_sequences(const NapkinDatabaseSpec& spec) {
  std::vector<FoldSequenceSpec> list;
  std::vector<int> resolutions = {spec.pose.nodes_per_side};
  resolutions.insert(resolutions.end(), spec.extra_nodes_per_side.begin(), spec.extra_nodes_per_side.end());
  for (int nodes : resolutions)
  for (int kind = 0; kind < kNapkinClassCount; ++kind) {
    double lo = 0, hi = 0;
    depth_range(kind, spec.table, lo, hi);
    // the quarter fold's final state depends strongly on the depth (4 layers, bulging flaps):
    // more depths; crumpled states are random: more seeds
    const int depths = kind == kHalfDiagonal || kind == kCrumpled ? 1 : kind == kQuarter ? spec.quarter_depths : 3;
    const int variants = kind == kCrumpled ? spec.crumpled_sequences : variant_count(kind);
    for (int v = 0; v < variants; ++v)
      for (int d = 0; d < depths; ++d) {
        if (spec.table && !table_variant_ok(kind, v)) continue;
        FoldSequenceSpec s;
        s.kind = kind;
        s.variant = v;
        s.depth = depths > 1 ? lo + (hi - lo) * d / (depths - 1) : 0.5 * (lo + hi);
        s.seed = static_cast<std::uint64_t>(100 + v);
        s.pose = spec.pose;
        s.pose.nodes_per_side = nodes;
        s.table = spec.table;
        s.pin_margin_fraction = spec.pin_margin_fraction;
        s.hover = spec.hover;
        s.grip_margin_fraction = grip_for(kind);
        s.pose.elements = elements_for(kind, v, spec.pose.elements);
        list.push_back(s);
      }
  }
  return list;
}

DgliDatabase generate_napkin_database(const NapkinDatabaseSpec& spec, GenerationReport* report) {
  GenerationReport local_report;
  GenerationReport& r = report ? *report : local_report;
  DgliDatabase db;
  db.settings = spec.settings;
  db.classes = napkin_class_names();
  db.rotations = spec.settings.choice == SegmentChoice::per_side && spec.settings.sides == 4 ? 4 : 1;
  db.distance = spec.distance;
  db.saturation = spec.saturation;
  std::uint64_t noise_seed = 1ull << 32;  // apart from the held-out seeds (seed * 7 + 1, ...)
  for (const FoldSequenceSpec& s : database_sequences(spec))
    simulate_into(s, spec.settings, s.kind == kCrumpled ? spec.crumpled_frame_stride : spec.frame_stride, 0.0,
                  noise_seed++, db.states, r, spec.noise_copies, spec.augment_noise);
  double spread = spec.spread;
  if (spread <= 0) {
    // 0.35 x the median RMS spread of the classes around their centroids (in the features of
    // the classifier's distance)
    std::vector<std::vector<double>> features;
    for (const ReferenceState& s : db.states) features.push_back(distance_features(s.coordinates, db.distance, db.saturation));
    std::vector<double> spreads;
    for (int c = 0; c < kNapkinClassCount; ++c) {
      std::vector<double> mean;
      int count = 0;
      for (std::size_t k = 0; k < db.states.size(); ++k)
        if (db.states[k].label == c) {
          if (mean.empty()) mean.assign(features[k].size(), 0.0);
          for (std::size_t i = 0; i < mean.size(); ++i) mean[i] += features[k][i];
          ++count;
        }
      if (!count) continue;
      for (double& x : mean) x /= count;
      double sum = 0;
      for (std::size_t k = 0; k < db.states.size(); ++k)
        if (db.states[k].label == c) sum += std::pow(coordinate_distance(features[k], mean), 2);
      spreads.push_back(std::sqrt(sum / count));
    }
    std::sort(spreads.begin(), spreads.end());
    spread = spreads.empty() ? 1.0 : 0.35 * spreads[spreads.size() / 2];
  }
  db.representatives =
      select_representatives(db.states, kNapkinClassCount, spread, spec.max_representatives_per_class, db.distance,
                             db.saturation);
  index_states(db);
  std::string resolutions = std::to_string(spec.pose.nodes_per_side) + "x" + std::to_string(spec.pose.nodes_per_side);
  for (int n : spec.extra_nodes_per_side) resolutions += ", " + std::to_string(n) + "x" + std::to_string(n);
  char extra[160] = "", saturated[80] = "";
  if (spec.noise_copies > 0)
    std::snprintf(extra, sizeof extra, ", each with %d copies with %.1f mm Gaussian noise on the boundary", spec.noise_copies,
                  1000 * spec.augment_noise);
  if (spec.distance == StateDistance::saturated) std::snprintf(saturated, sizeof saturated, " (saturation %g)", spec.saturation);
  const std::string copies = extra, saturation = saturated;
  char text[1600];
  if (spec.table)
    std::snprintf(text, sizeof text,
                  "tela dgli-database: %d folding sequences of a %.2f m square napkin (%s %s meshes; triangles split "
                  "along the diagonal for the diagonal fold), simulated by the tela cloth simulator on a table: plane "
                  "z = 0 with friction 0.5, gravity, self-collisions (thickness 3 mm, friction 0.3); the folded corners "
                  "carried by keyframed controls along half-circle arcs about the fold lines and laid down %.0f mm above "
                  "the layer below (held there: controls cannot be released), the rest free on the table; the diagonal "
                  "fold line 5%% of the half diagonal off the diagonal; crumpled: 2 to 4 corners or side midpoints "
                  "pushed along the table towards the centre (%d seeds). %d failed. Frames every 0.1 s, labelled once a "
                  "fold stage is 90%% done, every %d-th labelled frame kept (crumpled: every %d-th)%s. Distance: %s%s.",
                  r.sequences, spec.pose.side, resolutions.c_str(), spec.pose.elements.c_str(), 1000 * spec.hover, spec.crumpled_sequences, r.failed_sequences,
                  spec.frame_stride, spec.crumpled_frame_stride, copies.c_str(), to_string(spec.distance),
                  saturation.c_str());
  else
    std::snprintf(text, sizeof text,
                "tela dgli-database: %d folding sequences of a %.2f m square napkin (%dx%d %s mesh; triangles split "
                "along the fold line for the diagonal fold), simulated by the tela cloth simulator in zero gravity "
                "without table contact: the part on the table held by hold controls (nodes beyond %.0f%% of the side "
                "from the fold lines), the folded corners carried by keyframed controls along half-circle arcs about "
                "the fold lines, ending %.0f mm above the cloth, flaps free; crumpled: corners and side midpoints "
                "carried towards random points near the centre (%d seeds). %d failed. Frames every 0.1 s, labelled once "
                "a fold stage is 90%% done, every %d-th labelled frame kept (crumpled: every %d-th). Distance: %s.",
                r.sequences, spec.pose.side, spec.pose.nodes_per_side, spec.pose.nodes_per_side, spec.pose.elements.c_str(),
                100 * spec.pin_margin_fraction, 1000 * spec.hover, spec.crumpled_sequences, r.failed_sequences,
                spec.frame_stride, spec.crumpled_frame_stride, to_string(spec.distance));
  db.provenance = text;
  return db;
}

std::vector<FoldSequenceSpec> held_out_sequences(const HeldOutSpec& spec) {
  std::vector<FoldSequenceSpec> list;
  std::mt19937_64 rng(spec.seed);
  for (int kind = 0; kind < kNapkinClassCount; ++kind)
    for (int i = 0; i < spec.sequences_per_class; ++i) {
      double lo = 0, hi = 0;
      depth_range(kind, spec.table, lo, hi);
      FoldSequenceSpec s;
      s.kind = kind;
      s.variant = uniform_index(rng, variant_count(kind));
      if (spec.table && !table_variant_ok(kind, s.variant)) --s.variant;
      s.depth = uniform_real(rng, lo, hi);
      s.seed = spec.seed * 1000 + static_cast<std::uint64_t>(kind * 100 + i);
      s.pose = spec.pose;
      s.pose.rotation_turns = uniform01(rng);
      s.pose.translation = Eigen::Vector2d(uniform_real(rng, -0.5, 0.5), uniform_real(rng, -0.5, 0.5));
      s.table = spec.table;
      s.pin_margin_fraction = spec.pin_margin_fraction;
      s.hover = spec.hover;
      s.grip_margin_fraction = grip_for(kind);
      s.pose.elements = elements_for(kind, s.variant, spec.pose.elements);
      list.push_back(s);
    }
  return list;
}

Evaluation evaluate_held_out(const DgliDatabase& db, const HeldOutSpec& spec, int k,
                             std::vector<ReferenceState>* states_out,
                             std::function<void(int, const std::string&)> on_sequence) {
  Evaluation e;
  e.generation.on_sequence = std::move(on_sequence);
  const std::size_t n = db.classes.size();
  e.confusion_nearest.assign(n, std::vector<int>(n, 0));
  e.confusion_knn.assign(n, std::vector<int>(n, 0));
  const std::vector<FoldSequenceSpec> list = held_out_sequences(spec);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (spec.only_sequence > 0 && static_cast<int>(i) + 1 != spec.only_sequence) continue;
    std::vector<ReferenceState> states;
    simulate_into(list[i], db.settings, spec.frame_stride, spec.noise, spec.seed * 7 + 1 + i, states, e.generation);
    if (states_out) states_out->insert(states_out->end(), states.begin(), states.end());
    for (const ReferenceState& state : states) {
      if (state.label < 0 || state.label >= static_cast<int>(n)) continue;
      const Classification c = classify_coordinates(db, state.coordinates, k);
      ++e.total;
      if (c.label >= 0) ++e.confusion_nearest[state.label][c.label];
      if (c.knn_label >= 0) ++e.confusion_knn[state.label][c.knn_label];
      if (c.label == state.label) ++e.correct_nearest;
      if (c.knn_label == state.label) ++e.correct_knn;
      if (c.novel) ++e.novel;
    }
  }
  return e;
}

}  // namespace tela
