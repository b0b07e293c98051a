// Class representatives of a dGLI database (dgli/representatives.h), and the classes they give.
#include "dgli/dgli_classifier.h"
#include "dgli/representatives.h"
#include "reference_states.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tela;
using tela_test::state;

TEST_SUITE("dgli") {

TEST_CASE("representatives: the state nearest the centroid, more of them for spread classes") {
  std::vector<ReferenceState> states;
  // class 0: one tight cluster around (0, 0); class 1: two clusters far apart
  for (double d : {-0.1, 0.0, 0.1, 0.02}) states.push_back(state(0, {d, 0.0}));
  for (double d : {-0.1, 0.0, 0.1}) {
    states.push_back(state(1, {10 + d, 0.0}));
    states.push_back(state(1, {-10 + d, 5.0}));
  }
  const std::vector<ReferenceState> reps = select_representatives(states, 2, 1.0);
  int class0 = 0, class1 = 0;
  for (const ReferenceState& r : reps) (r.label == 0 ? class0 : class1)++;
  CHECK(class0 == 1);
  CHECK(class1 == 2);
  CHECK(reps.front().coordinates[0] == 0.0);  // nearest to the centroid 0.005
  DgliDatabase db;
  db.classes = {"a", "b"};
  db.representatives = reps;
  db.states = states;
  const Classification c = classify_coordinates(db, {-9.0, 5.0}, 3);
  CHECK(c.label == 1);
  CHECK(c.runner_up == 0);
  CHECK(c.distance == doctest::Approx(1.0));
  CHECK(c.knn_label == 1);
  CHECK(c.knn_votes == 3);
}

}  // TEST_SUITE
