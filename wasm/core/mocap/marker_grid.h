// The rectangular grid of markers on a cloth (thesis §4.2.1: 4 x 5 on A2, 3 x 4 on A3),
// found from the first frames of a z-up recording: its size, the row-major order of the
// markers from the top-left, and the two top corners that are held.
#pragma once

#include "geometry/mesh.h"
#include "mocap/recording.h"
#include "base/result.h"

#include <Eigen/Core>
#include <array>
#include <string>
#include <vector>

namespace tela {

// Every automatic choice can be overridden.
struct MarkerGridOptions {
  int cols = 0, rows = 0;                 // 0: detected (cols across, rows down)
  std::vector<std::string> order;         // marker names row-major from the top-left (needs cols, rows)
  std::vector<std::string> held;          // the two held markers; default: the top corners
  std::vector<std::string> exclude;       // points that are not on the cloth
  int reference_frames = 10;              // frames averaged for the reference positions
  double max_residual = 0.3;              // a detected grid must fit a regular lattice this well (spacings)
};

struct MarkerGrid {
  int cols = 0, rows = 0;
  std::vector<int> points;                // #cols*#rows recording point indices, row-major from the top-left
  std::array<int, 2> held{0, 0};          // indices into `points`
  Positions reference;                    // #markers by 3: mean position over the first frames, metres
  Eigen::Vector3d across{1, 0, 0};        // unit vector from the left to the right column
  Eigen::Vector3d up{0, 0, 1};            // unit vector from the bottom to the top row, in the cloth's plane
  double spacing_across = 0, spacing_down = 0;  // mean distance of neighbouring markers, metres
  double residual = 0;                    // RMS misfit of a regular lattice, in marker spacings
  std::string source;                     // "detected" or "user"
};

// Detects (or applies the user's) grid. Fails with a message when the marker count has no
// grid factorization, a marker is never visible, or a named marker does not exist.
Result<MarkerGrid> detect_marker_grid(const Recording& recording, const MarkerGridOptions& options = {});

}  // namespace tela
