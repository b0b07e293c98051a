// PCD reader and writer (pointclouds.org/documentation/tutorials/pcd_file_format.html and
// PCL's pcd_io.cpp). Header: VERSION, FIELDS, SIZE, TYPE, COUNT, WIDTH, HEIGHT, VIEWPOINT,
// POINTS, DATA, one per line, '#' comments. Data: ascii (one point per line), binary (points
// one after the other, fields interleaved, little-endian), binary_compressed (uint32
// compressed size, uint32 uncompressed size, then LZF data that decompresses to the fields one
// after the other: all x, then all y, ...).
#include "pointcloud/pcd.h"

#include "pointcloud/lzf.h"
#include "pointcloud/scalar_type.h"
#include "pointcloud/text_scan.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace tela {

namespace {

struct PcdField {
  std::string name;
  int size = 4;
  char type = 'F';
  int count = 1;
  ScalarType scalar = ScalarType::float32;
  std::size_t offset = 0;  // byte offset within a point (binary) / token offset (ascii)
};

bool scalar_from_pcd(char type, int size, ScalarType& scalar) {
  if (type == 'F' && size == 4) scalar = ScalarType::float32;
  else if (type == 'F' && size == 8) scalar = ScalarType::float64;
  else if (type == 'U' && size == 1) scalar = ScalarType::uint8;
  else if (type == 'U' && size == 2) scalar = ScalarType::uint16;
  else if (type == 'U' && size == 4) scalar = ScalarType::uint32;
  else if (type == 'U' && size == 8) scalar = ScalarType::uint64;
  else if (type == 'I' && size == 1) scalar = ScalarType::int8;
  else if (type == 'I' && size == 2) scalar = ScalarType::int16;
  else if (type == 'I' && size == 4) scalar = ScalarType::int32;
  else if (type == 'I' && size == 8) scalar = ScalarType::int64;
  else return false;
  return true;
}

std::string at_line(int line) { return "PCD header line " + std::to_string(line) + ": "; }

std::array<std::uint8_t, 3> unpack_rgb(std::uint32_t packed) {
  return {static_cast<std::uint8_t>((packed >> 16) & 0xff), static_cast<std::uint8_t>((packed >> 8) & 0xff),
          static_cast<std::uint8_t>(packed & 0xff)};
}

// where the fields the cloud needs are: index into the field list or -1
struct FieldMap {
  int x = -1, y = -1, z = -1, color = -1, nx = -1, ny = -1, nz = -1;
};

}  // namespace

