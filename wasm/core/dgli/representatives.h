// The representatives of each class of a dGLI database (thesis §7.4: the state nearest to the
// class centroid; our addition: one per sub-group for spread classes).
#pragma once

#include "dgli/dgli_database.h"

#include <vector>

namespace tela {

// Representatives of each class: k-means (farthest-point start, a fixed number of Lloyd
// iterations; deterministic) on distance_features(coordinates, distance) with k the smallest
// value in [1, max_per_class] whose RMS distance to the nearest centroid is at most `spread`
// (absolute, in those features); each cluster contributes the state nearest to its centroid.
// Classes without states get none.
std::vector<ReferenceState> select_representatives(const std::vector<ReferenceState>& states, int class_count,
                                                   double spread, int max_per_class = 8,
                                                   StateDistance distance = StateDistance::euclidean,
                                                   double saturation = kDefaultSaturation);

}  // namespace tela
