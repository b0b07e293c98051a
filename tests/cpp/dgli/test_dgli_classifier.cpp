// Classifier, database file, napkin fold generator and (validation) the held-out accuracy of
// the shipped database (thesis §7.4).
#include "contact/intersection/triangle_triangle.h"
#include "contact/self_collision.h"
#include "dgli/database_json.h"
#include "dgli/database_reach.h"
#include "dgli/dgli_classifier.h"
#include "dgli/representatives.h"
#include "generators/napkin_database.h"
#include "generators/napkin_folds.h"
#include "dgli/cloth_boundary.h"
#include "scenario/scenes.h"
#include "sim/simulation.h"
#include "validation_report.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

using namespace tela;

namespace {

// public/dgli/database.json of this source tree
std::string shipped_database_path() {
  std::string here = __FILE__;  // .../tests/cpp/dgli/test_dgli_classifier.cpp
  for (int up = 0; up < 4; ++up) here = here.substr(0, here.find_last_of('/'));
  return here + "/public/dgli/database.json";
}

Result<DgliDatabase> load_shipped() {
  std::ifstream in(shipped_database_path());
  if (!in) return Result<DgliDatabase>::failure("cannot read " + shipped_database_path());
  std::stringstream text;
  text << in.rdbuf();
  return parse_database(text.str());
}

ReferenceState state(int label, std::vector<double> v) {
  ReferenceState s;
  s.label = label;
  s.coordinates = std::move(v);
  return s;
}

}  // namespace

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
  // a non-string format and a database without states are located errors, not aborts
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

TEST_CASE("napkin fold on a table: labels, the flap lies on the cloth, no interpenetration, signs change") {
  FoldSequenceSpec spec;  // table mode (gravity, plane z = 0, self-collisions)
  spec.kind = kOneCorner;
  spec.depth = 0.45;
  spec.pose.nodes_per_side = 9;
  REQUIRE(spec.table);
  Result<FoldPlan> plan = plan_fold_sequence(spec);
  REQUIRE(plan.ok());
  CHECK(label_at(*plan.value, 0.0) == kFlat);
  CHECK(label_at(*plan.value, plan.value->stage_starts[0] + 0.5) == -1);
  CHECK(label_at(*plan.value, plan.value->duration) == kOneCorner);
  CHECK(plan.value->scenario.self_collision.enabled);
  REQUIRE(plan.value->scenario.obstacles.size() == 1);
  CHECK(plan.value->scenario.material.delta > 0);
  Result<FoldSequence> sequence = simulate_fold_sequence(spec);
  REQUIRE_MESSAGE(sequence.ok(), sequence.error);
  CHECK(sequence.value->unconverged_steps == 0);
  const Mesh& mesh = sequence.value->mesh;
  const Positions& first = sequence.value->frames.front().positions;
  const Positions& last = sequence.value->frames.back().positions;
  const double side = spec.pose.side, tau0 = spec.thickness;
  // the fold line x + y = c (the corner, node 0, is at the origin); rest positions tell the flap
  const double c = spec.depth * side;
  double flap_min_z = 1e9, base_max_z = 0, flap_max_offset = 0, lowest = 1e9;
  int flap_nodes = 0;
  for (int k = 0; k < mesh.node_count(); ++k) {
    const double x = mesh.positions(k, 0), y = mesh.positions(k, 1);
    const double distance = (c - x - y) / std::sqrt(2.0);  // > 0 on the flap side
    lowest = std::min(lowest, last(k, 2));
    if (distance > 0.06) {  // well inside the flap: mirrored across the line, on the lower layer
      ++flap_nodes;
      flap_min_z = std::min(flap_min_z, last(k, 2));
      const double mx = x + std::sqrt(2.0) * distance, my = y + std::sqrt(2.0) * distance;
      flap_max_offset = std::max(flap_max_offset, std::hypot(last(k, 0) - mx, last(k, 1) - my));
    } else if (distance < -0.18) {
      // the crease of a quad mesh folded across its diagonals is rounded and rises up to
      // 2.5 cm where it meets the boundary (9 x 9 nodes, measured); beyond 0.18 m it is flat
      base_max_z = std::max(base_max_z, last(k, 2));
    }
  }
  std::printf("dgli table fold (9x9, one corner): flap nodes %d, lowest flap z %.4f m, highest base z %.4f m, "
              "flap off its mirror image by <= %.4f m, lowest node %.4f m\n",
              flap_nodes, flap_min_z, base_max_z, flap_max_offset, lowest);
  REQUIRE(flap_nodes > 0);
  CHECK(lowest >= 0.5 * tau0 - 1e-4);            // on the table, not in it
  CHECK(base_max_z < 0.5 * tau0 + 0.001);        // the rest lies on the table
  CHECK(flap_min_z > 1.5 * tau0 - 2e-4);         // the flap rests on the lower layer (one thickness up)
  CHECK(flap_min_z < 1.5 * tau0 + 0.004);        // ... and does not hover
  CHECK(flap_max_offset < 0.03);                 // folded over, lying flat
  const CollisionMesh collision = collision_mesh(mesh);
  CHECK(intersecting_triangle_pairs(collision.triangles, last).empty());
  CoordinateSettings settings;
  const DgliCoordinates flat = *cloth_coordinates(*mesh_boundary(mesh, first).value, settings).value;
  const DgliCoordinates folded = *cloth_coordinates(*mesh_boundary(mesh, last).value, settings).value;
  // segment 0 (bottom side, first quarter) and segment 7 (left side, second quarter from the
  // bottom-left corner): both on the flap, so their entry changes sign
  CHECK(flat.values[upper_index(0, 7, 8)] * folded.values[upper_index(0, 7, 8)] < 0);
  CHECK(!plan_fold_sequence(FoldSequenceSpec{99}).ok());
}

