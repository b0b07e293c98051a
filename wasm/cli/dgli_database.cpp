// tela dgli-database --out FILE [--evaluate]: simulates the napkin folding sequences (on a table;
// --zero-gravity: the zero-gravity generator, without contacts), writes the
// dGLI reference database, and optionally classifies held-out sequences (other resolution,
// pose, depths, 2 mm boundary noise) and prints the accuracy and confusion matrices.
#include "cli.h"

#include "dgli/database_json.h"
#include "generators/napkin_database.h"
#include "base/json_text.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace tela::cli {

namespace {
void print_progress(int n, const std::string& what) { std::fprintf(stderr, "sequence %d: %s\n", n, what.c_str()); }

}  // namespace

int run_dgli_database(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela dgli-database [--out FILE] [--evaluate] [--database FILE (evaluate an existing one)] "
      "[--per-side K] [--layout spread|first_half] [--held-out-per-class N] [--held-out-out FILE] [--held-out-only I] [--held-out-frame-stride N] [--seed S] [--k K] [--noise M] "
      "[--nodes N[,N2,...] (default 9,7)] [--noise-copies N] [--augment-noise M] [--frame-stride N] [--crumpled N] [--crumpled-frame-stride N] [--quarter-depths N] "
      "[--distance euclidean|direction_log_norm|saturated] [--saturation C] [--zero-gravity (no table: the part that stays flat is held by controls)] [--progress (a line per sequence on stderr)]";
  if (wants_help(args)) return print_usage(usage);
  std::string out_path, database_path, held_out_path;
  bool evaluate = false, distance_override = false, saturation_override = false, progress = false;
  int k = 1;
  NapkinDatabaseSpec spec;
  HeldOutSpec held_out;
  // --zero-gravity first selects the zero-gravity settings, which the other options then adjust
  for (const std::string& a : args)
    if (a == "--zero-gravity") {
      spec = NapkinDatabaseSpec::zero_gravity();
      held_out = HeldOutSpec::zero_gravity();
    }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--zero-gravity") continue;
    if (a == "--out" && has_value) out_path = args[++i];
    else if (a == "--database" && has_value) database_path = args[++i];
    else if (a == "--evaluate") evaluate = true;
    else if (a == "--progress") progress = true;
    else if (a == "--held-out-out" && has_value) held_out_path = args[++i];
    else if (a == "--per-side" && has_value) {
      if (!parse_int(args[++i], 1, 20, spec.settings.per_side))
        return bad_input("--per-side: needs a whole number in [1, 20]");
    } else if (a == "--held-out-per-class" && has_value) {
      if (!parse_int(args[++i], 1, 100, held_out.sequences_per_class))
        return bad_input("--held-out-per-class: needs a whole number in [1, 100]");
    } else if (a == "--layout" && has_value) {
      if (!parse_side_layout(args[++i], spec.settings.layout)) return bad_input("--layout: spread or first_half");
    } else if (a == "--k" && has_value) {
      if (!parse_int(args[++i], 1, 100, k)) return bad_input("--k: needs a whole number in [1, 100]");
    } else if (a == "--noise" && has_value) {
      if (!parse_real(args[++i], held_out.noise) || !(held_out.noise >= 0 && held_out.noise < 0.05))
        return bad_input("--noise: metres in [0, 0.05)");
    } else if (a == "--hover" && has_value) {
      if (!parse_real(args[++i], spec.hover) || !(spec.hover > 0 && spec.hover < 0.2))
        return bad_input("--hover: metres in (0, 0.2)");
      held_out.hover = spec.hover;
    } else if (a == "--margin" && has_value) {
      if (!parse_real(args[++i], spec.pin_margin_fraction) ||
          !(spec.pin_margin_fraction >= 0 && spec.pin_margin_fraction < 0.5))
        return bad_input("--margin: a fraction of the side in [0, 0.5)");
      held_out.pin_margin_fraction = spec.pin_margin_fraction;
    } else if (a == "--nodes" && has_value) {
      // N or N,N2,...: the first is the main resolution, the others are simulated as well
      std::vector<int> list;
      std::string text = args[++i];
      for (std::size_t from = 0; from <= text.size();) {
        const std::size_t comma = std::min(text.find(',', from), text.size());
        int nodes = 0;
        if (!parse_int(text.substr(from, comma - from), 3, 40, nodes))
          return bad_input("--nodes: nodes per side of the database napkin, in [3, 40] (a comma-separated list for several)");
        list.push_back(nodes);
        from = comma + 1;
      }
      spec.pose.nodes_per_side = list.front();
      spec.extra_nodes_per_side.assign(list.begin() + 1, list.end());
    } else if (a == "--held-out-only" && has_value) {
      if (!parse_int(args[++i], 1, 100000, held_out.only_sequence))
        return bad_input("--held-out-only: the number of one held-out sequence (1-based)");
    } else if (a == "--held-out-frame-stride" && has_value) {
      if (!parse_int(args[++i], 1, 100, held_out.frame_stride))
        return bad_input("--held-out-frame-stride: needs a whole number in [1, 100]");
    } else if (a == "--noise-copies" && has_value) {
      if (!parse_int(args[++i], 0, 20, spec.noise_copies))
        return bad_input("--noise-copies: noisy copies of each database state, a whole number in [0, 20]");
    } else if (a == "--augment-noise" && has_value) {
      if (!parse_real(args[++i], spec.augment_noise) || !(spec.augment_noise >= 0 && spec.augment_noise < 0.05))
        return bad_input("--augment-noise: metres in [0, 0.05)");
    } else if (a == "--held-out-nodes" && has_value) {
      if (!parse_int(args[++i], 3, 40, held_out.pose.nodes_per_side))
        return bad_input("--held-out-nodes: nodes per side of the held-out napkins, in [3, 40]");
    } else if (a == "--frame-stride" && has_value) {
      if (!parse_int(args[++i], 1, 100, spec.frame_stride))
        return bad_input("--frame-stride: needs a whole number in [1, 100]");
    } else if (a == "--crumpled" && has_value) {
      if (!parse_int(args[++i], 1, 2000, spec.crumpled_sequences))
        return bad_input("--crumpled: needs a whole number of crumpling sequences in [1, 2000]");
    } else if (a == "--distance" && has_value) {
      StateDistance d;
      if (!parse_state_distance(args[++i], d))
        return bad_input("--distance: euclidean, direction_log_norm or saturated");
      spec.distance = d;
      distance_override = true;
    } else if (a == "--saturation" && has_value) {
      if (!parse_real(args[++i], spec.saturation) || !(spec.saturation > 0 && spec.saturation < 1e6))
        return bad_input("--saturation: a number in (0, 1e6)");
      saturation_override = true;
    } else if (a == "--quarter-depths" && has_value) {
      if (!parse_int(args[++i], 1, 100, spec.quarter_depths))
        return bad_input("--quarter-depths: needs a whole number in [1, 100]");
    } else if (a == "--crumpled-frame-stride" && has_value) {
      if (!parse_int(args[++i], 1, 100, spec.crumpled_frame_stride))
        return bad_input("--crumpled-frame-stride: needs a whole number in [1, 100]");
    } else if (a == "--seed" && has_value) {
      char* end = nullptr;
      held_out.seed = std::strtoull(args[++i].c_str(), &end, 10);
      if (args[i].empty() || *end != '\0') return bad_input("--seed: needs a whole number");
    } else return bad_input("unknown or incomplete option '" + a + "'; " + usage);
  }
  if (out_path.empty() && database_path.empty()) return bad_input("give --out FILE or --database FILE; " + usage);
  // before the minutes of simulation, not after them
  if (!out_path.empty() && !writable(out_path)) return bad_input("--out: cannot write '" + out_path + "'");
  if (!held_out_path.empty() && !writable(held_out_path))
    return bad_input("--held-out-out: cannot write '" + held_out_path + "'");

  nlohmann::json out;
  const auto start = std::chrono::steady_clock::now();
  DgliDatabase db;
  if (!database_path.empty()) {
    Result<std::string> text = read_file(database_path);
    if (!text.ok()) return bad_input("--database: " + text.error);
    Result<DgliDatabase> parsed = parse_database(*text.value);
    if (!parsed.ok()) return bad_input(database_path + ": " + parsed.error);
    db = *parsed.value;
    if (distance_override) db.distance = spec.distance;
    if (saturation_override) db.saturation = spec.saturation;
    index_states(db);
  } else {
    GenerationReport report;
    if (progress) report.on_sequence = print_progress;
    db = generate_napkin_database(spec, &report);
    out["sequences"] = report.sequences;
    out["failed_sequences"] = report.failed_sequences;
    out["failures"] = report.failures;
    out["unconverged_steps"] = report.unconverged_steps;
  }
  if (!out_path.empty()) {
    if (!write_file(out_path, database_to_json(db, 3) + "\n"))
      return bad_input("--out: cannot write '" + out_path + "'");
    out["out"] = out_path;
  }
  out["states"] = db.states.size();
  out["representatives"] = db.representatives.size();
  std::vector<int> per_class(db.classes.size(), 0);
  for (const ReferenceState& r : db.representatives) ++per_class[r.label];
  out["representatives_per_class"] = per_class;
  out["classes"] = db.classes;
  if (evaluate) {
    std::vector<ReferenceState> held_out_states;
    const Evaluation e =
        evaluate_held_out(db, held_out, k, &held_out_states, progress ? print_progress : nullptr);
    if (!held_out_path.empty()) {
      DgliDatabase dump = db;
      dump.representatives = held_out_states;
      dump.states = held_out_states;
      dump.provenance = "held-out states (not a reference database)";
      if (!write_file(held_out_path, database_to_json(dump) + "\n"))
        return bad_input("--held-out-out: cannot write '" + held_out_path + "'");
    }
    out["held_out"] = {{"states", e.total},
                       {"sequences", e.generation.sequences},
                       {"failed_sequences", e.generation.failed_sequences},
                       {"failures", e.generation.failures},
                       {"accuracy_nearest_representative", e.accuracy_nearest()},
                       {"accuracy_knn", e.accuracy_knn()},
                       {"novel", e.novel},
                       {"reach", db.reach},
                       {"k", k},
                       {"confusion_nearest_representative", e.confusion_nearest},
                       {"confusion_knn", e.confusion_knn},
                       {"nodes_per_side", held_out.pose.nodes_per_side},
                       {"noise_m", held_out.noise},
                       {"table", held_out.table}};
  }
  out["wall_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("%s\n", json_text(out).c_str());
  return 0;
}

}  // namespace tela::cli
