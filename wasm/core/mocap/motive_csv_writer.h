// Writes a Recording as an OptiTrack Motive CSV export (format 1.23, Marker columns, y-up as
// Motive writes it: the positions are taken to be in Motive's axes already).
#pragma once

#include "mocap/recording.h"

#include <string>

namespace tela {

struct MotiveWriteOptions {
  std::string units = "mm";  // mm | m
  int decimals = 3;          // digits after the point, in `units`
  bool parent_row = false;   // Motive 3 adds a Parent row under ID
  std::string take_name = "tela synthetic";
};

std::string write_motive_csv(const Recording& recording, const MotiveWriteOptions& options = {});

}  // namespace tela
