#include "mocap/motive_csv.h"

#include "mocap/delimited_text.h"
#include "mocap/length_units.h"
#include "mocap/marker_table.h"

#include <cmath>
#include <limits>
#include <map>

namespace tela {
namespace {

using R = Result<Recording>;

PointKind kind_of(const std::string& type) {
  const std::string t = lower_case(type);
  if (t == "rigid body") return PointKind::rigid_body;
  if (t == "rigid body marker") return PointKind::rigid_body_marker;
  if (t == "bone") return PointKind::bone;
  if (t == "bone marker") return PointKind::bone_marker;
  return PointKind::marker;
}

const std::string& cell_or_empty(const std::vector<std::string>& cells, std::size_t i) {
  static const std::string empty;
  return i < cells.size() ? cells[i] : empty;
}

}  // namespace

Result<Recording> parse_motive_csv(std::string_view bytes) {
  const std::vector<TextLine> lines = split_delimited(bytes, ',');
  std::size_t i = 0;
  while (i < lines.size() && lines[i].blank()) ++i;
  if (i == lines.size()) return R::failure("the file is empty");

  Recording rec;
  rec.format = "motive-csv";
  rec.up_axis = 'y';  // Motive's default coordinate system is y-up

  // line 1: key,value pairs
  const TextLine& meta = lines[i];
  if (lower_case(meta.cells[0]) != "format version")
    return R::failure(location(meta.number, 1) + "a Motive export starts with 'Format Version', found '" +
                      meta.cells[0] + "'");
  std::map<std::string, std::pair<std::string, int>> keys;  // lower-case key -> (value, column)
  for (std::size_t c = 0; c + 1 < meta.cells.size(); c += 2)
    keys[lower_case(meta.cells[c])] = {meta.cells[c + 1], static_cast<int>(c + 2)};
  rec.format_version = keys["format version"].first;
  for (const char* key : {"export frame rate", "capture frame rate"}) {
    const auto it = keys.find(key);
    if (it == keys.end() || it->second.first.empty()) continue;
    double rate = 0;
    if (!parse_number(it->second.first, rate) || !(rate > 0))
      return R::failure(location(meta.number, it->second.second) + "'" + key + "' must be a positive number, found '" +
                        it->second.first + "'");
    rec.rate = rate;
    break;
  }
  if (!(rec.rate > 0))
    return R::failure(location(meta.number, 1) + "the header has no 'Export Frame Rate' or 'Capture Frame Rate'");
  {
    const auto it = keys.find("length units");
    if (it == keys.end()) {
      rec.units = "m";
      rec.units_declared = false;
      rec.warnings.push_back("no 'Length Units' in the header; metres assumed");
    } else {
      rec.units = canonical_length_unit(it->second.first);
      if (rec.units.empty())
        return R::failure(location(meta.number, it->second.second) + "unknown 'Length Units' '" +
                          it->second.first + "' (expected Millimeters, Centimeters or Meters)");
    }
  }
  const double scale = metres_per_unit(rec.units);

  // header rows (first cell empty) up to the `Frame,Time,...` row
  std::vector<std::string> type_row, name_row, component_row;
  std::size_t frame_row = lines.size();
  for (++i; i < lines.size(); ++i) {
    const TextLine& line = lines[i];
    if (line.blank()) continue;
    const std::string first = lower_case(line.cells[0]);
    if (first == "frame") {
      frame_row = i;
      break;
    }
    if (!first.empty())
      return R::failure(location(line.number, 1) + "expected a header row (Type, Name, ID, Parent, components) or "
                        "the 'Frame' row, found '" + line.cells[0] + "'");
    const std::string label = lower_case(cell_or_empty(line.cells, 1));
    if (label == "type") type_row = line.cells;
    else if (label == "name") name_row = line.cells;
    else if (label.empty()) component_row = line.cells;
    // ID and Parent rows carry nothing we use
  }
  if (frame_row == lines.size())
    return R::failure(location(lines.back().number, 1) + "the file ends before the 'Frame,Time' header row "
                      "(truncated export?)");
  const TextLine& header = lines[frame_row];
  const std::size_t columns = header.cells.size();
  if (columns <= 2 || (columns == 3 && header.cells[2].empty()))
    return R::failure(location(header.number, 3) + "header-only export: no data columns after Frame and Time");
  if (name_row.empty())
    return R::failure(location(header.number, 1) + "no 'Name' header row above the 'Frame' row");

  // position triples: component Position, axes X, Y, Z in consecutive columns (of each X)
  std::vector<std::size_t> first_column;
  for (std::size_t c = 2; c < columns; ++c) {
    const std::string component = lower_case(cell_or_empty(component_row, c));
    if (!component_row.empty() && component != "position") continue;
    if (lower_case(header.cells[c]) != "x") continue;
    if (c + 2 >= columns || lower_case(header.cells[c + 1]) != "y" || lower_case(header.cells[c + 2]) != "z")
      return R::failure(location(header.number, static_cast<int>(c + 1)) + "position column X of '" +
                        cell_or_empty(name_row, c) + "' is not followed by Y and Z");
    const std::string& name = cell_or_empty(name_row, c);
    if (name.empty())
      return R::failure(location(header.number, static_cast<int>(c + 1)) + "position columns without a name");
    first_column.push_back(c);
    rec.names.push_back(name);
    rec.kinds.push_back(kind_of(cell_or_empty(type_row, c)));
    c += 2;
  }
  if (first_column.empty())
    return R::failure(location(header.number, 3) + "no position (X, Y, Z) columns in the export");

  // data rows
  std::vector<std::size_t> rows;
  for (std::size_t r = frame_row + 1; r < lines.size(); ++r)
    if (!lines[r].blank()) rows.push_back(r);
  if (rows.empty())
    return R::failure(location(header.number, 1) + "header-only export: no data rows after the 'Frame' row");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  rec.positions.setConstant(static_cast<Eigen::Index>(rows.size()), 3 * static_cast<Eigen::Index>(first_column.size()),
                            nan);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const TextLine& line = lines[rows[k]];
    std::string error = check_cell_count(line, line.cells.size(), columns);
    if (error.empty()) error = append_frame(line, rec);
    if (error.empty())
      error = read_marker_triples(line, static_cast<Eigen::Index>(k), first_column, scale, false, rec);
    if (!error.empty()) return R::failure(error);
  }
  const auto total = keys.find("total exported frames");
  double declared = 0;
  if (total != keys.end() && parse_number(total->second.first, declared) &&
      declared != static_cast<double>(rows.size()))
    rec.warnings.push_back("the header announces " + total->second.first + " exported frames, the file has " +
                           std::to_string(rows.size()));
  return R::success(std::move(rec));
}

}  // namespace tela
