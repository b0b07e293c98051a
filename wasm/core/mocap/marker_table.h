// The data rows the wide marker exports share (Motive CSV, Vicon CSV, Qualisys TSV): a frame
// number and an X, Y, Z triple of cells per marker. Each function returns "" or a located
// error message.
#pragma once

#include "mocap/delimited_text.h"
#include "mocap/recording.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace tela {

// "the row has N cells but the header has M (truncated file?)", located at the row; "" when
// `cells` == `columns`.
std::string check_cell_count(const TextLine& line, std::size_t cells, std::size_t columns);

// Appends the row's frame number (cell 0: a whole number, greater than the previous row's) to
// rec.frame_numbers and its time since the first frame (at rec.rate) to rec.times.
std::string append_frame(const TextLine& line, Recording& rec);

// Reads marker p's X, Y, Z from cells first_column[p] .. first_column[p] + 2 into row `row` of
// rec.positions, times `scale` (to metres). Empty cells are missing data, and a marker needs
// all three to count; with `zeros_missing`, so is (0, 0, 0) (Qualisys' untracked markers).
std::string read_marker_triples(const TextLine& line, Eigen::Index row, const std::vector<std::size_t>& first_column,
                                double scale, bool zeros_missing, Recording& rec);

}  // namespace tela
