#include "pointcloud/text_cloud.h"

#include "pointcloud/text_scan.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace tela {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // quotes around CSV header names are not part of the name
  out.erase(std::remove(out.begin(), out.end(), '"'), out.end());
  return out;
}

bool is_comment(std::string_view text) {
  return text[0] == '#' || text[0] == '%' || text[0] == '!' || (text.size() > 1 && text[0] == '/' && text[1] == '/');
}

// colour channels from the columns' values: integers 0-255 as they are, or all values in
// [0, 1] scaled; anything else is not a colour (returns false)
bool colors_from_columns(const std::vector<std::array<double, 3>>& values, std::vector<std::array<std::uint8_t, 3>>& colors) {
  bool bytes = true, unit = true;
  for (const auto& v : values)
    for (double c : v) {
      if (!(c >= 0 && c <= 255 && c == std::floor(c))) bytes = false;
      if (!(c >= 0 && c <= 1)) unit = false;
    }
  if (!bytes && !unit) return false;
  // all-integer values in [0, 1] are ambiguous: read them as 0-255 bytes only if some exceed 1
  bool any_above_one = false;
  for (const auto& v : values)
    for (double c : v) any_above_one = any_above_one || c > 1;
  const bool scale = unit && !(bytes && any_above_one);
  colors.resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    for (int c = 0; c < 3; ++c) {
      const double v = scale ? values[i][c] * 255.0 : values[i][c];
      colors[i][c] = static_cast<std::uint8_t>(std::floor(std::min(255.0, std::max(0.0, v)) + 0.5));
    }
  return true;
}

Result<PointCloud> finish(std::vector<std::array<double, 3>>& xyz, std::vector<std::array<double, 3>>* color_values,
                          const char* format) {
  PointCloud cloud;
  cloud.format = format;
  std::vector<int> kept;
  for (std::size_t i = 0; i < xyz.size(); ++i)
    if (std::isfinite(xyz[i][0]) && std::isfinite(xyz[i][1]) && std::isfinite(xyz[i][2])) kept.push_back(static_cast<int>(i));
  cloud.points.resize(static_cast<Eigen::Index>(kept.size()), 3);
  for (std::size_t k = 0; k < kept.size(); ++k)
    for (int d = 0; d < 3; ++d) cloud.points(k, d) = xyz[kept[k]][d];
  cloud.dropped_non_finite = static_cast<std::int64_t>(xyz.size() - kept.size());
  if (color_values && !color_values->empty()) {
    std::vector<std::array<std::uint8_t, 3>> all;
    if (colors_from_columns(*color_values, all)) {
      cloud.colors.resize(kept.size());
      for (std::size_t k = 0; k < kept.size(); ++k) cloud.colors[k] = all[kept[k]];
    }
  }
  return Result<PointCloud>::success(std::move(cloud));
}

}  // namespace

