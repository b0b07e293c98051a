// dGLI benchmark figures: the cloth coordinates of a 40-segment boundary (780 entries) and the
// classification of 1,000 states against the shipped database (public/dgli/database.json).
#include "dgli/cloth_boundary.h"
#include "dgli/cloth_coordinates.h"
#include "dgli/database_json.h"
#include "dgli/dgli_classifier.h"
#include "geometry/generators.h"
#include "base/portable_random.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void bench_dgli() {
  using namespace tela;
  // a 0.4 m napkin, 41 x 41 quads, one corner folded (kinematically) and lifted 1 cm
  RectangleSpec spec;
  spec.width = spec.height = 0.4;
  spec.nx = spec.ny = 41;
  const Mesh mesh = make_rectangle(spec);
  Positions p = mesh.positions;
  for (Eigen::Index k = 0; k < p.rows(); ++k) {
    const double d = 0.25 - p(k, 0) - p(k, 1);
    if (d > 0) p.row(k) += Eigen::RowVector3d(d, d, 0.01);
  }
  const BoundaryCurve curve = *mesh_boundary(mesh, p).value;
  CoordinateSettings settings;
  settings.per_side = 10;  // 40 segments, 780 entries
  const int repeats = 200;
  double checksum = 0;
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) checksum += cloth_coordinates(curve, settings).value->values[r % 780];
  const double coordinates_ms = 1e3 * seconds_since(start) / repeats;
  const std::vector<Segment> segments = *choose_segments(curve, settings).value;
  start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) checksum += segment_coordinates(segments).values[r % 780];
  const double matrix_ms = 1e3 * seconds_since(start) / repeats;
  std::printf("dgli: 40 segments of a %d-point boundary (checksum %.6g)\n", static_cast<int>(curve.points.rows()), checksum);
  std::printf("BENCH native_dgli_coordinates_40_segments_ms %.4g ms\n", coordinates_ms);
  std::printf("BENCH native_dgli_matrix_780_entries_ms %.4g ms\n", matrix_ms);

  const std::string path = std::string(TELA_BENCH_SOURCE_DIR) + "/public/dgli/database.json";
  std::ifstream in(path);
  if (!in) {
    std::printf("dgli: %s not found; classification figure skipped\n", path.c_str());
    return;
  }
  std::stringstream text;
  text << in.rdbuf();
  const Result<DgliDatabase> db = parse_database(text.str());
  if (!db.ok()) {
    std::printf("dgli: %s: %s; classification figure skipped\n", path.c_str(), db.error.c_str());
    return;
  }
  // 1,000 queries: database states with 1 % noise
  std::mt19937_64 rng(3);
  std::vector<std::vector<double>> queries;
  for (int q = 0; q < 1000; ++q) {
    std::vector<double> v = db.value->states[q % db.value->states.size()].coordinates;
    for (double& x : v) x *= 1 + 0.01 * standard_normal(rng);
    queries.push_back(v);
  }
  int agree = 0;
  start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  for (const std::vector<double>& q : queries) agree += classify_coordinates(*db.value, q, 5).label >= 0;
  const double classify_ms = 1e3 * seconds_since(start);
  const double classify_cpu_ms = 1e3 * static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  std::printf("dgli: %zu representatives, %zu states, rotations %d (%d classified)\n", db.value->representatives.size(),
              db.value->states.size(), db.value->rotations, agree);
  std::printf("dgli: classifying 1000 states took %.4g ms of CPU time (wall time below)\n", classify_cpu_ms);
  std::printf("BENCH native_dgli_classify_1000_states_ms %.4g ms\n", classify_ms);
  std::fflush(stdout);
}
