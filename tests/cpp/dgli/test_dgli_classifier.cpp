// The classifier on the shipped database (thesis §7.4): its held-out accuracy and a state unlike
// every napkin fold; and the napkin fold generator the database is made from.
#include "contact/intersection/triangle_triangle.h"
#include "contact/self_collision.h"
#include "dgli/cloth_boundary.h"
#include "dgli/database_json.h"
#include "dgli/dgli_classifier.h"
#include "generators/napkin_database.h"
#include "generators/napkin_folds.h"
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

}  // namespace

TEST_SUITE("dgli") {

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

TEST_CASE("napkin fold in zero gravity: the corner ends at its control") {
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

// The criterion: >= 90 % on held-out sequences generated differently (8x8 instead of the
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
