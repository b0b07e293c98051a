// Distance-based classification of cloth states by their dGLI coordinates (thesis §7.4;
// docs/math.md §5.4): the nearest-representative and k-nearest-neighbour classifiers against a
// reference database (dgli/dgli_database.h), with the distance the database names
// (dgli/state_distance.h) under the cloth's symmetries (dgli/symmetric_distance.h), and the
// flag of a query unlike every state (dgli/database_reach.h).
#pragma once

#include "dgli/dgli_database.h"

#include <vector>

namespace tela {

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

}  // namespace tela
