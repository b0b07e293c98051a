#include "dgli/dgli_classifier.h"

#include "base/portable_math.h"
#include "base/json_text.h"
#include "scenario/json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numeric>

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

constexpr double kNormFloor = 1e-12;

double norm_of(const Vector& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::max(std::sqrt(sum), kNormFloor);
}

}  // namespace

const char* to_string(StateDistance distance) {
  switch (distance) {
    case StateDistance::direction_log_norm: return "direction_log_norm";
    case StateDistance::saturated: return "saturated";
    default: return "euclidean";
  }
}

bool parse_state_distance(const std::string& text, StateDistance& out) {
  if (text == "euclidean") out = StateDistance::euclidean;
  else if (text == "direction_log_norm") out = StateDistance::direction_log_norm;
  else if (text == "saturated") out = StateDistance::saturated;
  else return false;
  return true;
}

Vector distance_features(const Vector& coordinates, StateDistance distance, double saturation) {
  if (distance == StateDistance::euclidean) return coordinates;
  Vector out = coordinates;
  if (distance == StateDistance::saturated)
    for (double& x : out) x = saturation * portable_tanh(x / saturation);
  const double norm = norm_of(out);
  for (double& x : out) x /= norm;
  out.push_back(portable_log(norm));  // portable: native and wasm distances are bit-identical
  return out;
}

void index_states(DgliDatabase& db) {
  db.state_features.clear();
  for (const ReferenceState& s : db.states) db.state_features.push_back(distance_features(s.coordinates, db.distance, db.saturation));
  db.representative_features.clear();
  for (const ReferenceState& r : db.representatives)
    db.representative_features.push_back(distance_features(r.coordinates, db.distance, db.saturation));
  const std::vector<double> neighbours = neighbour_distances(db);
  db.reach = neighbours.empty() ? 0.0 : *std::max_element(neighbours.begin(), neighbours.end());
}

