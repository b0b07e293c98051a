#include "mocap/c3d.h"

#include "mocap/c3d_parameters.h"
#include "mocap/length_units.h"
#include "mocap/text_encoding.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

namespace tela {
namespace {

using R = Result<Recording>;

std::string at(std::size_t byte) { return "byte " + std::to_string(byte) + ": "; }

std::string where(const C3dParameter& p) { return "parameter " + p.full_name() + " (byte " + std::to_string(p.offset) + "): "; }

std::string number_text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

// POINT:Y_SCREEN ('+Z', 'Y', '-Y', ...) as an axis letter and sign; false when it is not an axis
bool screen_axis(std::string text, char& axis, int& sign) {
  sign = 1;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    sign = text[0] == '-' ? -1 : 1;
    text = text.substr(1);
  }
  if (text.size() != 1) return false;
  const char c = static_cast<char>(text[0] | 0x20);  // lower case
  if (c != 'x' && c != 'y' && c != 'z') return false;
  axis = c;
  return true;
}

// repeated labels become "name (2)", "name (3)", ...; empty ones "point N" (N: the point's
// index from 1), itself made unique the same way
void make_names_unique(std::vector<std::string>& names, std::vector<std::string>& warnings) {
  int empty = 0, repeated = 0;
  std::string first_repeated;
  std::set<std::string> seen;
  std::map<std::string, int> next_suffix;  // per base name: the next suffix to try (no quadratic search)
  auto unique = [&](const std::string& base) {
    if (seen.insert(base).second) return base;
    int& k = next_suffix.emplace(base, 2).first->second;
    std::string name;
    do name = base + " (" + std::to_string(k++) + ")";
    while (!seen.insert(name).second);
    return name;
  };
  for (std::string& name : names) {
    if (name.empty()) continue;
    if (seen.count(name)) {
      if (first_repeated.empty()) first_repeated = name;
      ++repeated;
    }
    name = unique(name);
  }
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i].empty()) {
      names[i] = unique("point " + std::to_string(i + 1));
      ++empty;
    }
  if (empty > 0)
    warnings.push_back(std::to_string(empty) + " point(s) have no label in POINT:LABELS: named 'point N' by their index");
  if (repeated > 0)
    warnings.push_back(std::to_string(repeated) + " point label(s) repeat an earlier one (first: '" + first_repeated +
                       "'): renamed with a ' (2)', ' (3)', ... suffix");
}

}  // namespace

bool looks_like_c3d(std::string_view bytes) {
  // the key byte 0x50 alone also matches PNG ("\x89PNG"): the parameter section the first byte
  // points at must name a processor type (84 Intel, 85 DEC, 86 MIPS) in its fourth byte
  if (bytes.size() < 512 || static_cast<unsigned char>(bytes[1]) != 0x50) return false;
  const std::size_t block = static_cast<unsigned char>(bytes[0]);
  const std::size_t processor = (block - 1) * 512 + 3;
  if (block < 2 || processor >= bytes.size()) return false;
  const unsigned char type = static_cast<unsigned char>(bytes[processor]);
  return type >= 84 && type <= 86;
}