TEST_CASE("napkin fold in zero gravity (no table): the corner ends at its control") {
  FoldSequenceSpec spec;
  spec.table = false;
  spec.kind = kOneCorner;
  spec.depth = 0.45;
  spec.pose.nodes_per_side = 13;
  spec.pin_margin_fraction = 0.25;
  spec.hover = 0.03;
  Result<FoldPlan> plan = plan_fold_sequence(spec);
  REQUIRE(plan.ok());
  CHECK(!plan.value->scenario.self_collision.enabled);
  CHECK(plan.value->scenario.obstacles.empty());
  Result<FoldSequence> sequence = simulate_fold_sequence(spec);
  REQUIRE(sequence.ok());
  const Positions& first = sequence.value->frames.front().positions;
  const Positions& last = sequence.value->frames.back().positions;
  const double target = spec.depth * spec.pose.side;
  CHECK(last(0, 0) == doctest::Approx(target).epsilon(1e-9));
  CHECK(last(0, 1) == doctest::Approx(target).epsilon(1e-9));
  CHECK(last(0, 2) == doctest::Approx(spec.hover).epsilon(1e-9));
  CoordinateSettings settings;
  const DgliCoordinates flat = *cloth_coordinates(*mesh_boundary(sequence.value->mesh, first).value, settings).value;
  const DgliCoordinates folded = *cloth_coordinates(*mesh_boundary(sequence.value->mesh, last).value, settings).value;
  CHECK(flat.values[upper_index(0, 7, 8)] * folded.values[upper_index(0, 7, 8)] < 0);
}

