// The database's reach and the flag of a query unlike every state (dgli/database_reach.h).
#include "dgli/database_json.h"
#include "dgli/database_reach.h"
#include "dgli/dgli_classifier.h"
#include "reference_states.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tela;
using tela_test::state;

TEST_SUITE("dgli") {

TEST_CASE("novelty: a query farther from every state than any state is from its nearest other one") {
  DgliDatabase db;
  db.settings.choice = SegmentChoice::all;  // toy coordinates: no per-side count to match
  db.classes = {"a", "b"};
  db.states = {state(0, {0.0}), state(0, {1.0}), state(1, {3.0})};
  db.representatives = db.states;
  // neighbours: 0 -> 1, 1 -> 0, 3 -> 1
  const std::vector<double> neighbours = neighbour_distances(db);
  REQUIRE(neighbours.size() == 3);
  CHECK(neighbours[0] == 1.0);
  CHECK(neighbours[1] == 1.0);
  CHECK(neighbours[2] == 2.0);
  index_states(db);
  CHECK(db.reach == 2.0);
  const Classification inside = classify_coordinates(db, {4.5});
  CHECK(inside.knn_label == 1);
  CHECK(inside.nearest_state_distance == 1.5);
  CHECK_FALSE(inside.novel);
  const Classification outside = classify_coordinates(db, {-2.5});
  CHECK(outside.knn_label == 0);  // still the least unlike class
  CHECK(outside.nearest_state_distance == 2.5);
  CHECK(outside.novel);
  // the reach is derived, not stored: a parsed database gets it again
  const Result<DgliDatabase> back = parse_database(database_to_json(db));
  REQUIRE(back.ok());
  CHECK(back.value->reach == 2.0);
}

}  // TEST_SUITE
