// Diagnostics, skipped by default (not tests): run with
//   build/tela_tests --no-skip --test-case='morse diagnostic*'
// "sweep": every shape (or those named in MORSE_SHAPES) under MORSE_DIRS random directions (seeds 100, 101, ...) on MORSE_CLOUDS
// clouds (seeds 7, 8, ...), default 8 x 2 (from MORSE_FIRST_DIR, MORSE_FIRST_CLOUD, default 0); prints each run and, for a wrong one, its critical
// points and whether the attaching words are complete (else the first failed check). "sublevel": for the holed ellipsoid, the Euler characteristic of the sublevel set
// below each level, summed from the slab pieces, next to that of an exact triangulation of the
// surface (a 300 x 600 grid of its parameters). A level within noise of a critical value may
// disagree for one level; a disagreement that persists starts in the slab holding the error.
// "knotted torus timing": bench/bench_morse.cpp's reconstruction, wall and CPU time.
#include "morse/reconstruction.h"
#include "shapes.h"

#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <utility>

using namespace tela;
using namespace tela::morse;
using namespace tela::morse_test;

namespace {

int environment(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : fallback;
}

}  // namespace

TEST_CASE("morse diagnostic sweep" * doctest::skip()) {
  struct Shape {
    const char* name;
    Positions (*make)(std::uint64_t);
    int euler, boundaries;
  };
  const Shape shapes[] = {
      {"ellipsoid", [](std::uint64_t s) { return holed_ellipsoid(5000, s); }, -2, 4},
      {"cylinder", [](std::uint64_t s) { return open_cylinder(3000, s); }, 0, 2},
      {"torus", [](std::uint64_t s) { return torus(5000, s); }, 0, 0},
      {"torus3k", [](std::uint64_t s) { return torus(3000, s); }, 0, 0},
      {"sphere", [](std::uint64_t s) { return sphere(3000, s); }, 2, 0},
      {"flat", [](std::uint64_t s) { return square_cloth(3000, s, 0.0); }, 1, 1},
      {"wavy", [](std::uint64_t s) { return square_cloth(3000, s, 0.12); }, 1, 1},
      {"moebius", [](std::uint64_t s) { return moebius_strip(4000, s); }, 0, 1},
      {"knot", [](std::uint64_t s) { return knotted_torus(30000, s); }, 0, 0},
  };
  const int clouds = environment("MORSE_CLOUDS", 2), directions = environment("MORSE_DIRS", 8);
  const char* only = std::getenv("MORSE_SHAPES");  // comma-separated names, all when unset
  for (const Shape& shape : shapes) {
    if (only && !std::strstr(only, shape.name)) continue;
    int right = 0, total = 0, words = 0;
    for (int c = environment("MORSE_FIRST_CLOUD", 0); c < clouds; ++c) {
      const Positions cloud = shape.make(7 + c);
      for (int d = environment("MORSE_FIRST_DIR", 0); d < directions; ++d) {
        ReconstructOptions options;
        options.seed = 100 + d;
        options.resample = false;
        const auto begin = std::chrono::steady_clock::now();
        Result<Reconstruction> r = reconstruct(cloud, options);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        REQUIRE(r.ok());
        const Reconstruction& rec = *r.value;
        const Topology& t = rec.topology;
        const bool ok = t.euler == shape.euler && t.boundary_components == shape.boundaries &&
                        t.euler == t.morse_sum && t.euler == rec.critical.euler_from_pieces;
        ++total;
        right += ok ? 1 : 0;
        words += rec.attachment.complete ? 1 : 0;
        std::printf("%s cloud %d direction %d (%.2f %.2f %.2f) %.2f s: chi %d, boundary curves %d, slabs %d %s; words %s%s\n",
                    shape.name, 7 + c, 100 + d, rec.direction.x(), rec.direction.y(), rec.direction.z(), seconds, t.euler,
                    t.boundary_components, rec.slicing.slab_count, ok ? "ok" : "WRONG",
                    rec.attachment.complete ? "complete" : "incomplete: ",
                    rec.attachment.problems.empty() ? "" : rec.attachment.problems.front().c_str());
        if (std::getenv("MORSE_PROBLEMS") && !rec.attachment.complete) {  // what an incomplete word is made of
          for (const std::string& p : rec.attachment.problems) std::printf("   problem: %s\n", p.c_str());
          for (const CriticalPoint& p : rec.critical.points)
            std::printf("   %-24s point %5d slab %3d f %8.4f (%.3f %.3f %.3f)\n", to_string(p.type), p.point,
                        rec.slicing.slab_of[p.point], rec.height[p.point], rec.points(p.point, 0),
                        rec.points(p.point, 1), rec.points(p.point, 2));
          for (std::size_t c = 0; c < rec.cells.one_cells.size(); ++c) {
            const OneCell& cell = rec.cells.one_cells[c];
            std::printf("   1-cell %zu %s, %zu points, ends %d %d, sides %d %d, uses %d", c, to_string(cell.kind),
                        cell.path.size(), rec.attachment.ends[c][0], rec.attachment.ends[c][1],
                        rec.attachment.sides[c][0], rec.attachment.sides[c][1], rec.attachment.uses[c]);
            if (cell.top >= 0)
              std::printf(", from point %d f %.4f (%.3f %.3f %.3f)", cell.top, rec.height[cell.top],
                          rec.points(cell.top, 0), rec.points(cell.top, 1), rec.points(cell.top, 2));
            std::printf("\n");
            if (std::getenv("MORSE_PATHS"))  // every 4th point of the path
              for (std::size_t i = 0; i < cell.path.size(); i += 4)
                std::printf("      %5d f %8.4f (%.3f %.3f %.3f)%s\n", cell.path[i], rec.height[cell.path[i]],
                            rec.points(cell.path[i], 0), rec.points(cell.path[i], 1), rec.points(cell.path[i], 2),
                            cell.path[i] == cell.top ? " top" : "");
          }
          for (std::size_t t = 0; t < rec.cells.two_cells.size(); ++t) {
            int size = 0;
            for (int l : rec.cells.label) size += l == static_cast<int>(t) ? 1 : 0;
            std::printf("   2-cell %zu at point %d, %d points\n", t, rec.cells.two_cells[t], size);
          }
        }
        if (ok) continue;
        for (const CriticalPoint& p : rec.critical.points)
          std::printf("   %-24s point %5d piece %4d slab %3d f %8.4f boundary curve %d\n", to_string(p.type), p.point,
                      p.piece, rec.slicing.slab_of[p.point], rec.height[p.point], rec.boundary.curve_of[p.point]);
        for (const std::string& w : rec.warnings) std::printf("   warning: %s\n", w.c_str());
      }
    }
    std::printf("%s: %d of %d right, words complete in %d\n", shape.name, right, total, words);
  }
}

