#include "dgli/symmetric_distance.h"

#include <algorithm>

namespace tela {

using Vector = std::vector<double>;

std::vector<double> shift_segments(const Vector& coordinates, int m, int shift) {
  Vector out(coordinates.size());
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j) {
      const int a = (i + shift) % m, b = (j + shift) % m;
      out[upper_index(i, j, m)] = coordinates[upper_index(std::min(a, b), std::max(a, b), m)];
    }
  return out;
}

int segment_count_of(std::size_t entries) {
  int m = 1;
  while (static_cast<std::size_t>(m) * (m - 1) / 2 < entries) ++m;
  return static_cast<std::size_t>(m) * (m - 1) / 2 == entries ? m : 0;
}

std::vector<Vector> symmetric_variants(const DgliDatabase& db, const Vector& coordinates) {
  std::vector<Vector> variants = {distance_features(coordinates, db.distance, db.saturation)};
  const int m = segment_count_of(coordinates.size());
  if (db.rotations > 1 && m > 0 && m % db.rotations == 0)
    for (int r = 1; r < db.rotations; ++r)
      variants.push_back(
          distance_features(shift_segments(coordinates, m, r * (m / db.rotations)), db.distance, db.saturation));
  return variants;
}

double squared_features_distance(const std::vector<Vector>& variants, bool by_direction, const Vector& state,
                                 double bound) {
  double start = 0;
  if (by_direction) {
    const double log_ratio = variants.front().back() - state.back();
    start = log_ratio * log_ratio;
    if (start >= bound) return start;
  }
  const std::size_t entries = state.size() - (by_direction ? 1 : 0);
  double best = 1e300;
  for (const Vector& v : variants) {
    double sum = start;
    for (std::size_t j = 0; j < entries && sum < std::min(best, bound); ++j) sum += (v[j] - state[j]) * (v[j] - state[j]);
    best = std::min(best, sum);
  }
  return best;
}

}  // namespace tela
