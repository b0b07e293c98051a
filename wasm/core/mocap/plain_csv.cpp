#include "mocap/plain_csv.h"

#include "base/integer_cast.h"
#include "mocap/delimited_text.h"
#include "mocap/length_units.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

namespace tela {
namespace {

using R = Result<Recording>;

// a coordinate's size for the units warning: "1234" below a million, else "1.2e+117" (the
// value may be any finite double; an integer cast beyond long is undefined behaviour)
std::string format_magnitude(double value) {
  char buffer[32];
  if (value < 1e6) std::snprintf(buffer, sizeof(buffer), "%.0f", std::floor(value));
  else std::snprintf(buffer, sizeof(buffer), "%.2g", value);
  return buffer;
}

struct Column {
  std::string name;  // lower case, unit suffix removed
  std::string unit;  // canonical unit of the suffix, "" when none
  std::string raw_unit;
};

Column split_unit(const std::string& cell) {
  Column column;
  std::string text = cell;
  const std::size_t open = text.find_first_of("([");
  if (open != std::string::npos) {
    const std::size_t close = text.find_first_of(")]", open);
    column.raw_unit = text.substr(open + 1, (close == std::string::npos ? text.size() : close) - open - 1);
    column.unit = canonical_length_unit(column.raw_unit);
    text = text.substr(0, open);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '_')) text.pop_back();
  column.name = lower_case(text);
  return column;
}

// the axis of a wide-form column name "<marker>_x" (or ".x", " x"): 0, 1, 2, or -1
int axis_suffix(const std::string& name, std::string& marker) {
  if (name.size() < 3) return -1;
  const char sep = name[name.size() - 2];
  const char axis = name.back();
  if ((sep != '_' && sep != '.' && sep != ' ') || (axis != 'x' && axis != 'y' && axis != 'z')) return -1;
  marker = name.substr(0, name.size() - 2);
  return axis - 'x';
}

double median_step(const std::vector<double>& times) {
  std::vector<double> steps;
  for (std::size_t k = 1; k < times.size(); ++k) steps.push_back(times[k] - times[k - 1]);
  if (steps.empty()) return 0;
  std::sort(steps.begin(), steps.end());
  return steps[steps.size() / 2];
}

}  // namespace