Result<PointCloud> parse_xyz(std::string_view bytes, const CloudLimits& limits) {
  using R = Result<PointCloud>;
  if (static_cast<std::int64_t>(bytes.size()) > limits.max_bytes)
    return R::failure("XYZ: the file has " + std::to_string(bytes.size()) + " bytes, more than the limit of " +
                      std::to_string(limits.max_bytes));
  LineScanner lines(bytes);
  TextLine line;
  std::vector<std::string_view> tokens;
  int column_x = 0, column_y = 1, column_z = 2;
  int column_r = -1, column_g = -1, column_b = -1;
  bool named_colors = false;
  bool data_started = false;
  std::size_t columns = 0;
  std::vector<std::array<double, 3>> xyz, color_values;
  std::vector<double> row;
  std::vector<bool> parsed;
  while (lines.next(line)) {
    const std::string_view text = trim(line.text);
    if (text.empty() || is_comment(text)) continue;
    split_tokens(text, tokens, true);
    if (tokens.size() > 3 && tokens.back().empty()) tokens.pop_back();  // a trailing delimiter
    row.assign(tokens.size(), 0.0);
    parsed.assign(tokens.size(), false);
    for (std::size_t t = 0; t < tokens.size(); ++t) parsed[t] = parse_double_token(tokens[t], row[t]);
    auto numeric = [&](int column) { return column >= 0 && column < static_cast<int>(tokens.size()) && parsed[column]; };
    if (!data_started) {
      // the first row whose x, y and z columns are numbers starts the data; lines before it
      // are headers, and a header may name the columns
      if (!(numeric(column_x) && numeric(column_y) && numeric(column_z))) {
        int x = -1, y = -1, z = -1, r = -1, g = -1, b = -1;
        for (std::size_t t = 0; t < tokens.size(); ++t) {
          const std::string name = lower(tokens[t]);
          const int ti = static_cast<int>(t);
          if (name == "x" || name == "//x") x = ti;
          else if (name == "y") y = ti;
          else if (name == "z") z = ti;
          else if (name == "r" || name == "red") r = ti;
          else if (name == "g" || name == "green") g = ti;
          else if (name == "b" || name == "blue") b = ti;
        }
        if (x >= 0 && y >= 0 && z >= 0) {
          column_x = x;
          column_y = y;
          column_z = z;
        }
        if (r >= 0 && g >= 0 && b >= 0) {
          column_r = r;
          column_g = g;
          column_b = b;
          named_colors = true;
        }
        continue;
      }
      data_started = true;
      columns = tokens.size();
      if (!named_colors && columns >= 6) {
        column_r = 3;
        column_g = 4;
        column_b = 5;
      }
      const int needed = std::max({column_x, column_y, column_z, column_r, column_g, column_b}) + 1;
      if (static_cast<int>(columns) < needed)
        return R::failure("XYZ line " + std::to_string(line.number) + ": the header names column " +
                          std::to_string(needed) + ", but the first data row has only " + std::to_string(columns) +
                          " columns");
    }
    if (tokens.size() != columns)
      return R::failure("XYZ line " + std::to_string(line.number) + ": expected " + std::to_string(columns) +
                        " columns like the first data row, found " + std::to_string(tokens.size()));
    for (int column : {column_x, column_y, column_z, named_colors ? column_r : -1, named_colors ? column_g : -1,
                       named_colors ? column_b : -1})
      if (column >= 0 && !parsed[column])
        return R::failure("XYZ line " + std::to_string(line.number) + ", column " + std::to_string(column + 1) +
                          ": expected a number, found " + quote_token(tokens[column]));
    // guessed colour columns (4 to 6) that turn out not to be numbers are not colours
    if (!named_colors && column_r >= 0 && !(parsed[column_r] && parsed[column_g] && parsed[column_b])) {
      column_r = column_g = column_b = -1;
      color_values.clear();
    }
    if (static_cast<std::int64_t>(xyz.size()) >= limits.point_cap())
      return R::failure("XYZ line " + std::to_string(line.number) + ": more than the limit of " +
                        std::to_string(limits.point_cap()) + " points");
    xyz.push_back({row[column_x], row[column_y], row[column_z]});
    if (column_r >= 0) color_values.push_back({row[column_r], row[column_g], row[column_b]});
  }
  if (!data_started) return R::failure("XYZ: no data rows (expected lines of 3 or more numbers)");
  return finish(xyz, &color_values, "xyz");
}

Result<PointCloud> parse_obj_vertices(std::string_view bytes, const CloudLimits& limits) {
  using R = Result<PointCloud>;
  if (static_cast<std::int64_t>(bytes.size()) > limits.max_bytes)
    return R::failure("OBJ: the file has " + std::to_string(bytes.size()) + " bytes, more than the limit of " +
                      std::to_string(limits.max_bytes));
  LineScanner lines(bytes);
  TextLine line;
  std::vector<std::string_view> tokens;
  std::vector<std::array<double, 3>> xyz, color_values;
  bool colors_everywhere = true;
  while (lines.next(line)) {
    const std::string_view text = trim(line.text);
    if (text.size() < 2 || text[0] != 'v' || (text[1] != ' ' && text[1] != '\t')) continue;
    split_tokens(text, tokens, false);
    // v x y z [w] or v x y z r g b
    if (tokens.size() != 4 && tokens.size() != 5 && tokens.size() != 7)
      return R::failure("OBJ line " + std::to_string(line.number) + ": expected 'v x y z' (optionally w or r g b), found " +
                        std::to_string(tokens.size() - 1) + " values");
    double values[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t t = 1; t < tokens.size(); ++t)
      if (!parse_double_token(tokens[t], values[t - 1]))
        return R::failure("OBJ line " + std::to_string(line.number) + ", value " + std::to_string(t) +
                          ": expected a number, found " + quote_token(tokens[t]));
    if (static_cast<std::int64_t>(xyz.size()) >= limits.point_cap())
      return R::failure("OBJ line " + std::to_string(line.number) + ": more than the limit of " +
                        std::to_string(limits.point_cap()) + " points");
    xyz.push_back({values[0], values[1], values[2]});
    if (tokens.size() == 7) color_values.push_back({values[3], values[4], values[5]});
    else colors_everywhere = false;
  }
  if (xyz.empty()) return R::failure("OBJ: no vertex ('v x y z') lines");
  if (!colors_everywhere) color_values.clear();
  return finish(xyz, &color_values, "obj");
}

}  // namespace tela