TEST_CASE("morse diagnostic sublevel" * doctest::skip()) {
  // the surface of holed_ellipsoid (shapes.h), triangulated over its parameters
  const Eigen::Vector3d holes[4] = {Eigen::Vector3d(0, 0, 1), Eigen::Vector3d(0, 0, -1),
                                    Eigen::Vector3d(1, 1, 0).normalized(), Eigen::Vector3d(-1, 0.3, 0.2).normalized()};
  const int rows = 300, columns = 600;
  auto unit = [&](int i, int j) {
    const double z = 2.0 * i / rows - 1, r = std::sqrt(std::max(0.0, 1 - z * z));
    return Eigen::Vector3d(r * cos_turns(double(j) / columns), r * sin_turns(double(j) / columns), z);
  };
  auto in_hole = [&](int i, int j) {
    for (const Eigen::Vector3d& h : holes)
      if (unit(i, j).dot(h) > 0.85) return true;
    return false;
  };
  const int clouds = environment("MORSE_CLOUDS", 2), directions = environment("MORSE_DIRS", 8);
  for (int c = 0; c < clouds; ++c) {
    const Positions cloud = holed_ellipsoid(5000, 7 + c);
    for (int d = 0; d < directions; ++d) {
      ReconstructOptions options;
      options.seed = 100 + d;
      options.resample = false;
      Result<Reconstruction> r = reconstruct(cloud, options);
      REQUIRE(r.ok());
      const Reconstruction& rec = *r.value;
      auto height = [&](int i, int j) {
        const Eigen::Vector3d s = unit(i, j);
        return Eigen::Vector3d(s.x(), 0.75 * s.y(), 0.6 * s.z()).dot(rec.direction);
      };
      // chi of the sublevel set {f <= level}: the triangles (rows 1 .. rows - 1; the poles are in
      // holes) with no corner in a hole or above the level, their edges and vertices
      auto sublevel_euler = [&](double level) {
        std::set<std::pair<int, int>> vertices;
        std::set<std::array<int, 4>> edges;
        int triangles = 0;
        for (int i = 1; i + 1 < rows; ++i)
          for (int j = 0; j < columns; ++j) {
            const int k = (j + 1) % columns;
            const std::array<std::pair<int, int>, 3> both[2] = {{{{i, j}, {i + 1, j}, {i + 1, k}}},
                                                                 {{{i, j}, {i + 1, k}, {i, k}}}};
            for (const auto& t : both) {
              bool kept = true;
              for (const auto& p : t) kept = kept && !in_hole(p.first, p.second) && height(p.first, p.second) <= level;
              if (!kept) continue;
              ++triangles;
              for (int a = 0; a < 3; ++a) {
                vertices.insert(t[a]);
                auto p = t[a], q = t[(a + 1) % 3];
                if (q < p) std::swap(p, q);
                edges.insert({p.first, p.second, q.first, q.second});
              }
            }
          }
        return static_cast<int>(vertices.size()) - static_cast<int>(edges.size()) + triangles;
      };
      const SlabPieces& pieces = rec.critical.pieces;
      std::printf("cloud %d direction %d (chi %d), pieces/exact below each level:", 7 + c, 100 + d, rec.topology.euler);
      int running = 0;
      bool parted = false;
      for (int s = 0; s + 1 < rec.slicing.slab_count; ++s) {
        for (int p = 0; p < pieces.count(); ++p)
          if (pieces.piece_slab[p] == s) running += pieces.piece_chi[p];
        for (int l = 0; l < rec.level_curves.component_count(); ++l)
          if (rec.level_curves.component_cut[l] == s && !pieces.component_removed[l]) running -= pieces.component_is_arc[l];
        const int exact = sublevel_euler(rec.slicing.level(s + 1));
        std::printf(" %d/%d", running, exact);
        if (running != exact && !parted) {
          parted = true;
          std::printf(" <- slab %d", s);
        }
      }
      std::printf("\n");
    }
  }
}

TEST_CASE("morse diagnostic knotted torus timing" * doctest::skip()) {
  const Positions cloud = knotted_torus(30000, 7);
  ReconstructOptions options;
  options.seed = 100;  // as bench/bench_morse.cpp
  options.resample = false;
  const std::clock_t cpu_begin = std::clock();
  const auto begin = std::chrono::steady_clock::now();
  Result<Reconstruction> r = reconstruct(cloud, options);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const double cpu = static_cast<double>(std::clock() - cpu_begin) / CLOCKS_PER_SEC;
  REQUIRE(r.ok());
  std::printf("knotted torus 30k: chi %d, cells %d %d %d, %.3f s wall, %.3f s CPU\n", r.value->topology.euler,
              r.value->topology.cells[0], r.value->topology.cells[1], r.value->topology.cells[2], wall, cpu);
}