Result<Recording> parse_plain_csv(std::string_view bytes) {
  const std::vector<TextLine> lines = split_delimited(bytes, ',');
  std::size_t i = 0;
  std::string declared_unit;
  for (; i < lines.size(); ++i) {
    if (lines[i].blank()) continue;
    const std::string& first = lines[i].cells[0];
    if (first.empty() || first[0] != '#') break;
    const std::string comment = lower_case(first);
    const std::size_t at = comment.find("units:");
    if (at != std::string::npos) {
      std::string unit = comment.substr(at + 6);
      unit.erase(0, unit.find_first_not_of(' '));
      declared_unit = canonical_length_unit(unit);
      if (declared_unit.empty())
        return R::failure(location(lines[i].number, 1) + "unknown length unit '" + unit + "' (use m, cm or mm)");
    }
  }
  if (i == lines.size()) return R::failure("the file is empty");
  const TextLine& header_line = lines[i];
  std::vector<Column> header;
  for (const std::string& cell : header_line.cells) header.push_back(split_unit(cell));

  Recording rec;
  int frame_col = -1, time_col = -1, marker_col = -1, axis_col[3] = {-1, -1, -1};
  std::vector<std::array<int, 3>> wide;  // per marker, its x, y, z columns
  std::map<std::string, int> wide_index;
  int unit_col = -1;
  for (std::size_t c = 0; c < header.size(); ++c) {
    const std::string& name = header[c].name;
    const int column = static_cast<int>(c + 1);
    bool coordinate = false;
    if (name == "frame") frame_col = static_cast<int>(c);
    else if (name == "time" || name == "t" || name == "time_s" || name == "seconds") time_col = static_cast<int>(c);
    else if (name == "marker" || name == "name" || name == "point") marker_col = static_cast<int>(c);
    else if (name == "x" || name == "y" || name == "z") {
      axis_col[name[0] - 'x'] = static_cast<int>(c);
      coordinate = true;
    } else {
      coordinate = true;
      std::string marker;
      const int axis = axis_suffix(name, marker);
      if (axis < 0)
        return R::failure(location(header_line.number, column) + "unknown column '" +
                          (header_line.cells[c].size() > 40 ? header_line.cells[c].substr(0, 40) + "..." : header_line.cells[c]) +
                          "' (expected frame, time, marker, x, y, z or <marker>_x, <marker>_y, <marker>_z)");
      auto it = wide_index.find(marker);
      if (it == wide_index.end()) {
        it = wide_index.emplace(marker, static_cast<int>(wide.size())).first;
        wide.push_back({-1, -1, -1});
        rec.names.push_back(header_line.cells[c].substr(0, marker.size()));
      }
      if (wide[it->second][axis] >= 0)
        return R::failure(location(header_line.number, column) + "column '" + header_line.cells[c] + "' appears twice");
      wide[it->second][axis] = static_cast<int>(c);
    }
    if (!header[c].raw_unit.empty() && coordinate) {
      if (header[c].unit.empty())
        return R::failure(location(header_line.number, column) + "unknown length unit '" + header[c].raw_unit + "'");
      if (!declared_unit.empty() && unit_col < 0 && header[c].unit != declared_unit)
        return R::failure(location(header_line.number, column) + "mixed units: '" + header[c].raw_unit +
                          "' here but '" + declared_unit + "' declared in the comment");
      if (unit_col >= 0 && header[c].unit != declared_unit)
        return R::failure(location(header_line.number, column) + "mixed units: '" + header[c].raw_unit +
                          "' here but '" + declared_unit + "' in column " + std::to_string(unit_col + 1));
      declared_unit = header[c].unit;
      if (unit_col < 0) unit_col = static_cast<int>(c);
    }
  }
  const bool long_form = marker_col >= 0;
  if (long_form && (axis_col[0] < 0 || axis_col[1] < 0 || axis_col[2] < 0))
    return R::failure(location(header_line.number, 1) + "long form needs columns x, y and z");
  if (!long_form && wide.empty())
    return R::failure(location(header_line.number, 1) + "header-only or unknown layout: no marker or <marker>_x columns");
  for (std::size_t m = 0; m < wide.size(); ++m)
    for (int a = 0; a < 3; ++a)
      if (wide[m][a] < 0)
        return R::failure(location(header_line.number, 1) + "marker '" + rec.names[m] + "' has no _" + "xyz"[a] + " column");
  if (time_col < 0) return R::failure(location(header_line.number, 1) + "no time column (name it 'time', in seconds)");
  rec.format = long_form ? "csv-long" : "csv-wide";

  // rows
  std::vector<std::size_t> rows;
  for (std::size_t r = i + 1; r < lines.size(); ++r)
    if (!lines[r].blank()) rows.push_back(r);
  if (rows.empty()) return R::failure(location(header_line.number, 1) + "header-only export: no data rows");
  const std::size_t columns = header.size();
  auto number = [&](const TextLine& line, int c, double& value, bool& empty) -> std::string {
    const std::string& cell = line.cells[c];
    empty = cell.empty();
    if (empty) return {};
    if (!parse_number(cell, value))
      return location(line.number, c + 1) + "(" + header_line.cells[c] + "): '" + cell + "' is not a number";
    return {};
  };

  // frames: keyed by frame number when there is one, else by time
  std::map<double, std::size_t> frame_of;   // key -> frame slot (in order of key)
  std::vector<double> row_key(rows.size()), row_time(rows.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const TextLine& line = lines[rows[k]];
    if (line.cells.size() != columns)
      return R::failure(location(line.number, static_cast<int>(std::min(line.cells.size(), columns))) + "the row has " +
                        std::to_string(line.cells.size()) + " cells but the header has " + std::to_string(columns) +
                        (line.cells.size() < columns ? " (truncated file?)" : ""));
    bool empty = false;
    std::string error = number(line, time_col, row_time[k], empty);
    if (!error.empty()) return R::failure(error);
    if (empty) return R::failure(location(line.number, time_col + 1) + "the time cell is empty");
    row_key[k] = row_time[k];
    if (frame_col >= 0) {
      error = number(line, frame_col, row_key[k], empty);
      if (!error.empty()) return R::failure(error);
      if (empty || !is_whole_number(row_key[k]))
        return R::failure(location(line.number, frame_col + 1) + "frame number '" + line.cells[frame_col] +
                          "' is not a whole number (of at most 2^53)");
    }
    frame_of.emplace(row_key[k], 0);
  }
  std::size_t slot = 0;
  for (auto& entry : frame_of) entry.second = slot++;
  const std::size_t frames = frame_of.size();

  if (long_form) {
    std::map<std::string, int> marker_index;
    for (std::size_t k = 0; k < rows.size(); ++k) {
      const std::string& name = lines[rows[k]].cells[marker_col];
      if (name.empty()) return R::failure(location(lines[rows[k]].number, marker_col + 1) + "the marker name is empty");
      if (marker_index.emplace(name, static_cast<int>(rec.names.size())).second) rec.names.push_back(name);
    }
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  rec.positions.setConstant(static_cast<Eigen::Index>(frames), 3 * static_cast<Eigen::Index>(rec.names.size()), nan);
  std::vector<double> frame_time(frames, nan);
  double largest = 0;
  std::map<std::string, int> name_index;
  for (std::size_t p = 0; p < rec.names.size(); ++p) name_index[rec.names[p]] = static_cast<int>(p);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const TextLine& line = lines[rows[k]];
    const std::size_t f = frame_of[row_key[k]];
    if (std::isnan(frame_time[f])) frame_time[f] = row_time[k];
    else if (frame_time[f] != row_time[k])
      return R::failure(location(line.number, time_col + 1) + "time " + line.cells[time_col] +
                        " differs from an earlier row of the same frame");
    auto read_point = [&](int p, const int cols[3]) -> std::string {
      double xyz[3];
      int present = 0;
      for (int a = 0; a < 3; ++a) {
        bool empty = false;
        const std::string error = number(line, cols[a], xyz[a], empty);
        if (!error.empty()) return error;
        if (!empty) ++present;
      }
      if (present == 3)
        for (int a = 0; a < 3; ++a) {
          rec.positions(static_cast<Eigen::Index>(f), 3 * p + a) = xyz[a];
          largest = std::max(largest, std::abs(xyz[a]));
        }
      return {};
    };
    std::string error;
    if (long_form) {
      error = read_point(name_index[line.cells[marker_col]], axis_col);
    } else {
      for (std::size_t m = 0; m < wide.size() && error.empty(); ++m) error = read_point(static_cast<int>(m), wide[m].data());
    }
    if (!error.empty()) return R::failure(error);
  }
  for (std::size_t f = 1; f < frames; ++f)
    if (!(frame_time[f] > frame_time[f - 1]))
      return R::failure("times must increase with the frames (frame " + std::to_string(f) + " is at " +
                        std::to_string(frame_time[f]) + " s)");
  const double t0 = frame_time[0];
  for (const auto& entry : frame_of) {
    rec.frame_numbers.push_back(frame_col >= 0 ? static_cast<long>(entry.first) : static_cast<long>(entry.second));
    rec.times.push_back(frame_time[entry.second] - t0);
  }
  const double step = median_step(rec.times);
  rec.rate = step > 0 ? 1.0 / step : 0.0;
  if (!(rec.rate > 0) && frames > 1) return R::failure("cannot derive a frame rate from the time column");
  rec.kinds.assign(rec.names.size(), PointKind::marker);
  if (declared_unit.empty()) {
    rec.units = largest > 20 ? "mm" : "m";
    rec.units_declared = false;
    rec.warnings.push_back(std::string("no units declared; ") +
                           (largest > 20 ? "values up to " + format_magnitude(largest) +
                                               " read as millimetres"
                                         : "values read as metres"));
  } else {
    rec.units = declared_unit;
  }
  rec.positions *= metres_per_unit(rec.units);
  return R::success(std::move(rec));
}

}  // namespace tela
