// Plain CSV recordings, in either of two layouts (column names are case-insensitive and may
// carry a unit suffix such as `x (mm)` or `m1_x [mm]`):
//   long: one row per marker and frame, columns frame (optional), time, marker, x, y, z;
//   wide: one row per frame, columns frame (optional), time, then name_x, name_y, name_z.
// Empty cells (or absent rows, in the long form) are missing samples. A leading comment line
// `# units: mm` declares the units for every column; without any declaration the units are
// guessed from the magnitudes (values beyond 20 read as millimetres) and a warning says so.
// The rate is 1 / the median step of the time column. No convention for the up axis.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string_view>

namespace tela {

Result<Recording> parse_plain_csv(std::string_view bytes);

}  // namespace tela
