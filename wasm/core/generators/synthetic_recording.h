// Synthetic motion-capture recordings: a hanging A2 or A3 sheet (long side vertical) is
// simulated with known parameters while its two top corners are shaken (back and forth,
// normal to the sheet) or twisted (rotated about the vertical through the top edge's middle);
// after the motion the corners hold still and the sheet swings out. Or (motion "lay", thesis
// §4.3.1) the sheet is laid on the table of the built-in `tablecloth` scene, with contacts and
// friction mu: lowered until it touches, then drawn back over the table's edge while lowering,
// so that part of it slides and rests on the table and the rest hangs. The marker grid (A2 4 x 5,
// A3 3 x 4, on every `refine`-th node) is recorded with Gaussian noise and occlusion gaps
// (never in frame 0, the simulation's initial state), in Motive's y-up axes. Deterministic for a seed (portable RNG and
// portable sine), so native and WebAssembly builds write the same file.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <cstdint>
#include <string>

namespace tela {

struct SyntheticRecordingSpec {
  std::string size = "A2";      // A2 (0.42 x 0.594 m, 4 x 5 markers) or A3 (0.297 x 0.42 m, 3 x 4)
  std::string motion = "shake"; // shake | twist | lay
  double amplitude = 0;         // shake: metres (default 0.03); twist: degrees (default 20)
  double frequency = 0;         // Hz (default: shake 0.8, twist 0.4)
  double duration = 15;         // s
  double rest_before = 0.5;     // s the sheet hangs still before the motion starts
  double motion_fraction = 0.6; // the corners move until this fraction of the duration, then hold
  double dt = 0.01;             // s, simulation step and frame interval
  double tolerance = 1e-3;      // relative constraint tolerance of the simulation
  double rho = 0.1804;          // kg/m^2
  double delta_ratio = 0.48;    // delta / rho
  double alpha_ratio = 1.9;     // alpha / rho, 1/s
  double kappa = 0;             // bending stiffness (the thesis' mocap fits use 0)
  double mu = 0.5;              // lay: friction of the table and the floor
  int refine = 2;               // mesh intervals per marker interval
  double noise = 0.001;         // RMS 3D marker error, metres (each coordinate: noise / sqrt(3))
  double occlusion = 0.05;      // fraction of marker samples left empty
  int gap_min = 3, gap_max = 12;  // occlusion gap lengths, frames
  std::uint64_t seed = 1;
};

// Empty when the spec is valid, else a message naming the field and the value given.
std::string synthetic_spec_error(const SyntheticRecordingSpec& spec);

// The recording (format "motive-csv", markers in a shuffled column order, metres, y-up). An
// invalid spec fails with synthetic_spec_error's message; a simulation that diverges fails
// with a message saying so.
Result<Recording> synthesize_recording(const SyntheticRecordingSpec& spec);

}  // namespace tela
