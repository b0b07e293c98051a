#include "mocap/vicon_csv.h"

#include "mocap/delimited_text.h"
#include "mocap/length_units.h"
#include "mocap/marker_table.h"

#include <cmath>
#include <limits>

namespace tela {

Result<Recording> parse_vicon_csv(std::string_view bytes) {
  using R = Result<Recording>;
  const std::vector<TextLine> lines = split_delimited(bytes, ',');
  std::size_t i = 0;
  while (i < lines.size() && lines[i].blank()) ++i;
  if (i == lines.size()) return R::failure("the file is empty");
  while (i < lines.size() && lower_case(lines[i].cells[0]) != "trajectories") ++i;
  if (i == lines.size()) return R::failure("no 'Trajectories' section in this Vicon export");

  Recording rec;
  rec.format = "vicon-csv";
  rec.up_axis = 'z';
  const int section_line = lines[i].number;
  auto next_line = [&]() -> const TextLine* {
    ++i;
    return i < lines.size() ? &lines[i] : nullptr;
  };
  const TextLine* rate_line = next_line();
  if (!rate_line)
    return R::failure(location(section_line, 1) + "the file ends after the section name (truncated export?)");
  if (!parse_number(rate_line->cells[0], rec.rate) || !(rec.rate > 0))
    return R::failure(location(rate_line->number, 1) + "expected the frame rate of the Trajectories section, found '" +
                      rate_line->cells[0] + "'");
  const TextLine* names = next_line();
  const TextLine* header = names ? next_line() : nullptr;
  const TextLine* units = header ? next_line() : nullptr;
  if (!units)
    return R::failure(location(lines.back().number, 1) + "the file ends inside the Trajectories header (truncated export?)");
  if (lower_case(header->cells[0]) != "frame")
    return R::failure(location(header->number, 1) + "expected the 'Frame,Sub Frame,X,Y,Z' row, found '" +
                      header->cells[0] + "'");
  const std::size_t columns = header->cells.size();
  if (columns < 5)
    return R::failure(location(header->number, 3) + "header-only export: no marker columns after Frame and Sub Frame");

  std::vector<std::size_t> first_column;
  for (std::size_t c = 2; c + 2 < columns; c += 3) {
    const std::string name = c < names->cells.size() ? names->cells[c] : std::string();
    if (name.empty()) return R::failure(location(names->number, static_cast<int>(c + 1)) + "a marker name is missing");
    for (int a = 0; a < 3; ++a)
      if (lower_case(header->cells[c + a]) != std::string(1, "xyz"[a]))
        return R::failure(location(header->number, static_cast<int>(c + a + 1)) + "expected " + "XYZ"[a] +
                          " for marker '" + name + "', found '" + header->cells[c + a] + "'");
    rec.names.push_back(name);
    rec.kinds.push_back(PointKind::marker);
    first_column.push_back(c);
  }
  // one unit for every column; mixed units are refused
  int unit_column = 0;
  for (std::size_t c = 2; c < columns && c < units->cells.size(); ++c) {
    if (units->cells[c].empty()) continue;
    const std::string unit = canonical_length_unit(units->cells[c]);
    if (unit.empty())
      return R::failure(location(units->number, static_cast<int>(c + 1)) + "unknown length unit '" + units->cells[c] + "'");
    if (rec.units.empty()) {
      rec.units = unit;
      unit_column = static_cast<int>(c + 1);
    } else if (unit != rec.units) {
      return R::failure(location(units->number, static_cast<int>(c + 1)) + "mixed units: '" + units->cells[c] +
                        "' here but '" + rec.units + "' in column " + std::to_string(unit_column));
    }
  }
  if (rec.units.empty()) {
    rec.units = "mm";
    rec.units_declared = false;
    rec.warnings.push_back("no units row; millimetres assumed (Vicon's default)");
  }
  const double scale = metres_per_unit(rec.units);

  std::vector<std::size_t> rows;
  for (++i; i < lines.size() && !lines[i].blank(); ++i) rows.push_back(i);
  if (rows.empty())
    return R::failure(location(units->number, 1) + "header-only export: no data rows in the Trajectories section");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  rec.positions.setConstant(static_cast<Eigen::Index>(rows.size()), 3 * static_cast<Eigen::Index>(rec.names.size()), nan);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const TextLine& line = lines[rows[k]];
    std::string error = check_cell_count(line, line.cells.size(), columns);
    if (error.empty()) error = append_frame(line, rec);
    if (error.empty())
      error = read_marker_triples(line, static_cast<Eigen::Index>(k), first_column, scale, false, rec);
    if (!error.empty()) return R::failure(error);
  }
  return R::success(std::move(rec));
}

}  // namespace tela