Result<PointCloud> parse_pcd(std::string_view bytes, const CloudLimits& limits) {
  using R = Result<PointCloud>;
  if (static_cast<std::int64_t>(bytes.size()) > limits.max_bytes)
    return R::failure("PCD: the file has " + std::to_string(bytes.size()) + " bytes, more than the limit of " +
                      std::to_string(limits.max_bytes));
  LineScanner lines(bytes);
  TextLine line;
  std::vector<std::string_view> tokens;
  std::vector<PcdField> fields;
  bool have_size = false, have_type = false;  // COUNT may be missing: 1 per field
  long long width = -1, height = -1, points_declared = -1;
  std::string data;
  int fields_line = 0;
  while (lines.next(line)) {
    const std::string_view text = trim(line.text);
    if (text.empty() || text[0] == '#') continue;
    split_tokens(text, tokens, false);
    const std::string_view key = tokens[0];
    const std::size_t values = tokens.size() - 1;
    if (key == "VERSION") continue;
    if (key == "FIELDS" || key == "COLUMNS") {
      if (values == 0) return R::failure(at_line(line.number) + "FIELDS names no field");
      fields.assign(values, PcdField{});
      for (std::size_t f = 0; f < values; ++f) fields[f].name = std::string(tokens[f + 1]);
      fields_line = line.number;
    } else if (key == "SIZE" || key == "TYPE" || key == "COUNT") {
      if (fields.empty()) return R::failure(at_line(line.number) + std::string(key) + " before FIELDS");
      if (values != fields.size())
        return R::failure(at_line(line.number) + std::string(key) + " has " + std::to_string(values) +
                          " entries, expected one per field (" + std::to_string(fields.size()) + ")");
      for (std::size_t f = 0; f < values; ++f) {
        const std::string_view v = tokens[f + 1];
        long long number = 0;
        if (key == "TYPE") {
          if (v.size() != 1 || (v[0] != 'F' && v[0] != 'U' && v[0] != 'I'))
            return R::failure(at_line(line.number) + "TYPE entry " + std::to_string(f + 1) + " is " + quote_token(v) +
                              ", expected F, U or I");
          fields[f].type = v[0];
        } else if (!parse_integer_token(v, number) || number < 1 || number > (key == "SIZE" ? 8 : 1 << 20)) {
          return R::failure(at_line(line.number) + std::string(key) + " entry " + std::to_string(f + 1) + " is " +
                            quote_token(v) + ", expected " + (key == "SIZE" ? "1, 2, 4 or 8" : "a positive count"));
        } else if (key == "SIZE") {
          fields[f].size = static_cast<int>(number);
        } else {
          fields[f].count = static_cast<int>(number);
        }
      }
      if (key == "SIZE") have_size = true;
      if (key == "TYPE") have_type = true;
    } else if (key == "WIDTH" || key == "HEIGHT" || key == "POINTS") {
      long long number = 0;
      if (values != 1 || !parse_integer_token(tokens[1], number) || number < 0)
        return R::failure(at_line(line.number) + std::string(key) + " expects one integer >= 0");
      (key == "WIDTH" ? width : key == "HEIGHT" ? height : points_declared) = number;
    } else if (key == "VIEWPOINT") {
      continue;
    } else if (key == "DATA") {
      if (values != 1) return R::failure(at_line(line.number) + "DATA expects ascii, binary or binary_compressed");
      data = std::string(tokens[1]);
      if (data != "ascii" && data != "binary" && data != "binary_compressed")
        return R::failure(at_line(line.number) + "unknown DATA type " + quote_token(tokens[1]) +
                          " (expected ascii, binary or binary_compressed)");
      break;
    } else {
      return R::failure(at_line(line.number) + "unknown header entry " + quote_token(key));
    }
  }
  if (data.empty()) return R::failure("PCD header: the file ends before the DATA line");
  if (fields.empty()) return R::failure("PCD header: no FIELDS line");
  if (!have_size || !have_type)
    return R::failure("PCD header: " + std::string(!have_size ? "SIZE" : "TYPE") + " line missing");
  std::size_t point_size = 0;
  int value_count = 0;
  FieldMap map;
  for (std::size_t f = 0; f < fields.size(); ++f) {
    PcdField& field = fields[f];
    if (!scalar_from_pcd(field.type, field.size, field.scalar))
      return R::failure("PCD header: field '" + field.name + "' has TYPE " + std::string(1, field.type) + " with SIZE " +
                        std::to_string(field.size) + ", which is not a PCD scalar type");
    field.offset = point_size;
    point_size += static_cast<std::size_t>(field.size) * field.count;
    value_count += field.count;
    const int fi = static_cast<int>(f);
    if (field.name == "x") map.x = fi;
    else if (field.name == "y") map.y = fi;
    else if (field.name == "z") map.z = fi;
    else if (field.name == "normal_x") map.nx = fi;
    else if (field.name == "normal_y") map.ny = fi;
    else if (field.name == "normal_z") map.nz = fi;
    else if ((field.name == "rgb" || field.name == "rgba") && field.size == 4 && map.color < 0) map.color = fi;
  }
  if (map.x < 0 || map.y < 0 || map.z < 0)
    return R::failure(at_line(fields_line) + "FIELDS must include x, y and z");
  if (points_declared < 0 && width >= 0) points_declared = width * std::max(height, 1LL);
  if (points_declared < 0) return R::failure("PCD header: neither POINTS nor WIDTH is given");
  if (points_declared > limits.point_cap())
    return R::failure("PCD header: the file declares " + std::to_string(points_declared) +
                      " points, more than the limit of " + std::to_string(limits.point_cap()));
  if (width >= 0 && height >= 0 && width * height != points_declared)
    return R::failure("PCD header: WIDTH x HEIGHT = " + std::to_string(width) + " x " + std::to_string(height) +
                      " does not match POINTS " + std::to_string(points_declared));
  const bool organized = width > 1 && height > 1;
  const int n = static_cast<int>(points_declared);
  const bool with_normals = limits.normals && map.nx >= 0 && map.ny >= 0 && map.nz >= 0;

  // the data as one value getter per (point, field, element); binary data is checked for size
  // before anything is allocated
  std::size_t data_offset = lines.offset();
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  std::vector<std::uint8_t> decompressed;
  const unsigned char* soa = nullptr;  // binary_compressed: fields one after the other
  const unsigned char* aos = nullptr;  // binary: points one after the other
  std::vector<double> ascii_values;    // ascii: n * value_count numbers
  std::vector<std::uint32_t> ascii_packed;  // ascii: the color field's 32 bits per point
  const std::size_t data_bytes = bytes.size() - data_offset;
  if (data == "binary") {
    if (point_size != 0 && static_cast<std::uint64_t>(n) > data_bytes / point_size)
      return R::failure("PCD binary data, byte " + std::to_string(data_offset) + ": " + std::to_string(n) +
                        " points of " + std::to_string(point_size) + " bytes need " +
                        std::to_string(static_cast<std::uint64_t>(n) * point_size) + " bytes, but the file has " +
                        std::to_string(data_bytes) + " after the header");
    aos = raw + data_offset;
  } else if (data == "binary_compressed") {
    if (data_bytes < 8)
      return R::failure("PCD binary_compressed data, byte " + std::to_string(data_offset) +
                        ": expected the 8-byte size header, the file ends");
    const std::uint32_t compressed_size = static_cast<std::uint32_t>(read_raw_bits(raw + data_offset, 4, false));
    const std::uint32_t uncompressed_size = static_cast<std::uint32_t>(read_raw_bits(raw + data_offset + 4, 4, false));
    const std::uint64_t expected = static_cast<std::uint64_t>(n) * point_size;
    if (uncompressed_size != expected)
      return R::failure("PCD binary_compressed data, byte " + std::to_string(data_offset + 4) +
                        ": the uncompressed size is " + std::to_string(uncompressed_size) + " bytes, expected " +
                        std::to_string(expected) + " (" + std::to_string(n) + " points of " +
                        std::to_string(point_size) + " bytes)");
    if (compressed_size > data_bytes - 8)
      return R::failure("PCD binary_compressed data, byte " + std::to_string(data_offset) + ": the compressed size is " +
                        std::to_string(compressed_size) + " bytes, but only " + std::to_string(data_bytes - 8) +
                        " follow (truncated file?)");
    // an LZF chunk of 3 bytes expands to at most 264: refuse before allocating what a few
    // compressed bytes cannot hold
    if (uncompressed_size > static_cast<std::uint64_t>(compressed_size) * 88 + 32)
      return R::failure("PCD binary_compressed data, byte " + std::to_string(data_offset) + ": " +
                        std::to_string(compressed_size) + " compressed bytes cannot hold " +
                        std::to_string(uncompressed_size) + " bytes of points (truncated or corrupt file?)");
    decompressed.resize(uncompressed_size);
    const LzfResult lzf = lzf_decompress(bytes.substr(data_offset + 8, compressed_size), decompressed);
    if (lzf.status != LzfStatus::ok)
      return R::failure("PCD binary_compressed data, byte " + std::to_string(data_offset + 8 + lzf.input_offset) +
                        ": LZF error: " + lzf_status_message(lzf.status));
    soa = decompressed.data();
  } else {
    // ascii: one point per line, value_count numbers each
    if (n > 0 && static_cast<std::uint64_t>(n) > data_bytes / (2 * static_cast<std::uint64_t>(value_count)) + 1)
      return R::failure("PCD ascii data: the file declares " + std::to_string(n) + " points but has only " +
                        std::to_string(data_bytes) + " bytes of data");
    ascii_values.resize(static_cast<std::size_t>(n) * value_count);
    if (map.color >= 0) ascii_packed.resize(n);
    std::vector<ScalarType> value_type;
    for (const PcdField& field : fields) value_type.insert(value_type.end(), field.count, field.scalar);
    int color_token = 0;
    for (int f = 0; f < map.color; ++f) color_token += fields[f].count;
    int point = 0;
    while (point < n && lines.next(line)) {
      const std::string_view text = trim(line.text);
      if (text.empty()) continue;
      split_tokens(text, tokens, false);
      if (static_cast<int>(tokens.size()) != value_count)
        return R::failure("PCD line " + std::to_string(line.number) + " (point " + std::to_string(point) + "): expected " +
                          std::to_string(value_count) + " values, found " + std::to_string(tokens.size()));
      for (int v = 0; v < value_count; ++v) {
        double value = 0;
        if (!parse_double_token(tokens[v], value))
          return R::failure("PCD line " + std::to_string(line.number) + ", value " + std::to_string(v + 1) +
                            " (point " + std::to_string(point) + "): expected a number, found " + quote_token(tokens[v]));
        // stored as the field's type, as PCL reads it (F 4: rounded to float)
        if (value_type[v] == ScalarType::float32 && std::isfinite(value)) value = static_cast<float>(value);
        ascii_values[static_cast<std::size_t>(point) * value_count + v] = value;
      }
      if (map.color >= 0) {
        // a float-packed rgb is printed as the float whose bits are 0x00RRGGBB
        const double value = ascii_values[static_cast<std::size_t>(point) * value_count + color_token];
        std::uint32_t packed = 0;
        if (fields[map.color].type == 'F') {
          const float f = static_cast<float>(value);
          std::memcpy(&packed, &f, 4);
        } else if (value >= 0 && value <= 4294967295.0) {
          packed = static_cast<std::uint32_t>(value);
        }
        ascii_packed[point] = packed;
      }
      ++point;
    }
    if (point < n)
      return R::failure("PCD ascii data, line " + std::to_string(lines.line_number()) + ": the file ends after " +
                        std::to_string(point) + " of " + std::to_string(n) + " points");
  }

  // token index of each field's first element (ascii)
  std::vector<int> first_token(fields.size());
  for (std::size_t f = 0, t = 0; f < fields.size(); t += fields[f].count, ++f) first_token[f] = static_cast<int>(t);
  auto value = [&](int point, int f) -> double {
    const PcdField& field = fields[f];
    if (aos) return read_scalar(aos + static_cast<std::size_t>(point) * point_size + field.offset, field.scalar, false);
    if (soa)
      return read_scalar(soa + field.offset * static_cast<std::size_t>(n) +
                             static_cast<std::size_t>(point) * field.size * field.count,
                         field.scalar, false);
    return ascii_values[static_cast<std::size_t>(point) * value_count + first_token[f]];
  };
  auto packed_color = [&](int point) -> std::uint32_t {
    const PcdField& field = fields[map.color];
    if (aos) return static_cast<std::uint32_t>(read_raw_bits(aos + static_cast<std::size_t>(point) * point_size + field.offset, 4, false));
    if (soa)
      return static_cast<std::uint32_t>(read_raw_bits(
          soa + field.offset * static_cast<std::size_t>(n) + static_cast<std::size_t>(point) * field.size * field.count, 4, false));
    return ascii_packed[point];
  };

  PointCloud cloud;
  cloud.format = "pcd " + data;
  int kept = 0;
  cloud.points.resize(n, 3);
  if (map.color >= 0) cloud.colors.resize(n);
  if (with_normals) cloud.normals.resize(n, 3);
  if (organized) {
    cloud.grid_width = static_cast<int>(width);
    cloud.grid_height = static_cast<int>(height);
    cloud.grid_index.resize(n);
  }
  for (int i = 0; i < n; ++i) {
    const double x = value(i, map.x), y = value(i, map.y), z = value(i, map.z);
    if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z)) continue;
    cloud.points.row(kept) << x, y, z;
    if (map.color >= 0) cloud.colors[kept] = unpack_rgb(packed_color(i));
    if (with_normals) cloud.normals.row(kept) << value(i, map.nx), value(i, map.ny), value(i, map.nz);
    if (organized) cloud.grid_index[kept] = i;
    ++kept;
  }
  cloud.dropped_non_finite = n - kept;
  cloud.points.conservativeResize(kept, 3);
  if (map.color >= 0) cloud.colors.resize(kept);
  if (with_normals) cloud.normals.conservativeResize(kept, 3);
  if (organized) cloud.grid_index.resize(kept);
  return R::success(std::move(cloud));
}

