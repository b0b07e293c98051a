// The napkin reference database (thesis §7.4) and its held-out evaluation: which folding
// sequences are simulated (generators/napkin_folds.h), which frames become labelled states, and the
// confusion matrix of the classifier on sequences generated differently (mesh resolution,
// pose on the table, fold depths, 2 mm boundary noise).
#pragma once

#include "dgli/dgli_database.h"
#include "generators/napkin_folds.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tela {

// Physics of the generated sequences (FoldSequenceSpec::table): on a table (default) or the
// zero-gravity mode with hold controls standing in for the table (`zero_gravity()`).
struct NapkinDatabaseSpec {
  CoordinateSettings settings{SegmentChoice::per_side, 2, SideLayout::spread, 4, true};
  NapkinPose pose{0.4, 9, "quad", 0.0, {0.0, 0.0}};  // 0.4 m, 9 x 9 quads, unrotated
  // further mesh resolutions (nodes per side): every sequence is also simulated on these. The
  // crease of a quad mesh depends on where the fold line cuts the elements, so one resolution
  // alone does not cover another's states (7x7 + 9x9 brackets the held-out 8x8)
  std::vector<int> extra_nodes_per_side{7};
  // noise augmentation: every kept frame also contributes this many copies with Gaussian noise
  // of SD `augment_noise` (metres) on every boundary node coordinate (fixed noise seeds)
  int noise_copies = 0;
  double augment_noise = 0.002;
  bool table = true;
  double pin_margin_fraction = 0.25;  // zero gravity only
  double hover = 0.004;              // metres (FoldSequenceSpec::hover): tau0 + 1 mm on a table
  int frame_stride = 4;              // keep every n-th labelled frame (settled frames barely differ)
  // random crumpling sequences (seeds 100, 101, ...): 18, because on seed 118 (9x9, table) the
  // contact solver does not finish a step at t = 0.93 s within minutes
  int crumpled_sequences = 18;
  int crumpled_frame_stride = 4;     // frame stride of the crumpled sequences
  int quarter_depths = 3;            // fold depths per quarter-fold variant (8 variants)
  StateDistance distance = StateDistance::saturated;  // the classifier's (DgliDatabase::distance)
  double saturation = kDefaultSaturation;  // DgliDatabase::saturation (saturated distance)
  double spread = 0.0;               // representatives: RMS target; <= 0 picks 0.35 x median class spread
  int max_representatives_per_class = 8;
  // the database shipped before table contacts were used: 13 x 13 nodes, zero gravity,
  // hover 3 cm, 320 crumpling seeds, 17 quarter-fold depths
  static NapkinDatabaseSpec zero_gravity() {
    NapkinDatabaseSpec s;
    s.pose.nodes_per_side = 13;
    s.table = false;
    s.hover = 0.03;
    s.crumpled_sequences = 320;
    s.quarter_depths = 17;
    s.extra_nodes_per_side.clear();
    s.distance = StateDistance::direction_log_norm;
    return s;
  }
};

struct GenerationReport {
  int sequences = 0, failed_sequences = 0;
  long unconverged_steps = 0;
  std::vector<std::string> failures;  // "kind variant depth: message"
  // optional: called before each sequence is simulated (1-based number, what it is), e.g. for
  // a progress line on the command line
  std::function<void(int, const std::string&)> on_sequence;
};

// The fold sequences of the database: every symmetry variant of each class with a few depths.
std::vector<FoldSequenceSpec> database_sequences(const NapkinDatabaseSpec& spec);

// Simulates the database sequences and builds the database (states + representatives).
DgliDatabase generate_napkin_database(const NapkinDatabaseSpec& spec, GenerationReport* report = nullptr);

struct HeldOutSpec {
  NapkinPose pose{0.4, 8, "quad", 0.0, {0.0, 0.0}};  // resolution differs from the database (9)
  bool table = true;
  double pin_margin_fraction = 0.25;  // zero gravity only
  double hover = 0.004;              // metres
  double noise = 0.002;              // SD of the Gaussian noise on boundary node coordinates, metres
  int sequences_per_class = 4;
  int frame_stride = 3;
  std::uint64_t seed = 2026;         // poses, variants, depths, noise
  int only_sequence = 0;             // > 0: evaluate only this sequence of the list (1-based; same states)
  // the held-out setting of the zero-gravity database: 12 x 12 nodes, hover 3 cm
  static HeldOutSpec zero_gravity() {
    HeldOutSpec s;
    s.pose.nodes_per_side = 12;
    s.table = false;
    s.hover = 0.03;
    return s;
  }
};

// Random held-out sequences: per class, random variant, depth, rotation (any angle) and
// translation (within 0.5 m).
std::vector<FoldSequenceSpec> held_out_sequences(const HeldOutSpec& spec);

struct Evaluation {
  int total = 0, correct_nearest = 0, correct_knn = 0;
  int novel = 0;  // held-out states farther than the database's reach from every state
  std::vector<std::vector<int>> confusion_nearest, confusion_knn;  // [true][predicted]
  GenerationReport generation;
  double accuracy_nearest() const { return total ? static_cast<double>(correct_nearest) / total : 0; }
  double accuracy_knn() const { return total ? static_cast<double>(correct_knn) / total : 0; }
};

// `states_out` (optional) receives the held-out states; `on_sequence`: see GenerationReport.
Evaluation evaluate_held_out(const DgliDatabase& db, const HeldOutSpec& spec, int k = 1,
                             std::vector<ReferenceState>* states_out = nullptr,
                             std::function<void(int, const std::string&)> on_sequence = nullptr);

// Labelled coordinate vectors of one simulated sequence (frames with label >= 0, every
// `stride`-th; flat frames only from flat sequences), with optional boundary noise.
std::vector<ReferenceState> sequence_states(const FoldSequenceSpec& spec, const FoldSequence& sequence,
                                            const CoordinateSettings& settings, int stride, double noise,
                                            std::uint64_t noise_seed);

}  // namespace tela
