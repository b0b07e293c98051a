// The file form of a dGLI database (dgli/database_json.h): round trip and located errors.
#include "dgli/database_json.h"
#include "reference_states.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tela;
using tela_test::state;

TEST_SUITE("dgli") {

TEST_CASE("database JSON round trip and located errors") {
  DgliDatabase db;
  db.classes = {"flat", "folded"};
  db.settings.per_side = 1;
  db.rotations = 4;
  db.states = {state(0, {0.123456, -1, 2, 0, 0, 1}), state(1, {1, 2, 3, 4, 5, 6})};
  db.representatives = db.states;
  Result<DgliDatabase> back = parse_database(database_to_json(db));
  REQUIRE(back.ok());
  CHECK(back.value->rotations == 4);
  CHECK(back.value->settings.per_side == 1);
  CHECK(back.value->states[0].coordinates[0] == 0.1235);
  CHECK(back.value->representatives.size() == 2);
  // where the JSON breaks, and a duplicate key (the DOM parse kept the last one silently)
  CHECK(parse_database("{").error.find("database: invalid JSON at byte ") != std::string::npos);
  CHECK(parse_database(R"({"format": "tela-dgli-database", "format": "x"})").error == "database: format: duplicate key");
  std::string text = database_to_json(db);
  text.replace(text.find("\"class\":1"), 9, "\"class\":7");
  CHECK(parse_database(text).error.find("class") != std::string::npos);
  // per-side settings that do not give the states' coordinate count (a hand-edited file):
  // refused here, instead of every classification failing later
  DgliDatabase mismatched = db;
  mismatched.settings.per_side = 2;
  CHECK(parse_database(database_to_json(mismatched)).error.find("make 8 segments, 28 coordinates, but the states hold 6") !=
        std::string::npos);
}

}  // TEST_SUITE
