// Attachment maps by flowing crowns (thesis §5.4.8): the attaching words of the 2-cells read
// from the reconstruction of generated clouds.
#include "morse/reconstruction.h"

#include "shapes.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>

using namespace tela;
using namespace tela::morse;
using namespace tela::morse_test;

namespace {

Reconstruction reconstructed(const Positions& cloud, std::uint64_t seed) {
  ReconstructOptions options;
  options.seed = seed;
  options.resample = false;
  Result<Reconstruction> r = reconstruct(cloud, options);
  REQUIRE(r.ok());
  return std::move(*r.value);
}

std::string describe(const Reconstruction& r) {
  std::ostringstream out;
  out << "cells " << r.topology.cells[0] << " " << r.topology.cells[1] << " " << r.topology.cells[2] << "; ";
  for (std::size_t c = 0; c < r.cells.one_cells.size(); ++c)
    out << "e" << c << "(" << to_string(r.cells.one_cells[c].kind) << " " << r.attachment.ends[c][0] << "->"
        << r.attachment.ends[c][1] << " uses " << r.attachment.uses[c] << ") ";
  for (std::size_t t = 0; t < r.attachment.words.size(); ++t) {
    out << "| D" << t << ":";
    for (const AttachingEdge& e : r.attachment.words[t]) out << " e" << e.cell << (e.sign > 0 ? "" : "^-1");
    if (r.attachment.words[t].empty()) out << " point " << r.attachment.collapses_to[t];
  }
  out << " | complete " << r.attachment.complete << " corners off " << r.attachment.corner_mismatches
      << " orientable " << r.attachment.orientable << " sides off " << r.attachment.side_mismatches;
  for (const std::string& p : r.attachment.problems) out << " | " << p;
  return out.str();
}

// each non-boundary 1-cell: its two letters' signs (in one word: same sign -> a cross-cap)
int same_sign_pairs_in_one_word(const Reconstruction& r) {
  int pairs = 0;
  for (const auto& word : r.attachment.words)
    for (std::size_t i = 0; i < word.size(); ++i)
      for (std::size_t j = i + 1; j < word.size(); ++j)
        if (word[i].cell == word[j].cell && word[i].sign == word[j].sign) ++pairs;
  return pairs;
}

}  // namespace

