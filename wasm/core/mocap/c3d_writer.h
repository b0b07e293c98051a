// Writes a Recording as a C3D file (mocap/c3d.h reads it back): the tests' generator of every
// processor type and data type, and `tela synth-recording --out FILE.c3d`.
#pragma once

#include "mocap/c3d_processor.h"
#include "mocap/recording.h"

#include <string>

namespace tela {

struct C3dWriteOptions {
  C3dProcessor processor = C3dProcessor::intel;
  bool float_data = true;      // false: 16-bit integers times `scale`
  double scale = 0;            // integers: units per step; 0 picks the largest |coordinate| / 30000
  std::string units = "mm";    // mm | cm | m: POINT:UNITS and the unit of the stored numbers
  bool write_units = true;     // false: no POINT:UNITS (readers assume mm)
  int analog_channels = 0;     // channels of made-up analog data (ANALOG:USED), interleaved in each frame
  int analog_samples_per_frame = 1;
  // TRIAL:ACTUAL_START_FIELD and ACTUAL_END_FIELD (frame numbers as two 16-bit words): how
  // writers store more than 65535 frames; the header's frame words then stop at 65535
  bool trial_fields = false;
};

// The recording's names become POINT:LABELS (LABELS2, ... beyond 255), its rate POINT:RATE, its
// first frame number the header's first frame (1 when it has none or it is below 1), its up axis
// POINT:Y_SCREEN (with X_SCREEN the next axis) when set. Missing samples get x = y = z = 0 and a
// residual word of -1 (float data: -1.0); present ones a residual of 0.
std::string write_c3d(const Recording& recording, const C3dWriteOptions& options = {});

}  // namespace tela
