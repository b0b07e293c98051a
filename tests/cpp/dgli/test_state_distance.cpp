// How two states' coordinates are compared (dgli/state_distance.h), through the classifier and
// the database file that names the distance.
#include "dgli/database_json.h"
#include "dgli/dgli_classifier.h"
#include "dgli/state_distance.h"
#include "reference_states.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tela;
using tela_test::state;

TEST_SUITE("dgli") {

TEST_CASE("direction_log_norm distance: the pattern counts, the magnitude through its log") {
  const std::vector<double> f = distance_features({3.0, 4.0}, StateDistance::direction_log_norm);
  REQUIRE(f.size() == 3);
  CHECK(f[0] == doctest::Approx(0.6));
  CHECK(f[1] == doctest::Approx(0.8));
  CHECK(f[2] == doctest::Approx(std::log(5.0)));
  DgliDatabase db;
  db.settings.choice = SegmentChoice::all;  // toy coordinates: no per-side count to match
  db.classes = {"a", "b"};
  db.states = {state(0, {1.0, 0.0}), state(1, {0.0, 10.0})};
  db.representatives = db.states;
  // Euclidean: (0, 3) is nearer (1, 0); by direction and log norm it is nearer (0, 10)
  CHECK(classify_coordinates(db, {0.0, 3.0}).knn_label == 0);
  db.distance = StateDistance::direction_log_norm;
  const Classification uncached = classify_coordinates(db, {0.0, 3.0});
  CHECK(uncached.knn_label == 1);
  CHECK(uncached.label == 1);
  CHECK(uncached.distance == doctest::Approx(std::log(10.0 / 3.0)));
  CHECK(uncached.runner_up_distance == doctest::Approx(std::sqrt(2 + std::pow(std::log(3.0), 2))));
  index_states(db);
  const Classification cached = classify_coordinates(db, {0.0, 3.0});
  CHECK(cached.knn_label == 1);
  CHECK(cached.knn_label_distance == uncached.knn_label_distance);
  CHECK(cached.state_runner_up_distance == uncached.state_runner_up_distance);
  Result<DgliDatabase> back = parse_database(database_to_json(db));
  REQUIRE(back.ok());
  CHECK(back.value->distance == StateDistance::direction_log_norm);
  std::string text = database_to_json(db);
  text.replace(text.find("direction_log_norm"), 18, "manhattan");
  CHECK(parse_database(text).error.find("settings.distance") != std::string::npos);
  // found by fuzzing: both aborted the CLI (a non-string format; no states to vote)
  text = database_to_json(db);
  text.replace(text.find("\"tela-dgli-database\""), 20, "3");
  CHECK(parse_database(text).error.find("format must be") != std::string::npos);
  DgliDatabase stateless = db;
  stateless.states.clear();
  CHECK(parse_database(database_to_json(stateless)).error.find("database.states: must not be empty") != std::string::npos);
}

TEST_CASE("saturated distance: entries beyond the saturation count by their sign") {
  // c tanh(x / c), then direction and log norm
  const std::vector<double> f = distance_features({3.0, 0.0, -40.0}, StateDistance::saturated, 2.0);
  REQUIRE(f.size() == 4);
  const double a = 2 * std::tanh(1.5), b = -2 * std::tanh(20.0), norm = std::hypot(a, b);
  CHECK(f[0] == doctest::Approx(a / norm));
  CHECK(f[1] == 0.0);
  CHECK(f[2] == doctest::Approx(b / norm));
  CHECK(f[3] == doctest::Approx(std::log(norm)));
  // small entries are nearly unchanged: the same features as direction_log_norm
  const std::vector<double> small = distance_features({0.03, -0.04}, StateDistance::saturated, 2.0);
  CHECK(small[0] == doctest::Approx(0.6).epsilon(1e-3));
  CHECK(small[2] == doctest::Approx(std::log(0.05)).epsilon(1e-3));
  // one huge entry (two stacked segments) dominates the direction of the raw vector, not the
  // saturated one: the query (1, 1, -30) is nearest (0.05, 0.05, -30) by direction and log norm,
  // (1, 1, -3) when saturated
  DgliDatabase db;
  db.settings.choice = SegmentChoice::all;  // toy coordinates: no per-side count to match
  db.classes = {"a", "b"};
  db.states = {state(0, {1.0, 1.0, -3.0}), state(1, {0.05, 0.05, -30.0})};
  db.representatives = db.states;
  db.distance = StateDistance::direction_log_norm;
  CHECK(classify_coordinates(db, {1.0, 1.0, -30.0}).knn_label == 1);
  db.distance = StateDistance::saturated;
  const Classification uncached = classify_coordinates(db, {1.0, 1.0, -30.0});
  CHECK(uncached.knn_label == 0);
  CHECK(uncached.label == 0);
  index_states(db);
  const Classification cached = classify_coordinates(db, {1.0, 1.0, -30.0});
  CHECK(cached.knn_label_distance == uncached.knn_label_distance);
  CHECK(cached.state_runner_up_distance == uncached.state_runner_up_distance);
  db.saturation = 0.5;
  Result<DgliDatabase> back = parse_database(database_to_json(db));
  REQUIRE(back.ok());
  CHECK(back.value->distance == StateDistance::saturated);
  CHECK(back.value->saturation == 0.5);
  std::string text = database_to_json(db);
  text.replace(text.find("\"saturation\":0.5"), 16, "\"saturation\":-1");
  CHECK(parse_database(text).error.find("settings.saturation") != std::string::npos);
}

}  // TEST_SUITE