namespace {

void append_le32(std::string& out, std::uint32_t bits) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((bits >> (8 * k)) & 0xff));
}

std::uint32_t float_bits(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

}  // namespace

std::string write_pcd(const PointCloud& cloud, PcdEncoding encoding) {
  const bool grid = cloud.organized() && static_cast<int>(cloud.grid_index.size()) == cloud.point_count();
  const int width = grid ? cloud.grid_width : cloud.point_count();
  const int height = grid ? cloud.grid_height : 1;
  const int n = width * height;
  const bool colored = cloud.has_colors();
  const int fields = colored ? 4 : 3;
  // per stored point: x y z as float bits and the packed colour, NaN where no point was kept
  const std::uint32_t nan_bits = float_bits(std::numeric_limits<float>::quiet_NaN());
  std::vector<std::uint32_t> values(static_cast<std::size_t>(n) * fields, nan_bits);
  if (colored)
    for (int i = 0; i < n; ++i) values[static_cast<std::size_t>(i) * fields + 3] = 0;
  for (int p = 0; p < cloud.point_count(); ++p) {
    const int i = grid ? cloud.grid_index[p] : p;
    if (i < 0 || i >= n) continue;
    for (int d = 0; d < 3; ++d) values[static_cast<std::size_t>(i) * fields + d] = float_bits(static_cast<float>(cloud.points(p, d)));
    if (colored)
      values[static_cast<std::size_t>(i) * fields + 3] =
          (std::uint32_t(cloud.colors[p][0]) << 16) | (std::uint32_t(cloud.colors[p][1]) << 8) | cloud.colors[p][2];
  }
  std::string out = "# .PCD v0.7 - Point Cloud Data file format\nVERSION 0.7\n";
  out += colored ? "FIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F U\nCOUNT 1 1 1 1\n"
                 : "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\n";
  out += "WIDTH " + std::to_string(width) + "\nHEIGHT " + std::to_string(height) + "\nVIEWPOINT 0 0 0 1 0 0 0\nPOINTS " +
         std::to_string(n) + "\nDATA ";
  if (encoding == PcdEncoding::ascii) {
    out += "ascii\n";
    char buffer[40];
    for (int i = 0; i < n; ++i) {
      for (int d = 0; d < 3; ++d) {
        float f;
        const std::uint32_t bits = values[static_cast<std::size_t>(i) * fields + d];
        std::memcpy(&f, &bits, 4);
        std::snprintf(buffer, sizeof(buffer), d ? " %.9g" : "%.9g", static_cast<double>(f));
        out += std::isnan(f) ? (d ? " nan" : "nan") : buffer;
      }
      if (colored) out += " " + std::to_string(values[static_cast<std::size_t>(i) * fields + 3]);
      out += '\n';
    }
  } else if (encoding == PcdEncoding::binary) {
    out += "binary\n";
    for (std::uint32_t v : values) append_le32(out, v);
  } else {
    out += "binary_compressed\n";
    std::string soa;
    soa.reserve(values.size() * 4);
    for (int f = 0; f < fields; ++f)
      for (int i = 0; i < n; ++i) append_le32(soa, values[static_cast<std::size_t>(i) * fields + f]);
    const std::string compressed = lzf_compress(soa);
    append_le32(out, static_cast<std::uint32_t>(compressed.size()));
    append_le32(out, static_cast<std::uint32_t>(soa.size()));
    out += compressed;
  }
  return out;
}

}  // namespace tela