double coordinate_distance(const Vector& a, const Vector& b) {
  assert(a.size() == b.size());
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

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

namespace {

// The query under the cloth's symmetries, in the distance's features (a relabelling permutes
// the entries: the features of the shifted query).
std::vector<Vector> symmetric_variants(const DgliDatabase& db, const Vector& coordinates) {
  std::vector<Vector> variants = {distance_features(coordinates, db.distance, db.saturation)};
  const int m = segment_count_of(coordinates.size());
  if (db.rotations > 1 && m > 0 && m % db.rotations == 0)
    for (int r = 1; r < db.rotations; ++r)
      variants.push_back(
          distance_features(shift_segments(coordinates, m, r * (m / db.rotations)), db.distance, db.saturation));
  return variants;
}

// Squared distance of the query (best relabelling in `variants`) to a state's features,
// abandoned once >= bound. Direction distances: the last feature is the log norm, compared first.
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

}  // namespace

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

std::string database_to_json(const DgliDatabase& db, int digits) {
  using nlohmann::json;
  const double scale = std::pow(10.0, digits);
  auto states_json = [&](const std::vector<ReferenceState>& states, bool with_group) {
    json list = json::array();
    for (const ReferenceState& s : states) {
      json values = json::array();
      for (double v : s.coordinates) values.push_back(std::round(v * scale) / scale + 0.0);  // + 0.0: no "-0.0"
      json item = {{"class", s.label}, {"source", s.source}, {"coordinates", values}};
      if (with_group) item["group"] = s.group;
      list.push_back(item);
    }
    return list;
  };
  json j;
  j["format"] = "tela-dgli-database";
  j["version"] = 1;
  j["provenance"] = db.provenance;
  j["settings"] = {{"segments", to_string(db.settings.choice)},
                   {"per_side", db.settings.per_side},
                   {"layout", to_string(db.settings.layout)},
                   {"sides", db.settings.sides},
                   {"normalize_by_perimeter", db.settings.normalize_by_perimeter},
                   {"rotations", db.rotations},
                   {"distance", to_string(db.distance)}};
  if (db.distance == StateDistance::saturated) j["settings"]["saturation"] = db.saturation;
  j["classes"] = db.classes;
  j["representatives"] = states_json(db.representatives, true);
  j["states"] = states_json(db.states, false);
  return json_text(j);
}

Result<DgliDatabase> parse_database(const std::string& text) {
  using nlohmann::json;
  using R = Result<DgliDatabase>;
  if (const std::string error = json_syntax_error(text); !error.empty()) return R::failure("database: " + error);
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) return R::failure("database: not valid JSON");
  // (j.value() would abort on a "format" that is not a string: the core has no exceptions)
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string() ||
      j["format"].get<std::string>() != "tela-dgli-database")
    return R::failure("database: format must be \"tela-dgli-database\"");
  if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != 1)
    return R::failure("database.version: must be 1");
  DgliDatabase db;
  if (j.contains("provenance") && j["provenance"].is_string()) db.provenance = j["provenance"].get<std::string>();
  if (!j.contains("settings") || !j["settings"].is_object()) return R::failure("database.settings: missing");
  const json& s = j["settings"];
  if (!s.contains("segments") || !s["segments"].is_string() ||
      !parse_segment_choice(s["segments"].get<std::string>(), db.settings.choice))
    return R::failure("database.settings.segments: must be all, alternate or per_side");
  if (!s.contains("per_side") || !s["per_side"].is_number_integer() || s["per_side"].get<int>() < 1)
    return R::failure("database.settings.per_side: must be an integer >= 1");
  db.settings.per_side = s["per_side"].get<int>();
  if (!s.contains("layout") || !s["layout"].is_string() ||
      !parse_side_layout(s["layout"].get<std::string>(), db.settings.layout))
    return R::failure("database.settings.layout: must be spread or first_half");
  if (!s.contains("sides") || !s["sides"].is_number_integer() || s["sides"].get<int>() < 1)
    return R::failure("database.settings.sides: must be an integer >= 1");
  db.settings.sides = s["sides"].get<int>();
  if (!s.contains("normalize_by_perimeter") || !s["normalize_by_perimeter"].is_boolean())
    return R::failure("database.settings.normalize_by_perimeter: must be true or false");
  db.settings.normalize_by_perimeter = s["normalize_by_perimeter"].get<bool>();
  if (!s.contains("rotations") || !s["rotations"].is_number_integer() || s["rotations"].get<int>() < 1)
    return R::failure("database.settings.rotations: must be an integer >= 1");
  db.rotations = s["rotations"].get<int>();
  if (s.contains("distance") &&
      (!s["distance"].is_string() || !parse_state_distance(s["distance"].get<std::string>(), db.distance)))
    return R::failure("database.settings.distance: must be euclidean, direction_log_norm or saturated");
  if (s.contains("saturation")) {
    if (!s["saturation"].is_number() || !(s["saturation"].get<double>() > 0) ||
        !std::isfinite(s["saturation"].get<double>()))
      return R::failure("database.settings.saturation: must be a number > 0");
    db.saturation = s["saturation"].get<double>();
  }
  if (!j.contains("classes") || !j["classes"].is_array() || j["classes"].empty())
    return R::failure("database.classes: must be a non-empty array of names");
  for (const json& c : j["classes"]) {
    if (!c.is_string()) return R::failure("database.classes: every class name must be a string");
    db.classes.push_back(c.get<std::string>());
  }
  std::size_t dim = 0;
  auto read_states = [&](const char* key, std::vector<ReferenceState>& out, std::string& error) {
    if (!j.contains(key) || !j[key].is_array()) {
      error = std::string("database.") + key + ": must be an array";
      return false;
    }
    for (std::size_t i = 0; i < j[key].size(); ++i) {
      const json& item = j[key][i];
      const std::string at = std::string("database.") + key + "[" + std::to_string(i) + "]";
      if (!item.is_object() || !item.contains("class") || !item["class"].is_number_integer() ||
          item["class"].get<int>() < 0 || item["class"].get<int>() >= static_cast<int>(db.classes.size())) {
        error = at + ".class: must be a class index in [0, " + std::to_string(db.classes.size()) + ")";
        return false;
      }
      ReferenceState state;
      state.label = item["class"].get<int>();
      if (item.contains("group") && item["group"].is_number_integer()) state.group = item["group"].get<int>();
      if (item.contains("source") && item["source"].is_string()) state.source = item["source"].get<std::string>();
      if (!item.contains("coordinates") || !item["coordinates"].is_array()) {
        error = at + ".coordinates: must be an array of numbers";
        return false;
      }
      for (const json& v : item["coordinates"]) {
        if (!v.is_number() || !std::isfinite(v.get<double>())) {
          error = at + ".coordinates: must hold finite numbers";
          return false;
        }
        state.coordinates.push_back(v.get<double>());
      }
      if (state.coordinates.empty()) {
        error = at + ".coordinates: empty (a state needs its dGLI coordinates)";
        return false;
      }
      if (dim == 0) dim = state.coordinates.size();
      if (state.coordinates.size() != dim) {
        error = at + ".coordinates: expected " + std::to_string(dim) + " values, got " +
                std::to_string(state.coordinates.size());
        return false;
      }
      out.push_back(std::move(state));
    }
    return true;
  };
  std::string error;
  if (!read_states("representatives", db.representatives, error)) return R::failure(error);
  if (db.representatives.empty()) return R::failure("database.representatives: must not be empty");
  if (!read_states("states", db.states, error)) return R::failure(error);
  // the k nearest states give the class (classify_coordinates): none leaves no answer
  if (db.states.empty()) return R::failure("database.states: must not be empty");
  // per-side segments fix the count: m = per_side x sides segments give m (m - 1) / 2 values
  // (the other choices depend on the boundary's points)
  if (db.settings.choice == SegmentChoice::per_side) {
    const long long m = static_cast<long long>(db.settings.per_side) * db.settings.sides;
    if (static_cast<long long>(dim) != m * (m - 1) / 2)
      return R::failure("database.settings: per_side " + std::to_string(db.settings.per_side) + " x sides " +
                        std::to_string(db.settings.sides) + " make " + std::to_string(m) + " segments, " +
                        std::to_string(m * (m - 1) / 2) + " coordinates, but the states hold " + std::to_string(dim));
  }
  index_states(db);
  return R::success(std::move(db));
}

}  // namespace tela
