// Qualisys Track Manager TSV export: tab-separated `KEY value` header lines (NO_OF_FRAMES,
// FREQUENCY, NO_OF_MARKERS, MARKER_NAMES, ...), an optional `Frame Time name X name Y ...`
// row, then data in millimetres. Untracked markers are empty cells or 0, 0, 0 (QTM writes
// zeros). QTM is z-up.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string_view>

namespace tela {

Result<Recording> parse_qualisys_tsv(std::string_view bytes);

}  // namespace tela
