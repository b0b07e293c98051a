#include "mocap/marker_table.h"

#include "base/integer_cast.h"

#include <algorithm>
#include <cmath>

namespace tela {

std::string check_cell_count(const TextLine& line, std::size_t cells, std::size_t columns) {
  if (cells == columns) return {};
  return location(line.number, static_cast<int>(std::min(cells, columns))) + "the row has " + std::to_string(cells) +
         " cells but the header has " + std::to_string(columns) + (cells < columns ? " (truncated file?)" : "");
}

std::string append_frame(const TextLine& line, Recording& rec) {
  double frame = 0;
  if (!parse_number(line.cells[0], frame) || !is_whole_number(frame))
    return location(line.number, 1) + "frame number '" + line.cells[0] + "' is not a whole number (of at most 2^53)";
  if (!rec.frame_numbers.empty() && static_cast<long>(frame) <= rec.frame_numbers.back())
    return location(line.number, 1) + "frame numbers must increase (" + line.cells[0] + " after " +
           std::to_string(rec.frame_numbers.back()) + ")";
  rec.frame_numbers.push_back(static_cast<long>(frame));
  rec.times.push_back((rec.frame_numbers.back() - rec.frame_numbers.front()) / rec.rate);
  return {};
}

std::string read_marker_triples(const TextLine& line, Eigen::Index row, const std::vector<std::size_t>& first_column,
                                double scale, bool zeros_missing, Recording& rec) {
  for (std::size_t p = 0; p < first_column.size(); ++p) {
    double xyz[3];
    int present = 0;
    for (int a = 0; a < 3; ++a) {
      const std::size_t c = first_column[p] + a;
      const std::string& cell = line.cells[c];
      if (cell.empty()) continue;
      if (!parse_number(cell, xyz[a]))
        return location(line.number, static_cast<int>(c + 1)) + "(" + rec.names[p] + " " + "XYZ"[a] + "): '" + cell +
               "' is not a number";
      ++present;
    }
    if (present < 3 || (zeros_missing && xyz[0] == 0 && xyz[1] == 0 && xyz[2] == 0)) continue;
    for (int a = 0; a < 3; ++a) rec.positions(row, 3 * static_cast<Eigen::Index>(p) + a) = scale * xyz[a];
  }
  return {};
}

}  // namespace tela