TEST_SUITE("morse") {

TEST_CASE("attachment: 1-cells end at the 0-cells their paths reach") {
  for (const Positions& cloud : {torus(5000, 7), square_cloth(3000, 7, 0.12), open_cylinder(3000, 7)})
    for (std::uint64_t seed : {100, 101}) {
      const Reconstruction r = reconstructed(cloud, seed);
      INFO(describe(r));
      REQUIRE(r.attachment.ends.size() == r.cells.one_cells.size());
      for (std::size_t c = 0; c < r.cells.one_cells.size(); ++c) {
        const OneCell& cell = r.cells.one_cells[c];
        for (int s = 0; s < 2; ++s) {
          const int end = r.attachment.ends[c][s];
          const int point = s == 0 ? cell.path.front() : cell.path.back();
          if (cell.kind == OneCellKind::boundary_arc) {
            // arcs are cut at the polyline point nearest a 0-cell of their curve, a few spacings away
            const int curve = cell.boundary_curve;
            const bool curve_has_zero_cells = std::any_of(r.cells.zero_cells.begin(), r.cells.zero_cells.end(),
                                                          [&](int z) { return r.boundary.curve_of[z] == curve; });
            CHECK((end >= 0) == curve_has_zero_cells);
            if (end < 0) continue;
            CHECK(r.boundary.curve_of[r.cells.zero_cells[end]] == curve);
            // the cut is the polyline point nearest the 0-cell
            const Eigen::RowVector3d zero = r.points.row(r.cells.zero_cells[end]);
            for (int v : r.boundary.polylines[curve])
              CHECK((r.points.row(v) - zero).norm() >= (r.points.row(point) - zero).norm());
          } else if (end >= 0) {
            CHECK(r.cells.zero_cells[end] == point);
          }
        }
      }
    }
}

TEST_CASE("attachment: sphere, the 2-cell is attached to a point (its crown shrinks to the minimum)") {
  const Positions cloud = sphere(3000, 7);
  for (std::uint64_t seed : {1, 100, 101}) {
    const Reconstruction r = reconstructed(cloud, seed);
    INFO("seed " << seed << ": " << describe(r));
    REQUIRE(r.cells.two_cells.size() == 1);
    REQUIRE(r.cells.zero_cells.size() == 1);
    CHECK(r.attachment.words[0].empty());
    CHECK(r.attachment.collapses_to[0] == 0);
    CHECK(r.attachment.complete);
    CHECK(r.attachment.orientable == 1);
    CHECK(r.topology.orientable);
  }
}

// The words of a torus (a b a^-1 b^-1 up to naming), a Moebius strip (a cross-cap: a 1-cell
// twice with one sign) and a disc (the boundary arcs once each). These failed while saddles
// were placed up to 0.9 from the true ones (contractible saddle loops), cloth corners read an
// interior maximum beside a boundary one (a 2-cell without points), and boundary normals flipped
// the carried frame.
TEST_CASE("attachment: torus, each 1-cell twice with opposite signs") {
  const Positions cloud = torus(5000, 7);
  for (std::uint64_t seed : {1, 100, 101}) {
    const Reconstruction r = reconstructed(cloud, seed);
    INFO("seed " << seed << ": " << describe(r));
    CHECK(r.attachment.complete);
    for (std::size_t c = 0; c < r.cells.one_cells.size(); ++c) {
      int sum = 0, uses = 0;
      for (const AttachingEdge& e : r.attachment.words[0])
        if (e.cell == static_cast<int>(c)) {
          sum += e.sign;
          ++uses;
        }
      CHECK(uses == 2);
      CHECK(sum == 0);
    }
    CHECK(r.attachment.orientable == 1);
  }
}

TEST_CASE("attachment: Moebius strip, a 1-cell twice with the same sign") {
  const Positions cloud = moebius_strip(4000, 5);
  for (std::uint64_t seed : {100, 101, 102}) {
    const Reconstruction r = reconstructed(cloud, seed);
    INFO("seed " << seed << ": " << describe(r));
    CHECK(r.attachment.complete);
    CHECK(same_sign_pairs_in_one_word(r) >= 1);
    CHECK(r.attachment.orientable == 0);
  }
}

TEST_CASE("attachment: flat and wavy cloth (a disc), every boundary arc once") {
  for (double wave : {0.0, 0.12})
    for (std::uint64_t seed : {100, 101}) {
      const Reconstruction r = reconstructed(square_cloth(3000, 7, wave), seed);
      INFO("wave " << wave << " seed " << seed << ": " << describe(r));
      CHECK(r.attachment.complete);
      CHECK(r.attachment.orientable == 1);
    }
}

// whenever the words are complete they must describe the surface: orientability from them as
// the shape's (the Moebius strip: a 1-cell twice with one sign in one word), each 1-cell as
// often as it must be; the number of complete runs is printed (docs/validation.md, "Morse
// reconstruction")
TEST_CASE("attachment: complete words agree with the known surface") {
  struct Shape {
    const char* name;
    Positions cloud;
    bool orientable;
  };
  const Shape shapes[] = {{"torus", torus(3000, 7), true},
                          {"flat cloth", square_cloth(3000, 7, 0.0), true},
                          {"wavy cloth", square_cloth(3000, 7, 0.12), true},
                          {"open cylinder", open_cylinder(3000, 7), true},
                          {"holed ellipsoid", holed_ellipsoid(5000, 7), true},
                          {"Moebius strip", moebius_strip(4000, 7), false}};
  for (const Shape& shape : shapes) {
    int complete = 0;
    for (std::uint64_t seed = 100; seed < 108; ++seed) {
      const Reconstruction r = reconstructed(shape.cloud, seed);
      if (!r.attachment.complete) continue;
      ++complete;
      INFO(shape.name << " seed " << seed << ": " << describe(r));
      CHECK(r.attachment.orientable == (shape.orientable ? 1 : 0));
      CHECK(r.topology.orientable == shape.orientable);
      if (!shape.orientable) CHECK(same_sign_pairs_in_one_word(r) >= 1);
    }
    MESSAGE(std::string(shape.name) << ": attaching words complete in " << complete << " of 8 directions");
  }
}

// The knotted torus, genus 1: its descending paths merge over long stretches, and the points
// beside its saddles' 1-cells climb to flat saddles (their sides are read from the saddle's
// sides above); a wiggle lower than a slab keeps a strong saddle whose partner was cancelled.
TEST_CASE("attachment: knotted torus (30 000 points), complete words") {
  const Positions cloud = knotted_torus(30000, 7);
  const std::vector<Eigen::Vector3d> directions = {random_direction(100), random_direction(101), random_direction(102),
                                                   Eigen::Vector3d(-0.703, 0.606, -0.372).normalized()};
  int complete = 0;
  for (const Eigen::Vector3d& direction : directions) {
    ReconstructOptions options;
    options.direction = direction;
    options.resample = false;
    Result<Reconstruction> result = reconstruct(cloud, options);
    REQUIRE(result.ok());
    const Reconstruction& r = *result.value;
    INFO("direction " << direction.transpose() << ": " << describe(r));
    CHECK(r.attachment.complete);
    if (!r.attachment.complete) continue;
    ++complete;
    CHECK(r.attachment.orientable == 1);
    CHECK(r.topology.genus == 1);
  }
  MESSAGE("knotted torus: attaching words complete in " << complete << " of " << directions.size() << " directions");
}

// an incomplete word is never silent: the attachment lists what failed and the reconstruction warns
TEST_CASE("attachment: incomplete words say why, complete ones pass every check") {
  for (const Positions& cloud : {torus(5000, 7), square_cloth(3000, 7, 0.12), open_cylinder(3000, 7)})
    for (std::uint64_t seed : {100, 101}) {
      const Reconstruction r = reconstructed(cloud, seed);
      INFO(describe(r));
      const bool warned = std::any_of(r.warnings.begin(), r.warnings.end(), [](const std::string& w) {
        return w.rfind("attaching words incomplete", 0) == 0;
      });
      CHECK(warned == !r.attachment.complete);
      if (!r.attachment.complete) {
        CHECK((!r.attachment.problems.empty() || r.attachment.corner_mismatches > 0));
        CHECK(r.attachment.orientable == -1);
        continue;
      }
      CHECK(r.attachment.problems.empty());
      for (std::size_t c = 0; c < r.cells.one_cells.size(); ++c)
        CHECK(r.attachment.uses[c] == (r.cells.one_cells[c].kind == OneCellKind::boundary_arc ? 1 : 2));
      for (const auto& word : r.attachment.words)  // consecutive letters meet at a 0-cell
        for (std::size_t i = 0; i < word.size(); ++i) {
          const AttachingEdge& a = word[i];
          const AttachingEdge& b = word[(i + 1) % word.size()];
          CHECK(r.attachment.ends[a.cell][a.sign > 0 ? 1 : 0] == r.attachment.ends[b.cell][b.sign > 0 ? 0 : 1]);
        }
    }
}

// the words decide orientability only when complete; otherwise the normals do (the JSON's
// orientable_from says which)
TEST_CASE("attachment: incomplete words leave orientability to the normals") {
  const Reconstruction r = reconstructed(moebius_strip(4000, 5), 100);
  INFO(describe(r));
  if (!r.attachment.complete) {
    CHECK(r.attachment.orientable == -1);
    CHECK_FALSE(r.topology.orientable);
  } else {
    CHECK(r.topology.orientable == (r.attachment.orientable == 1));
  }
}

}
