#include "dgli/dgli_classifier.h"

#include "dgli/symmetric_distance.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tela {

using Vector = std::vector<double>;

Classification classify_coordinates(const DgliDatabase& db, const Vector& query, int k) {
  Classification result;
  const std::vector<Vector> variants = symmetric_variants(db, query);
  const bool by_direction = db.distance != StateDistance::euclidean;
  auto squared_distance = [&](const Vector& coordinates, double bound) {
    return squared_features_distance(variants, by_direction,
                                     distance_features(coordinates, db.distance, db.saturation), bound);
  };
  auto distance_to = [&](const Vector& state) { return std::sqrt(squared_distance(state, 1e300)); };
  // nearest representative, and the nearest of another class
  std::vector<double> best(db.classes.size(), 1e300);
  const bool representatives_cached = db.representative_features.size() == db.representatives.size();
  for (std::size_t i = 0; i < db.representatives.size(); ++i) {
    const ReferenceState& r = db.representatives[i];
    const double d = representatives_cached
                           ? std::sqrt(squared_features_distance(variants, by_direction, db.representative_features[i], 1e300))
                                            : distance_to(r.coordinates);
    best[r.label] = std::min(best[r.label], d);
  }
  for (int c = 0; c < static_cast<int>(best.size()); ++c) {
    if (best[c] >= 1e300) continue;
    if (result.label < 0 || best[c] < result.distance) {
      result.runner_up = result.label;
      result.runner_up_distance = result.distance;
      result.label = c;
      result.distance = best[c];
    } else if (result.runner_up < 0 || best[c] < result.runner_up_distance) {
      result.runner_up = c;
      result.runner_up_distance = best[c];
    }
  }
  // k nearest states (stable order on ties). A state matters only if it is among the k nearest
  // so far or nearer than the best of its class (nearest state per class, runner-up), so a
  // squared distance that already exceeds both bounds is abandoned early (exact).
  const int kk_max = std::max(k, 1);
  std::vector<std::pair<double, int>> distances;
  distances.reserve(db.states.size());
  std::vector<double> class_best(db.classes.size(), 1e300);
  std::vector<double> nearest_k;  // max-heap of the kk_max smallest distances so far
  const bool features_cached = db.state_features.size() == db.states.size();
  for (std::size_t i = 0; i < db.states.size(); ++i) {
    const Vector& state = db.states[i].coordinates;
    const int label = db.states[i].label;
    const double kth = static_cast<int>(nearest_k.size()) < kk_max ? 1e300 : nearest_k.front();
    const double reach = std::max(class_best[label], kth);
    const double bound = reach >= 1e300 ? 1e300 : reach * reach;
    const double best = features_cached ? squared_features_distance(variants, by_direction, db.state_features[i], bound)
                                        : squared_distance(state, bound);
    if (best >= bound) continue;
    const double d = std::sqrt(best);
    class_best[label] = std::min(class_best[label], d);
    distances.push_back({d, static_cast<int>(i)});
    if (static_cast<int>(nearest_k.size()) < kk_max || d < nearest_k.front()) {
      if (static_cast<int>(nearest_k.size()) == kk_max) {
        std::pop_heap(nearest_k.begin(), nearest_k.end());
        nearest_k.pop_back();
      }
      nearest_k.push_back(d);
      std::push_heap(nearest_k.begin(), nearest_k.end());
    }
  }
  const int kk = std::min<int>(std::max(k, 1), static_cast<int>(distances.size()));
  std::partial_sort(distances.begin(), distances.begin() + kk, distances.end());  // pairs: ties by index
  if (kk > 0) {
    result.nearest_state_distance = distances.front().first;
    result.novel = db.states.size() > 1 && result.nearest_state_distance > db.reach;
  }
  std::vector<int> votes(db.classes.size(), 0);
  std::vector<double> sums(db.classes.size(), 0.0);
  double total = 0;
  for (int i = 0; i < kk; ++i) {
    const int label = db.states[distances[i].second].label;
    ++votes[label];
    sums[label] += distances[i].first;
    total += distances[i].first;
  }
  for (int c = 0; c < static_cast<int>(votes.size()); ++c)
    if (votes[c] > 0 && (result.knn_label < 0 || votes[c] > result.knn_votes ||
                         (votes[c] == result.knn_votes && sums[c] < sums[result.knn_label]))) {
      result.knn_label = c;
      result.knn_votes = votes[c];
    }
  result.knn_distance = kk > 0 ? total / kk : 0;
  // nearest state of the voted class and of any other class
  std::vector<double> nearest(db.classes.size(), 1e300);
  for (const auto& entry : distances) {
    const int label = db.states[entry.second].label;
    nearest[label] = std::min(nearest[label], entry.first);
  }
  if (result.knn_label >= 0) result.knn_label_distance = nearest[result.knn_label];
  for (int c = 0; c < static_cast<int>(nearest.size()); ++c)
    if (c != result.knn_label && nearest[c] < 1e300 &&
        (result.state_runner_up < 0 || nearest[c] < result.state_runner_up_distance)) {
      result.state_runner_up = c;
      result.state_runner_up_distance = nearest[c];
    }
  return result;
}

}  // namespace tela
