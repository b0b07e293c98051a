#include "mocap/c3d_writer.h"

#include "mocap/length_units.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tela {
namespace {

// a group (id < 0) or parameter (id > 0) record; body: what follows its offset word
struct Record {
  int id = 0;
  std::string name;
  std::string body;
};

void pad_to_block(std::string& out) { out.resize((out.size() + 511) / 512 * 512, '\0'); }

class ParameterWriter {
 public:
  explicit ParameterWriter(C3dProcessor processor) : processor_(processor) {}

  void group(int id, const std::string& name) { records_.push_back({-id, name, std::string(1, '\0')}); }

  void integers(int group, const std::string& name, const std::vector<int>& values, bool array) {
    std::string data;
    for (int v : values) append_c3d_word(data, static_cast<std::uint16_t>(v & 0xFFFF), processor_);
    add(group, name, 2, array ? std::vector<int>{static_cast<int>(values.size())} : std::vector<int>{}, data);
  }
  void integer(int group, const std::string& name, int value) { integers(group, name, {value}, false); }

  void real(int group, const std::string& name, double value) {
    std::string data;
    append_c3d_float(data, value, processor_);
    add(group, name, 4, {}, data);
  }

  // strings padded with spaces to the longest (at most 255 characters)
  void strings(int group, const std::string& name, const std::vector<std::string>& values) {
    std::size_t length = 1;
    for (const std::string& v : values) length = std::max(length, std::min<std::size_t>(v.size(), 255));
    std::string data;
    for (const std::string& v : values) {
      std::string s = v.substr(0, length);
      s.resize(length, ' ');
      data += s;
    }
    add(group, name, -1, {static_cast<int>(length), static_cast<int>(values.size())}, data);
  }
  void text(int group, const std::string& name, const std::string& value) {
    add(group, name, -1, {static_cast<int>(value.size())}, value);
  }

  // the section: 4-byte header, records chained by their offsets, padded to whole blocks
  std::string section() const {
    std::string out;
    out += '\x01';
    out += '\x50';
    out += '\0';  // block count, set below
    out += static_cast<char>(static_cast<int>(processor_));
    for (std::size_t i = 0; i < records_.size(); ++i) {
      const Record& r = records_[i];
      out += static_cast<char>(r.name.size());
      out += static_cast<char>(static_cast<signed char>(r.id));
      out += r.name;
      const bool last = i + 1 == records_.size();
      append_c3d_word(out, static_cast<std::uint16_t>(last ? 0 : 2 + r.body.size()), processor_);
      out += r.body;
    }
    pad_to_block(out);
    out[2] = static_cast<char>(out.size() / 512);
    return out;
  }

 private:
  void add(int group, const std::string& name, int type, const std::vector<int>& dimensions, const std::string& data) {
    std::string body;
    body += static_cast<char>(static_cast<signed char>(type));
    body += static_cast<char>(dimensions.size());
    for (int d : dimensions) body += static_cast<char>(d);
    body += data;
    body += '\0';  // no description
    records_.push_back({group, name, body});
  }

  C3dProcessor processor_;
  std::vector<Record> records_;
};

}  // namespace

