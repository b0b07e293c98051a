// The reference database of the classifier (thesis §7.4): labelled cloth states by their dGLI
// coordinates, the class representatives, how the coordinates were computed and compared, and
// the derived features and reach that classify_coordinates (dgli/dgli_classifier.h) uses.
// Its file form: dgli/database_json.h; its representatives: dgli/representatives.h.
#pragma once

#include "dgli/cloth_coordinates.h"
#include "dgli/state_distance.h"

#include <string>
#include <vector>

namespace tela {

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

}  // namespace tela
