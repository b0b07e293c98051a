// Marker grid detection, the refined simulation mesh, resampling.
#include "mocap/marker_cloth.h"
#include "mocap/marker_grid.h"
#include "mocap/resample.h"
#include "generators/synthetic_recording.h"
#include "mocap/up_axis.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

namespace {

tela::Recording synthetic(const std::string& size, std::uint64_t seed) {
  tela::SyntheticRecordingSpec spec;
  spec.size = size;
  spec.duration = 1.0;
  spec.seed = seed;
  tela::Result<tela::Recording> r = tela::synthesize_recording(spec);
  REQUIRE(r.ok());
  tela::to_z_up(*r.value, tela::default_up_axis(*r.value));
  return *r.value;
}

}  // namespace

TEST_SUITE("mocap") {

TEST_CASE("marker grid: A2 4x5 and A3 3x4 found, ordered from the top-left, top corners held") {
  for (const std::string size : {"A2", "A3"}) {
    CAPTURE(size);
    const tela::Recording rec = synthetic(size, 11);
    const tela::Result<tela::MarkerGrid> grid = tela::detect_marker_grid(rec);
    REQUIRE(grid.ok());
    const int cols = size == "A2" ? 4 : 3, rows = size == "A2" ? 5 : 4;
    CHECK(grid.value->cols == cols);
    CHECK(grid.value->rows == rows);
    CHECK(grid.value->residual < 0.02);
    // the generator names markers M<row><col> (row 1 at the top) and shuffles the columns;
    // left and right may be swapped (a mirror of the flat sheet is the same sheet)
    bool direct = true, mirrored = true;
    for (int r = 0; r < rows; ++r)
      for (int c = 0; c < cols; ++c) {
        const std::string& name = rec.names[grid.value->points[r * cols + c]];
        direct &= name == "Cloth:M" + std::to_string(r + 1) + std::to_string(c + 1);
        mirrored &= name == "Cloth:M" + std::to_string(r + 1) + std::to_string(cols - c);
      }
    CHECK((direct || mirrored));
    CHECK(grid.value->held[0] == 0);
    CHECK(grid.value->held[1] == cols - 1);
    const double width = size == "A2" ? 0.42 : 0.297, height = size == "A2" ? 0.594 : 0.42;
    CHECK(grid.value->spacing_across * (cols - 1) == doctest::Approx(width).epsilon(0.005));
    CHECK(grid.value->spacing_down * (rows - 1) == doctest::Approx(height).epsilon(0.005));

    // the simulation mesh: A2 7x9, A3 5x7; every marker on its node at the start
    const tela::Result<tela::MarkerCloth> cloth = tela::build_marker_cloth(rec, *grid.value);
    REQUIRE(cloth.ok());
    const int nx = 2 * cols - 1, ny = 2 * rows - 1;
    CHECK(cloth.value->mesh.node_count() == nx * ny);
    CHECK(cloth.value->held_nodes[0] == (ny - 1) * nx);
    CHECK(cloth.value->held_nodes[1] == ny * nx - 1);
    for (int m = 0; m < cols * rows; ++m)
      CHECK((cloth.value->initial_positions.row(cloth.value->marker_nodes[m]) - grid.value->reference.row(m)).norm() < 1e-12);
    // a factor of 3
    tela::MarkerClothOptions three;
    three.refine = 3;
    CHECK(tela::build_marker_cloth(rec, *grid.value, three).value->mesh.node_count() == (3 * cols - 2) * (3 * rows - 2));
  }
}

TEST_CASE("marker grid: user overrides and refusals") {
  const tela::Recording rec = synthetic("A3", 5);
  tela::MarkerGridOptions options;
  options.held = {"Cloth:M21", "Cloth:M23"};
  tela::Result<tela::MarkerGrid> grid = tela::detect_marker_grid(rec, options);
  REQUIRE(grid.ok());
  CHECK(rec.names[grid.value->points[grid.value->held[0]]] == "Cloth:M21");

  tela::MarkerGridOptions order;
  order.cols = 3;
  order.rows = 4;
  for (int r = 1; r <= 4; ++r)
    for (int c = 1; c <= 3; ++c) order.order.push_back("Cloth:M" + std::to_string(r) + std::to_string(c));
  grid = tela::detect_marker_grid(rec, order);
  REQUIRE(grid.ok());
  CHECK(grid.value->source == "user");
  CHECK(rec.names[grid.value->points[0]] == "Cloth:M11");
  CHECK(grid.value->residual < 0.02);

  tela::MarkerGridOptions twice = order;
  twice.order[1] = twice.order[0];
  CHECK(tela::detect_marker_grid(rec, twice).error == "grid order: marker 'Cloth:M11' is named twice");
  tela::MarkerGridOptions swapped = order;  // two markers swapped: taken, with a large misfit
  std::swap(swapped.order[0], swapped.order[11]);
  grid = tela::detect_marker_grid(rec, swapped);
  REQUIRE(grid.ok());
  CHECK(grid.value->residual > swapped.max_residual);

  tela::MarkerGridOptions bad;
  bad.held = {"Cloth:M11", "nope"};
  CHECK(tela::detect_marker_grid(rec, bad).error.find("nope") != std::string::npos);
  tela::MarkerGridOptions shape;
  shape.cols = 5;
  shape.rows = 5;
  CHECK_FALSE(tela::detect_marker_grid(rec, shape).ok());
  tela::Recording scrambled = rec;  // one marker far off the sheet: no regular grid
  scrambled.positions.col(0).array() += 0.3;
  const std::string misfit = tela::detect_marker_grid(scrambled).error;
  CHECK(misfit.find("regular grid") != std::string::npos);
  CAPTURE(misfit);
  // the names the user may exclude, all 12
  const std::size_t listed = misfit.find("The markers: ");
  REQUIRE(listed != std::string::npos);
  for (const std::string& name : rec.names) CHECK(misfit.find(name, listed) != std::string::npos);
  tela::MarkerGridOptions unknown;
  unknown.exclude = {"Cloth:M99"};
  CHECK(tela::detect_marker_grid(rec, unknown).error == "exclude: the recording has no marker 'Cloth:M99'");
  tela::MarkerGridOptions prime;  // 11 markers have no grid
  prime.exclude = {"Cloth:M11"};
  CHECK(tela::detect_marker_grid(rec, prime).error.find("11") != std::string::npos);
}

TEST_CASE("resampling: linear between frames, gaps stay missing; held tracks fill them") {
  tela::Recording rec;
  rec.rate = 10;
  rec.names = {"a"};
  rec.kinds = {tela::PointKind::marker};
  rec.times = {0, 0.1, 0.2, 0.3, 0.4};
  rec.frame_numbers = {0, 1, 2, 3, 4};
  const double nan = std::nan("");
  rec.positions.resize(5, 3);
  rec.positions << 0, 0, 0, 1, 0, 0, nan, nan, nan, 3, 0, 0, 4, 0, 0;
  const Eigen::MatrixXd r = tela::resample_markers(rec, {0}, 0.05, 9);
  CHECK(r(0, 0) == 0);
  CHECK(r(1, 0) == doctest::Approx(0.5));
  CHECK(r(2, 0) == doctest::Approx(1.0));
  CHECK(std::isnan(r(3, 0)));  // between frame 1 and the gap
  CHECK(std::isnan(r(4, 0)));  // the gap itself
  CHECK(std::isnan(r(5, 0)));
  CHECK(r(7, 0) == doctest::Approx(3.5));
  CHECK(r(8, 0) == doctest::Approx(4.0));
  const Eigen::MatrixXd filled = tela::gap_filled_track(rec, 0, 0.05, 10);
  CHECK(filled(4, 0) == doctest::Approx(2.0));  // across the gap
  CHECK(filled(9, 0) == doctest::Approx(4.0));  // held after the end
}

}  // TEST_SUITE
