#include "dgli/representatives.h"

#include <algorithm>
#include <cmath>

namespace tela {
namespace {

using Vector = std::vector<double>;

Vector mean_of(const std::vector<const Vector*>& members, std::size_t dim) {
  Vector mean(dim, 0.0);
  for (const Vector* v : members)
    for (std::size_t i = 0; i < dim; ++i) mean[i] += (*v)[i];
  for (double& x : mean) x /= std::max<std::size_t>(1, members.size());
  return mean;
}

// deterministic k-means: farthest-point initialisation from the member nearest the mean
std::vector<int> kmeans(const std::vector<const Vector*>& data, int k, std::vector<Vector>& centres) {
  const std::size_t dim = data.front()->size();
  const int n = static_cast<int>(data.size());
  centres.clear();
  const Vector mean = mean_of(data, dim);
  int first = 0;
  for (int i = 1; i < n; ++i)
    if (coordinate_distance(*data[i], mean) < coordinate_distance(*data[first], mean)) first = i;
  centres.push_back(*data[first]);
  std::vector<double> nearest(n, 1e300);
  while (static_cast<int>(centres.size()) < k) {
    int far = 0;
    for (int i = 0; i < n; ++i) {
      nearest[i] = std::min(nearest[i], coordinate_distance(*data[i], centres.back()));
      if (nearest[i] > nearest[far]) far = i;
    }
    centres.push_back(*data[far]);
  }
  std::vector<int> assignment(n, 0);
  for (int iteration = 0; iteration < 30; ++iteration) {
    for (int i = 0; i < n; ++i) {
      double best = 1e300;
      for (int c = 0; c < k; ++c) {
        const double d = coordinate_distance(*data[i], centres[c]);
        if (d < best) {
          best = d;
          assignment[i] = c;
        }
      }
    }
    for (int c = 0; c < k; ++c) {
      std::vector<const Vector*> members;
      for (int i = 0; i < n; ++i)
        if (assignment[i] == c) members.push_back(data[i]);
      if (!members.empty()) centres[c] = mean_of(members, dim);
    }
  }
  return assignment;
}

}  // namespace

std::vector<ReferenceState> select_representatives(const std::vector<ReferenceState>& states, int class_count,
                                                   double spread, int max_per_class, StateDistance distance,
                                                   double saturation) {
  std::vector<ReferenceState> out;
  std::vector<Vector> features;
  features.reserve(states.size());
  for (const ReferenceState& s : states) features.push_back(distance_features(s.coordinates, distance, saturation));
  for (int label = 0; label < class_count; ++label) {
    std::vector<const Vector*> data;
    std::vector<int> index;
    for (std::size_t i = 0; i < states.size(); ++i)
      if (states[i].label == label) {
        data.push_back(&features[i]);
        index.push_back(static_cast<int>(i));
      }
    if (data.empty()) continue;
    const int n = static_cast<int>(data.size());
    std::vector<Vector> centres;
    std::vector<int> assignment;
    for (int k = 1; k <= std::min(max_per_class, n); ++k) {
      assignment = kmeans(data, k, centres);
      double sum = 0;
      for (int i = 0; i < n; ++i) sum += std::pow(coordinate_distance(*data[i], centres[assignment[i]]), 2);
      if (std::sqrt(sum / n) <= spread) break;
    }
    for (int c = 0; c < static_cast<int>(centres.size()); ++c) {
      int best = -1;
      for (int i = 0; i < n; ++i)
        if (assignment[i] == c &&
            (best < 0 || coordinate_distance(*data[i], centres[c]) < coordinate_distance(*data[best], centres[c])))
          best = i;
      if (best < 0) continue;
      ReferenceState r = states[index[best]];
      r.group = c;
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace tela
