// Distance-based classification of cloth states by their dGLI coordinates (thesis §7.4;
// MATH.md §5.4): a reference database of labelled states, class representatives (the state
// nearest to the centroid of each class, or of each sub-group for spread classes), and the
// nearest-representative and k-nearest-neighbour classifiers with the Euclidean distance
// between coordinate vectors.
#pragma once

#include "dgli/cloth_coordinates.h"
#include "base/result.h"

#include <string>
#include <vector>

namespace tela {

// How two coordinate vectors are compared. euclidean: |a - b|. direction_log_norm: the
// Euclidean distance between (a/|a|, log|a|) and (b/|b|, log|b|) (|.| the Euclidean norm,
// floored at 1e-12): the pattern of signs and relative sizes counts, the overall magnitude only
// through its logarithm. dGLI entries grow like 1/distance when two segments approach (stacked
// layers, crumpled boundaries), so a few close pairs dominate the plain Euclidean distance.
// saturated: every entry x first becomes c tanh(x / c) (c = `saturation`, in the units of the
// coordinates), then as direction_log_norm: an entry beyond about c (two segments nearly
// touching) counts by its sign, so one pair of stacked segments cannot dominate the direction.
enum class StateDistance { euclidean, direction_log_norm, saturated };
const char* to_string(StateDistance distance);
bool parse_state_distance(const std::string& text, StateDistance& out);
constexpr double kDefaultSaturation = 2.0;

// The vector in which `distance` is Euclidean: the coordinates, or (v/|v|, log|v|) of the
// coordinates (saturated: of their saturated values).
std::vector<double> distance_features(const std::vector<double>& coordinates, StateDistance distance,
                                      double saturation = kDefaultSaturation);

struct ReferenceState {
  int label = 0;                     // index into DgliDatabase::classes
  int group = 0;                     // sub-group within the class (representatives)
  std::vector<double> coordinates;
  std::string source;                // e.g. "one_corner v2 d0.45 t2.9"
};

struct DgliDatabase {
  CoordinateSettings settings;       // how the coordinates were computed (use the same for queries)
  std::vector<std::string> classes;
  std::vector<ReferenceState> representatives;
  std::vector<ReferenceState> states;  // all labelled states, for k-NN
  std::string provenance;            // how the states were generated (free text)
  // Symmetry of the cloth used by the classifier: the distance of a query to a state is the
  // minimum over the `rotations` cyclic relabellings of the query's segments by m / rotations
  // positions (a square napkin with per_side segments: 4, the quarter turns, so the start
  // corner does not matter). 1: no symmetry.
  int rotations = 1;
  StateDistance distance = StateDistance::euclidean;  // JSON settings.distance (absent: euclidean)
  double saturation = kDefaultSaturation;  // JSON settings.saturation (saturated distance)
  // Derived, for speed: distance_features of each state (filled by index_states; parse_database
  // and the generator call it). classify_coordinates recomputes them when the sizes differ from
  // the states'.
  std::vector<std::vector<double>> state_features;
  std::vector<std::vector<double>> representative_features;  // the same for representatives
  // The database's reach (our addition; the thesis classifies every query): the largest
  // distance from a state to its nearest other state (neighbour_distances). A query farther
  // than that from every state is unlike the whole database (a hanging sheet against napkin
  // folds): it still gets the nearest class, flagged `novel`. Filled by index_states.
  double reach = 0;
};

// Fills db.state_features, db.representative_features and db.reach from db.states,
// db.representatives, db.distance and db.saturation.
void index_states(DgliDatabase& db);

// For each state, the distance (db.distance, db.rotations) to its nearest other state; 0 for a
// database of one state.
std::vector<double> neighbour_distances(const DgliDatabase& db);

// The coordinates of the same boundary with its segments relabelled i -> (i + shift) mod m.
std::vector<double> shift_segments(const std::vector<double>& coordinates, int segment_count, int shift);

// Number of segments m of an upper-triangle vector of length m (m - 1) / 2 (0 if none).
int segment_count_of(std::size_t entries);

// Euclidean distance; vectors of different length are a programmer error (debug assert).
double coordinate_distance(const std::vector<double>& a, const std::vector<double>& b);

// Representatives of each class: k-means (farthest-point start, a fixed number of Lloyd
// iterations; deterministic) on distance_features(coordinates, distance) with k the smallest
// value in [1, max_per_class] whose RMS distance to the nearest centroid is at most `spread`
// (absolute, in those features); each cluster contributes the state nearest to its centroid.
// Classes without states get none.
std::vector<ReferenceState> select_representatives(const std::vector<ReferenceState>& states, int class_count,
                                                   double spread, int max_per_class = 8,
                                                   StateDistance distance = StateDistance::euclidean,
                                                   double saturation = kDefaultSaturation);

struct Classification {
  int label = -1;                  // nearest representative's class
  double distance = 0;
  int runner_up = -1;              // nearest representative of another class
  double runner_up_distance = 0;
  int knn_label = -1;              // majority of the k nearest states (ties: smaller distance sum)
  int knn_votes = 0;
  double knn_distance = 0;         // mean distance of the k nearest states
  double knn_label_distance = 0;   // distance to the nearest state of knn_label
  int state_runner_up = -1;        // the class of the nearest state not of knn_label
  double state_runner_up_distance = 0;
  double nearest_state_distance = 0;  // to the nearest state of any class
  bool novel = false;                 // nearest_state_distance > db.reach: unlike every state
};

// Classifies coordinates (computed with db.settings) against the database; k >= 1. Distances
// use db.rotations and db.distance (see above).
Classification classify_coordinates(const DgliDatabase& db, const std::vector<double>& coordinates, int k = 1);

// JSON form (format "tela-dgli-database", version 1). Values are rounded to `digits`
// decimals to keep the file small.
std::string database_to_json(const DgliDatabase& db, int digits = 4);
Result<DgliDatabase> parse_database(const std::string& json_text);

}  // namespace tela
