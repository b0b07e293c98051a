#include "dgli/database_reach.h"

#include "dgli/symmetric_distance.h"

#include <algorithm>
#include <cmath>

namespace tela {

using Vector = std::vector<double>;

std::vector<double> neighbour_distances(const DgliDatabase& db) {
  const bool by_direction = db.distance != StateDistance::euclidean;
  const std::size_t n = db.states.size();
  std::vector<Vector> features;
  const bool cached = db.state_features.size() == n;
  if (!cached)
    for (const ReferenceState& s : db.states) features.push_back(distance_features(s.coordinates, db.distance, db.saturation));
  const std::vector<Vector>& f = cached ? db.state_features : features;
  std::vector<double> out(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<Vector> variants = symmetric_variants(db, db.states[i].coordinates);
    double best = 1e300;
    for (std::size_t j = 0; j < n; ++j)
      if (j != i) best = std::min(best, squared_features_distance(variants, by_direction, f[j], best));
    out[i] = n > 1 ? std::sqrt(best) : 0.0;
  }
  return out;
}

}  // namespace tela
