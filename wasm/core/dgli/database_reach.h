// The database's reach, which flags a query unlike every state (our addition; the thesis
// classifies every query): the largest distance from a state to its nearest other state. A
// query farther than that from every state (a hanging sheet against napkin folds) still gets
// the nearest class, flagged `novel` (dgli/dgli_classifier.h). index_states fills db.reach.
#pragma once

#include "dgli/dgli_database.h"

#include <vector>

namespace tela {

// For each state, the distance (db.distance, db.rotations) to its nearest other state; 0 for a
// database of one state.
std::vector<double> neighbour_distances(const DgliDatabase& db);

}  // namespace tela
