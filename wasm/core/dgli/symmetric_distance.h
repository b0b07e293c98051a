// The distance of a query to a state under the cloth's symmetries: the minimum over the cyclic
// relabellings of the query's segments that DgliDatabase::rotations allows (a square napkin: the
// quarter turns, so the start corner does not matter), computed on the distance's features.
#pragma once

#include "dgli/dgli_database.h"

#include <cstddef>
#include <vector>

namespace tela {

// The coordinates of the same boundary with its segments relabelled i -> (i + shift) mod m.
std::vector<double> shift_segments(const std::vector<double>& coordinates, int segment_count, int shift);

// Number of segments m of an upper-triangle vector of length m (m - 1) / 2 (0 if none).
int segment_count_of(std::size_t entries);

// The query's features (distance_features with db.distance, db.saturation) under each of the
// db.rotations relabellings (one variant when the segment count does not divide evenly).
std::vector<std::vector<double>> symmetric_variants(const DgliDatabase& db, const std::vector<double>& coordinates);

// Squared distance of the query (best relabelling in `variants`) to a state's features,
// abandoned once >= bound. by_direction (every distance but euclidean): the last feature is the
// log norm, compared first.
double squared_features_distance(const std::vector<std::vector<double>>& variants, bool by_direction,
                                 const std::vector<double>& state, double bound);

}  // namespace tela
