// Which axis of a recording points up, and the rotation into the core's z-up frame.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string>

namespace tela {

struct UpAxis {
  int axis = 2;      // 0 x, 1 y, 2 z of the file
  int sign = 1;      // +1 or -1 ("-y": the file's y points down)
  std::string source;  // "user", "format" (the exporter's convention) or "detected"
};

// Parses "x", "y", "z", "+y", "-z", ... Fails with a message for anything else.
Result<UpAxis> parse_up_axis(const std::string& text);

// The file axis along which the points spread most (over their first valid positions):
// a hanging sheet is taller than it is wide, and a standing subject is too.
UpAxis detect_up_axis(const Recording& recording);

// The format's convention or the file's statement when there is one (Motive y-up, Vicon and
// Qualisys z-up, a C3D file's POINT:Y_SCREEN), else detect_up_axis().
UpAxis default_up_axis(const Recording& recording);

// Rotates the positions in place so that `up` becomes +z (a proper rotation: the cyclic
// permutation of the axes that brings `up` last, with one more sign flip when sign = -1).
void to_z_up(Recording& recording, const UpAxis& up);

}  // namespace tela