Result<Recording> parse_c3d(std::string_view bytes) {
  if (bytes.size() < 512)
    return R::failure("the file has " + std::to_string(bytes.size()) + " bytes, fewer than the 512 of a C3D header");
  if (static_cast<unsigned char>(bytes[1]) != 0x50)
    return R::failure(at(1) + "the key byte is " + std::to_string(static_cast<unsigned char>(bytes[1])) +
                      ", where a C3D file has 80 (0x50)");
  Result<C3dParameterSection> read = read_c3d_parameters(bytes);
  if (!read.ok()) return R::failure(read.error);
  const C3dParameterSection& params = *read.value;
  const C3dProcessor processor = params.processor;
  const unsigned char* file = reinterpret_cast<const unsigned char*>(bytes.data());
  auto word = [&](std::size_t offset) { return static_cast<long>(read_c3d_word(file + offset, processor)); };
  auto signed_word = [&](std::size_t offset) { return static_cast<std::int16_t>(read_c3d_word(file + offset, processor)); };
  auto real = [&](std::size_t offset) { return read_c3d_float(file + offset, processor); };
  auto point_parameter = [&](const char* name) { return params.find("POINT", name); };

  Recording rec;
  rec.format = "c3d";
  std::vector<std::string>& warnings = rec.warnings;

  // the header: 16-bit words and floats in the processor's format (byte offsets)
  const long points = word(2);
  const long analog_values = word(4);  // analog samples per 3D frame, all channels together
  std::int64_t first_frame = word(6), last_frame = word(8);
  const long data_block = word(16);

  // the point count: the header's sets the layout of the data
  if (const C3dParameter* used = point_parameter("USED")) {
    long n = 0;
    if (params.count_value(*used, 0, n) && n != points)
      warnings.push_back("POINT:USED says " + std::to_string(n) + " points, the header (byte 2) " +
                         std::to_string(points) + ": the header's count is read (it sets the layout of the data)");
  }
  if (points == 0) return R::failure(at(2) + "the file holds no 3D points (the header's point count is 0)");

  // integer or float data: the sign of POINT:SCALE (of the header's scale when absent)
  double scale = real(12);
  if (const C3dParameter* p = point_parameter("SCALE")) {
    double v = 0;
    if (params.number(*p, 0, v)) {
      if ((v < 0) != (scale < 0))
        warnings.push_back("POINT:SCALE (" + number_text(v) + ") and the header's scale (" + number_text(scale) +
                           ") disagree on integer or float data: POINT:SCALE is read");
      if (!std::isfinite(v) || v == 0) return R::failure(where(*p) + "the scale is " + number_text(v) + ", not a usable factor");
      scale = v;
    }
  }
  if (!std::isfinite(scale) || scale == 0) return R::failure(at(12) + "the scale is " + number_text(scale) + ", not a usable factor");
  const bool floats = scale < 0;
  rec.format_version = std::string(to_string(processor)) + (floats ? " float" : " integer");

  // frame rate
  rec.rate = real(20);
  if (const C3dParameter* p = point_parameter("RATE")) {
    double v = 0;
    if (params.number(*p, 0, v)) {
      if (!(v > 0) || !std::isfinite(v)) return R::failure(where(*p) + "the frame rate is " + number_text(v) + ", not a positive number");
      if (std::abs(v - rec.rate) > 1e-6 * v)
        warnings.push_back("POINT:RATE says " + number_text(v) + " Hz, the header " + number_text(rec.rate) + " Hz: POINT:RATE is read");
      rec.rate = v;
    }
  }
  if (!(rec.rate > 0) || !std::isfinite(rec.rate))
    return R::failure(at(20) + "the frame rate is " + number_text(rec.rate) + ", not a positive number");

  // length units
  rec.units = "mm";
  const C3dParameter* units = point_parameter("UNITS");
  const std::vector<std::string> unit_names = units ? params.strings(*units) : std::vector<std::string>();
  std::string unit = unit_names.empty() ? std::string() : unit_names[0];
  unit.erase(0, std::min(unit.size(), unit.find_first_not_of(' ')));
  if (unit.empty()) {
    rec.units_declared = false;
    warnings.push_back("the file has no POINT:UNITS: its coordinates are read as millimetres (override the units if wrong)");
  } else if (canonical_length_unit(unit).empty()) {
    rec.units_declared = false;
    warnings.push_back("POINT:UNITS '" + as_utf8(unit) + "' is not mm, cm or m: the coordinates are read as millimetres "
                       "(override the units if wrong)");
  } else {
    rec.units = canonical_length_unit(unit);
  }

  // frames: the header's 16-bit first and last frame, or TRIAL's 32-bit fields
  const C3dParameter* trial_start = params.find("TRIAL", "ACTUAL_START_FIELD");
  const C3dParameter* trial_end = params.find("TRIAL", "ACTUAL_END_FIELD");
  long start_low = 0, start_high = 0, end_low = 0, end_high = 0;
  if (trial_start && trial_end && params.count_value(*trial_start, 0, start_low) &&
      params.count_value(*trial_start, 1, start_high) && params.count_value(*trial_end, 0, end_low) &&
      params.count_value(*trial_end, 1, end_high)) {
    const std::int64_t start = start_low + std::int64_t{65536} * start_high;
    const std::int64_t end = end_low + std::int64_t{65536} * end_high;
    if (end > std::numeric_limits<std::int32_t>::max())
      return R::failure(where(*trial_end) + "the last frame (" + std::to_string(end) + ") is beyond the frame numbers read here (2^31 - 1)");
    if (end < start)
      return R::failure(where(*trial_end) + "the last frame (" + std::to_string(end) + ") is before the first (" +
                        std::to_string(start) + ", TRIAL:ACTUAL_START_FIELD)");
    if ((start != first_frame || end != last_frame) && last_frame != 65535)
      warnings.push_back("TRIAL:ACTUAL_START_FIELD / ACTUAL_END_FIELD say frames " + std::to_string(start) + " to " +
                         std::to_string(end) + ", the header " + std::to_string(first_frame) + " to " +
                         std::to_string(last_frame) + ": TRIAL's are read");
    first_frame = start;
    last_frame = end;
  }
  if (last_frame < first_frame)
    return R::failure(at(8) + "the last frame (" + std::to_string(last_frame) + ") is before the first (" +
                      std::to_string(first_frame) + ", byte 6)");
  const std::int64_t declared = last_frame - first_frame + 1;
  if (const C3dParameter* p = point_parameter("FRAMES")) {
    long n = 0;
    if (params.count_value(*p, 0, n) && n != std::min<std::int64_t>(declared, 65535))
      warnings.push_back("POINT:FRAMES says " + std::to_string(n) + " frames, the first and last frame make " +
                         std::to_string(declared) + ": those are read");
  }

  // analog samples, interleaved after each frame's points: the header's count sets the layout
  const C3dParameter* analog_used = params.find("ANALOG", "USED");
  const C3dParameter* analog_rate = params.find("ANALOG", "RATE");
  long channels = 0;
  double analog_hz = 0;
  if (analog_used && analog_rate && params.count_value(*analog_used, 0, channels) &&
      params.number(*analog_rate, 0, analog_hz) && std::isfinite(analog_hz)) {
    const double expected = static_cast<double>(channels) * std::round(analog_hz / rec.rate);
    if (expected != static_cast<double>(analog_values))
      warnings.push_back("ANALOG:USED and ANALOG:RATE make " + number_text(expected) +
                         " analog values per frame, the header (byte 4) " + std::to_string(analog_values) +
                         ": the header's count is skipped after each frame's points");
  }

  // the data section
  if (data_block == 0) return R::failure(at(16) + "the data section is said to start at block 0");
  const std::uint64_t data_offset = static_cast<std::uint64_t>(data_block - 1) * 512;
  if (data_offset >= bytes.size())
    return R::failure(at(16) + "the data section is said to start at block " + std::to_string(data_block) + " (byte " +
                      std::to_string(data_offset) + "), past the end of the file (" + std::to_string(bytes.size()) + " bytes)");
  if (const C3dParameter* p = point_parameter("DATA_START")) {
    long block = 0;
    if (params.count_value(*p, 0, block) && block != data_block)
      warnings.push_back("POINT:DATA_START says block " + std::to_string(block) + ", the header (byte 16) block " +
                         std::to_string(data_block) + ": the header's is read");
  }
  const std::uint64_t word_size = floats ? 4 : 2;
  const std::uint64_t frame_bytes = (4 * static_cast<std::uint64_t>(points) + static_cast<std::uint64_t>(analog_values)) * word_size;
  const std::uint64_t complete = (bytes.size() - data_offset) / frame_bytes;
  const long frames = static_cast<long>(std::min<std::uint64_t>(static_cast<std::uint64_t>(declared), complete));
  if (frames == 0)
    return R::failure(at(data_offset) + "the data section holds " + std::to_string(bytes.size() - data_offset) +
                      " bytes, less than one frame (" + std::to_string(frame_bytes) + " bytes: " + std::to_string(points) +
                      " points and " + std::to_string(analog_values) + " analog values of " + std::to_string(word_size) +
                      " bytes each per frame)");
  if (frames < declared)
    warnings.push_back("the data section holds " + std::to_string(frames) + " complete frames of the " +
                       std::to_string(declared) + " declared (a truncated file?): those are read");

  // labels: POINT:LABELS, then LABELS2, LABELS3, ... (a dimension holds at most 255 of them)
  int code_page_labels = 0;
  for (int k = 1; static_cast<long>(rec.names.size()) < points; ++k) {
    const C3dParameter* labels = point_parameter(k == 1 ? "LABELS" : ("LABELS" + std::to_string(k)).c_str());
    if (!labels) break;
    for (const std::string& label : params.strings(*labels))
      if (static_cast<long>(rec.names.size()) < points) {
        if (!is_utf8(label)) ++code_page_labels;
        rec.names.push_back(as_utf8(label));
      }
  }
  if (code_page_labels > 0)
    warnings.push_back(std::to_string(code_page_labels) + " point label(s) are not UTF-8: read as Windows-1252");
  if (static_cast<long>(rec.names.size()) < points && !rec.names.empty())
    warnings.push_back("POINT:LABELS names " + std::to_string(rec.names.size()) + " of the " + std::to_string(points) + " points");
  rec.names.resize(static_cast<std::size_t>(points));
  make_names_unique(rec.names, warnings);
  rec.kinds.assign(rec.names.size(), PointKind::marker);

  // points: x, y, z, residual; a negative residual word marks a missing point
  const double to_metres = metres_per_unit(rec.units);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  rec.positions.setConstant(frames, 3 * static_cast<Eigen::Index>(points), nan);
  long zeros = 0, non_finite = 0;
  for (long f = 0; f < frames; ++f) {
    rec.frame_numbers.push_back(static_cast<long>(first_frame + f));
    rec.times.push_back(static_cast<double>(f) / rec.rate);
    for (long p = 0; p < points; ++p) {
      const std::size_t base = static_cast<std::size_t>(data_offset + static_cast<std::uint64_t>(f) * frame_bytes +
                                                        static_cast<std::uint64_t>(p) * 4 * word_size);
      double x[3];
      bool valid = false;
      if (floats) {
        for (int a = 0; a < 3; ++a) x[a] = real(base + 4 * a);
        valid = real(base + 12) >= 0;  // NaN (a DEC reserved operand) is not valid either
      } else {
        for (int a = 0; a < 3; ++a) x[a] = signed_word(base + 2 * a) * scale;
        valid = signed_word(base + 6) >= 0;
      }
      if (!valid) continue;
      if (!std::isfinite(x[0]) || !std::isfinite(x[1]) || !std::isfinite(x[2])) {
        ++non_finite;
        continue;
      }
      if (x[0] == 0 && x[1] == 0 && x[2] == 0) {
        ++zeros;
        continue;
      }
      for (int a = 0; a < 3; ++a) rec.positions(f, 3 * p + a) = x[a] * to_metres;
    }
  }
  if (zeros > 0)
    warnings.push_back(std::to_string(zeros) + " samples are exactly (0, 0, 0) with a valid residual: read as missing "
                       "(some writers mark gaps that way)");
  if (non_finite > 0)
    warnings.push_back(std::to_string(non_finite) + " samples have a coordinate that is not a finite number: read as missing");

  // the up axis: the one drawn upwards on screen
  if (const C3dParameter* p = point_parameter("Y_SCREEN")) {
    const std::vector<std::string> values = params.strings(*p);
    std::string text = values.empty() ? std::string() : values[0];
    text.erase(0, std::min(text.size(), text.find_first_not_of(' ')));
    if (!screen_axis(text, rec.up_axis, rec.up_sign)) {
      rec.up_axis = 0;
      rec.up_sign = 1;
      warnings.push_back("POINT:Y_SCREEN '" + as_utf8(text) + "' is not an axis (+X, -Y, +Z, ...): the up axis is detected");
    }
  }
  return R::success(std::move(rec));
}

}  // namespace tela
