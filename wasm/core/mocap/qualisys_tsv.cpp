#include "mocap/qualisys_tsv.h"

#include "base/integer_cast.h"
#include "mocap/delimited_text.h"
#include "mocap/length_units.h"
#include "mocap/marker_table.h"

#include <cctype>
#include <cmath>
#include <limits>

namespace tela {
namespace {

bool is_header_key(const std::string& cell) {
  if (cell.empty()) return false;
  for (char c : cell)
    if (!(std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return std::isupper(static_cast<unsigned char>(cell[0]));
}

// a declared count: a whole number in [0, max] (converting a double beyond the integer
// range is undefined behaviour)
bool is_count(double number, double max) { return number >= 0 && number <= max && is_whole_number(number); }
constexpr double kMaxDeclaredFrames = 1e12;
constexpr double kMaxDeclaredMarkers = 1e6;

}  // namespace

Result<Recording> parse_qualisys_tsv(std::string_view bytes) {
  using R = Result<Recording>;
  const std::vector<TextLine> lines = split_delimited(bytes, '\t');
  std::size_t i = 0;
  while (i < lines.size() && lines[i].blank()) ++i;
  if (i == lines.size()) return R::failure("the file is empty");

  Recording rec;
  rec.format = "qualisys-tsv";
  rec.units = "mm";
  rec.up_axis = 'z';
  long declared_frames = -1;
  int declared_markers = -1;
  int names_line = 0;
  for (; i < lines.size(); ++i) {
    const TextLine& line = lines[i];
    if (line.blank()) continue;
    const std::string& key = line.cells[0];
    if (!is_header_key(key)) break;
    const std::string value = line.cells.size() > 1 ? line.cells[1] : std::string();
    double number = 0;
    if (key == "FREQUENCY") {
      if (!parse_number(value, number) || !(number > 0))
        return R::failure(location(line.number, 2) + "FREQUENCY must be a positive number, found '" + value + "'");
      rec.rate = number;
    } else if (key == "NO_OF_FRAMES") {
      if (!parse_number(value, number) || !is_count(number, kMaxDeclaredFrames))
        return R::failure(location(line.number, 2) + "NO_OF_FRAMES must be a whole number, found '" + value + "'");
      declared_frames = static_cast<long>(number);
    } else if (key == "NO_OF_MARKERS") {
      if (!parse_number(value, number) || !is_count(number, kMaxDeclaredMarkers))
        return R::failure(location(line.number, 2) + "NO_OF_MARKERS must be a whole number, found '" + value + "'");
      declared_markers = static_cast<int>(number);
    } else if (key == "MARKER_NAMES") {
      names_line = line.number;
      for (std::size_t c = 1; c < line.cells.size(); ++c)
        if (!line.cells[c].empty()) rec.names.push_back(line.cells[c]);
    }
  }
  if (!(rec.rate > 0)) return R::failure("the header has no FREQUENCY line");
  if (rec.names.empty()) return R::failure("the header has no MARKER_NAMES line (or it names no marker)");
  if (declared_markers >= 0 && declared_markers != static_cast<int>(rec.names.size()))
    return R::failure(location(names_line, 2) + "MARKER_NAMES lists " + std::to_string(rec.names.size()) +
                      " markers but NO_OF_MARKERS says " + std::to_string(declared_markers));
  rec.kinds.assign(rec.names.size(), PointKind::marker);
  const std::size_t markers = rec.names.size();

  // optional column header: Frame, Time, then X/Y/Z per marker
  std::size_t offset = std::string::npos;
  if (i < lines.size() && lower_case(lines[i].cells[0]) == "frame") {
    offset = lines[i].cells.size() >= 2 && lower_case(lines[i].cells[1]) == "time" ? 2 : 1;
    if (lines[i].cells.size() < offset + 3 * markers)
      return R::failure(location(lines[i].number, static_cast<int>(lines[i].cells.size())) +
                        "the column header has fewer columns than 3 per marker");
    ++i;
  }
  std::vector<std::size_t> rows;
  for (; i < lines.size(); ++i)
    if (!lines[i].blank()) rows.push_back(i);
  if (rows.empty()) return R::failure("header-only export: no data rows after the header");
  if (offset == std::string::npos) {
    // no column header: 3 values per marker, possibly preceded by frame and time
    const std::size_t cells = lines[rows[0]].cells.size();
    offset = cells >= 3 * markers + 2 ? 2 : 0;
  }
  const std::size_t columns = offset + 3 * markers;
  const double scale = metres_per_unit(rec.units);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  rec.positions.setConstant(static_cast<Eigen::Index>(rows.size()), 3 * static_cast<Eigen::Index>(markers), nan);
  std::vector<std::size_t> first_column;
  for (std::size_t p = 0; p < markers; ++p) first_column.push_back(offset + 3 * p);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const TextLine& line = lines[rows[k]];
    std::size_t cells = line.cells.size();
    while (cells > columns && line.cells[cells - 1].empty()) --cells;  // trailing tab
    std::string error = check_cell_count(line, cells, columns);
    if (error.empty()) {
      if (offset >= 1) {
        error = append_frame(line, rec);
      } else {  // no frame column: rows count from 1
        rec.frame_numbers.push_back(static_cast<long>(k) + 1);
        rec.times.push_back(static_cast<double>(k) / rec.rate);
      }
    }
    if (error.empty()) error = read_marker_triples(line, static_cast<Eigen::Index>(k), first_column, scale, true, rec);
    if (!error.empty()) return R::failure(error);
  }
  if (declared_frames >= 0 && declared_frames != static_cast<long>(rows.size()))
    rec.warnings.push_back("NO_OF_FRAMES says " + std::to_string(declared_frames) + ", the file has " +
                           std::to_string(rows.size()) + " data rows");
  return R::success(std::move(rec));
}

}  // namespace tela