// The issue asks for >= 90 % on held-out sequences generated differently (8x8 instead of the
// database's 9x9 and 7x7 nodes, random pose on the table, random depths and variants, 2 mm
// boundary noise), table folds like the database. Classifier: the nearest database state (1-NN,
// saturated distance), as `tela classify` reports first. The held-out table folds are
// simulated here (contacts and self-collisions): three seeds with 4 sequences per class (96
// sequences, about 3 min of CPU), every 2nd labelled frame, pooled. The seeds (5, 3 and the
// CLI's default 2026) were used to choose nothing (the settings were chosen on seed 12).
// Pooled, about 460 states give a standard error of about 1.4 points at 90 % (one seed alone,
// about 160 states: 2.4 points, enough for any change of the contact solver's path to move it
// across the bound). A sequence whose simulation fails (contact QP infeasible, divergence) adds
// no states; at most one in ten may.
TEST_CASE("held-out accuracy of the shipped database (other resolution, pose, depths, 2 mm noise)" *
          doctest::test_suite("validation")) {
  Result<DgliDatabase> db = load_shipped();
  REQUIRE_MESSAGE(db.ok(), db.error);
  const std::size_t classes = db.value->classes.size();
  Evaluation pooled;
  pooled.confusion_knn.assign(classes, std::vector<int>(classes, 0));
  pooled.confusion_nearest = pooled.confusion_knn;
  for (const std::uint64_t seed : {5ull, 3ull, 2026ull}) {
    HeldOutSpec spec;
    REQUIRE(spec.table);
    spec.sequences_per_class = 4;
    spec.frame_stride = 2;
    spec.seed = seed;
    const Evaluation e = evaluate_held_out(*db.value, spec);
    std::printf("dgli held-out (seed %llu): %d states from %d table-fold sequences (%d failed), %d-node napkins, "
                "noise %.3f m; 1-NN %.3f, nearest class representative %.3f\n",
                static_cast<unsigned long long>(seed), e.total, e.generation.sequences, e.generation.failed_sequences,
                spec.pose.nodes_per_side, spec.noise, e.accuracy_knn(), e.accuracy_nearest());
    pooled.total += e.total;
    pooled.correct_knn += e.correct_knn;
    pooled.correct_nearest += e.correct_nearest;
    pooled.novel += e.novel;
    pooled.generation.sequences += e.generation.sequences;
    pooled.generation.failed_sequences += e.generation.failed_sequences;
    for (std::size_t i = 0; i < classes; ++i)
      for (std::size_t j = 0; j < classes; ++j) {
        pooled.confusion_knn[i][j] += e.confusion_knn[i][j];
        pooled.confusion_nearest[i][j] += e.confusion_nearest[i][j];
      }
  }
  std::printf("dgli held-out accuracy (seeds 5, 3, 2026 pooled, %d states): nearest database state (1-NN) %.3f, "
              "nearest class representative %.3f\n",
              pooled.total, pooled.accuracy_knn(), pooled.accuracy_nearest());
  auto print = [&](const char* title, const std::vector<std::vector<int>>& confusion) {
    std::printf("dgli confusion, %s (rows true, columns predicted, classes in database order):\n", title);
    for (std::size_t i = 0; i < confusion.size(); ++i) {
      std::printf("  %-22s", db.value->classes[i].c_str());
      for (int n : confusion[i]) std::printf(" %3d", n);
      std::printf("\n");
    }
  };
  print("1-NN", pooled.confusion_knn);
  print("nearest representative", pooled.confusion_nearest);
  using tela::validation::fixed;
  using tela::validation::report;
  report("dGLI held-out accuracy (1-NN, seeds 5, 3, 2026 pooled)",
         fixed(100 * pooled.accuracy_knn(), 1) + " % of " + std::to_string(pooled.total) + " states (" +
             std::to_string(pooled.generation.failed_sequences) + " of " +
             std::to_string(pooled.generation.sequences) + " sequences failed)",
         ">= 90 %", pooled.accuracy_knn() >= 0.9);
  report("dGLI held-out states flagged novel", std::to_string(pooled.novel) + " of " + std::to_string(pooled.total),
         "<= 5 %", 20 * pooled.novel <= pooled.total);
  CHECK(pooled.generation.sequences == 96);
  CHECK(10 * pooled.generation.failed_sequences <= pooled.generation.sequences);
  CHECK(pooled.total > 300);
  CHECK(pooled.accuracy_knn() >= 0.9);
  // held-out napkin folds are the kind of state the database holds: few are flagged novel
  std::printf("dgli held-out states flagged novel: %d of %d (database reach %.3f)\n", pooled.novel, pooled.total,
              db.value->reach);
  CHECK(20 * pooled.novel <= pooled.total);
}

TEST_CASE("a sheet hanging by two corners is unlike every napkin fold of the shipped database") {
  Result<DgliDatabase> db = load_shipped();
  REQUIRE_MESSAGE(db.ok(), db.error);
  Result<Simulation> sim = Simulation::create(*builtin_scene("hang-7x9"));
  REQUIRE_MESSAGE(sim.ok(), sim.error);
  auto classify_now = [&] {
    Result<BoundaryCurve> curve = mesh_boundary(sim.value->mesh(), sim.value->state().positions);
    REQUIRE_MESSAGE(curve.ok(), curve.error);
    Result<DgliCoordinates> c = cloth_coordinates(*curve.value, db.value->settings);
    REQUIRE_MESSAGE(c.ok(), c.error);
    return classify_coordinates(*db.value, c.value->values);
  };
  // at t = 0 the sheet lies flat (0.5 mm noise): within the database's reach (its class is
  // "crumpled", "flat" the runner-up: the database holds square napkins, and a flat A2
  // rectangle's dGLI entries are not a flat square's)
  const Classification flat = classify_now();
  CAPTURE(flat.nearest_state_distance);
  CHECK_FALSE(flat.novel);
  CHECK(flat.nearest_state_distance < 0.5 * db.value->reach);
  sim.value->step_n(300);  // 3 s: hanging still
  REQUIRE(!sim.value->failed());
  const Classification hanging = classify_now();
  CAPTURE(hanging.nearest_state_distance);
  CHECK(hanging.novel);
  CHECK(hanging.nearest_state_distance > 2 * db.value->reach);
}

}  // TEST_SUITE