std::string write_c3d(const Recording& rec, const C3dWriteOptions& options) {
  const C3dProcessor processor = options.processor;
  const std::string units = canonical_length_unit(options.units).empty() ? "mm" : canonical_length_unit(options.units);
  const double per_metre = 1.0 / metres_per_unit(units);
  const int points = rec.point_count();
  const long frames = rec.frame_count();
  const int channels = std::max(0, options.analog_channels);
  const int samples = std::max(1, options.analog_samples_per_frame);
  const long first = rec.frame_numbers.empty() ? 1 : std::max(1L, rec.frame_numbers[0]);

  double largest = 0;
  for (Eigen::Index i = 0; i < rec.positions.size(); ++i)
    if (std::isfinite(rec.positions.data()[i])) largest = std::max(largest, std::abs(rec.positions.data()[i]) * per_metre);
  double scale = options.scale > 0 ? options.scale : (largest > 0 ? largest / 30000 : 1.0);
  if (options.float_data) scale = -(options.scale > 0 ? options.scale : 1.0);

  // parameters: POINT, ANALOG and TRIAL groups; LABELS2, LABELS3, ... beyond 255 labels (and
  // fewer per parameter when long labels would overflow a record's 16-bit offset)
  ParameterWriter parameters(processor);
  parameters.group(1, "POINT");
  parameters.group(2, "ANALOG");
  parameters.integer(1, "USED", points);
  parameters.integer(1, "FRAMES", static_cast<int>(std::min(frames, 65535L)));
  parameters.real(1, "SCALE", scale);
  parameters.real(1, "RATE", rec.rate);
  if (options.write_units) parameters.text(1, "UNITS", units);
  std::size_t label_length = 1;
  for (const std::string& name : rec.names) label_length = std::max(label_length, std::min<std::size_t>(name.size(), 255));
  const std::size_t per_parameter = std::max<std::size_t>(1, std::min<std::size_t>(255, 30000 / label_length));
  for (std::size_t start = 0, k = 1; start < rec.names.size(); start += per_parameter, ++k) {
    const std::vector<std::string> some(rec.names.begin() + static_cast<long>(start),
                                        rec.names.begin() + static_cast<long>(std::min(rec.names.size(), start + per_parameter)));
    parameters.strings(1, k == 1 ? "LABELS" : "LABELS" + std::to_string(k), some);
  }
  if (rec.up_axis == 'x' || rec.up_axis == 'y' || rec.up_axis == 'z') {
    const char axis = static_cast<char>(rec.up_axis - 'x' + 'X');
    const char across = static_cast<char>((rec.up_axis - 'x' + 1) % 3 + 'X');
    parameters.text(1, "X_SCREEN", std::string("+") + across);
    parameters.text(1, "Y_SCREEN", std::string(rec.up_sign < 0 ? "-" : "+") + axis);
  }
  parameters.integer(2, "USED", channels);
  parameters.real(2, "RATE", rec.rate * samples);
  if (options.trial_fields) {
    parameters.group(3, "TRIAL");
    const long last = first + std::max(0L, frames - 1);
    parameters.integers(3, "ACTUAL_START_FIELD", {static_cast<int>(first & 0xFFFF), static_cast<int>(first >> 16)}, true);
    parameters.integers(3, "ACTUAL_END_FIELD", {static_cast<int>(last & 0xFFFF), static_cast<int>(last >> 16)}, true);
  }
  // POINT:DATA_START last: it needs the section's size, which it does not change
  ParameterWriter sized = parameters;
  sized.integer(1, "DATA_START", 0);
  const int data_block = 2 + static_cast<int>(sized.section().size() / 512);
  parameters.integer(1, "DATA_START", data_block);
  const std::string section = parameters.section();

  // the header block
  std::string out;
  out += '\x02';
  out += '\x50';
  append_c3d_word(out, static_cast<std::uint16_t>(points), processor);
  append_c3d_word(out, static_cast<std::uint16_t>(channels * samples), processor);
  append_c3d_word(out, static_cast<std::uint16_t>(std::min(first, 65535L)), processor);
  append_c3d_word(out, static_cast<std::uint16_t>(std::min(first + std::max(0L, frames - 1), 65535L)), processor);
  append_c3d_word(out, 0, processor);  // maximum interpolation gap
  append_c3d_float(out, scale, processor);
  append_c3d_word(out, static_cast<std::uint16_t>(data_block), processor);
  append_c3d_word(out, static_cast<std::uint16_t>(samples), processor);
  append_c3d_float(out, rec.rate, processor);
  pad_to_block(out);
  out += section;

  // frames: x, y, z, residual per point, then the analog samples
  auto value = [&](double v) {
    if (options.float_data) append_c3d_float(out, v, processor);
    else append_c3d_word(out, static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(std::max(-32767.0, std::min(32767.0, v / scale))))), processor);
  };
  for (long f = 0; f < frames; ++f) {
    for (int p = 0; p < points; ++p) {
      const bool valid = rec.valid(static_cast<int>(f), p);
      for (int a = 0; a < 3; ++a) value(valid ? rec.positions(f, 3 * p + a) * per_metre : 0.0);
      if (options.float_data) append_c3d_float(out, valid ? 0.0 : -1.0, processor);
      else append_c3d_word(out, valid ? 0 : 0xFFFF, processor);
    }
    // analog: a pattern of negative and positive values, so that a reader that does not skip
    // them reads garbage points
    for (int s = 0; s < samples; ++s)
      for (int c = 0; c < channels; ++c) {
        const double v = -1000.0 + static_cast<double>((f * 37 + s * 11 + c * 5) % 2000);
        if (options.float_data) append_c3d_float(out, v, processor);
        else append_c3d_word(out, static_cast<std::uint16_t>(static_cast<std::int16_t>(v)), processor);
      }
  }
  pad_to_block(out);
  return out;
}

}  // namespace tela
