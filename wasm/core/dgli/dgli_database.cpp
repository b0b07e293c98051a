#include "dgli/dgli_database.h"

#include "dgli/database_reach.h"

#include <algorithm>

namespace tela {

void index_states(DgliDatabase& db) {
  db.state_features.clear();
  for (const ReferenceState& s : db.states) db.state_features.push_back(distance_features(s.coordinates, db.distance, db.saturation));
  db.representative_features.clear();
  for (const ReferenceState& r : db.representatives)
    db.representative_features.push_back(distance_features(r.coordinates, db.distance, db.saturation));
  const std::vector<double> neighbours = neighbour_distances(db);
  db.reach = neighbours.empty() ? 0.0 : *std::max_element(neighbours.begin(), neighbours.end());
}

}  // namespace tela
