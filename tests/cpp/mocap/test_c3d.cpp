// C3D files (mocap/c3d.h): the number formats of the three processor types against values known
// from the format's definition, files written by mocap/c3d_writer.h in every processor and data
// type (with analog channels, more than 255 labels, gaps, long recordings) read back through
// parse_recording, located errors for broken files, and random mutations that must never crash.
#include "mocap/c3d.h"
#include "mocap/c3d_processor.h"
#include "mocap/c3d_writer.h"
#include "mocap/parse_recording.h"
#include "recording_checks.h"
#include "generators/synthetic_recording.h"
#include "mocap/up_axis.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace {

using recording_checks::contains;
using recording_checks::parse_error;
using recording_checks::parse_ok;
using tela::C3dProcessor;
using tela::C3dWriteOptions;
using tela::Recording;

bool warns(const Recording& rec, const std::string& part) {
  for (const std::string& w : rec.warnings)
    if (contains(w, part)) return true;
  return false;
}

// a synthetic A3 recording (12 markers, 101 frames at 100 Hz, 5 % gaps, y up)
Recording small_recording() {
  tela::SyntheticRecordingSpec spec;
  spec.size = "A3";
  spec.duration = 1.0;
  spec.seed = 7;
  tela::Result<Recording> r = tela::synthesize_recording(spec);
  REQUIRE(r.ok());
  return *r.value;
}

// `points` markers over `frames` frames at 50 Hz: point p at frame f is (0.1 + 0.001 p, 0.2 +
// 0.01 (f mod 100), 1 + 0.0001 p f) m; no gaps
Recording grid_recording(int points, int frames) {
  Recording rec;
  rec.format = "test";
  rec.rate = 50;
  rec.units = "mm";
  for (int p = 0; p < points; ++p) {
    rec.names.push_back("m" + std::to_string(p + 1));
    rec.kinds.push_back(tela::PointKind::marker);
  }
  rec.positions.resize(frames, 3 * points);
  for (int f = 0; f < frames; ++f) {
    rec.frame_numbers.push_back(f + 1);
    rec.times.push_back(f / rec.rate);
    for (int p = 0; p < points; ++p) {
      rec.positions(f, 3 * p + 0) = 0.1 + 0.001 * p;
      rec.positions(f, 3 * p + 1) = 0.2 + 0.01 * (f % 100);
      rec.positions(f, 3 * p + 2) = 1 + 0.0001 * p * f;
    }
  }
  return rec;
}

// the same points, samples and gaps within `tolerance` metres
void check_same(const Recording& read, const Recording& truth, double tolerance) {
  REQUIRE(read.point_count() == truth.point_count());
  REQUIRE(read.frame_count() == truth.frame_count());
  CHECK(read.names == truth.names);
  CHECK(tela::missing_samples(read) == tela::missing_samples(truth));
  double worst = 0;
  int mismatched_gaps = 0;
  for (int f = 0; f < read.frame_count(); ++f)
    for (int p = 0; p < read.point_count(); ++p) {
      if (read.valid(f, p) != truth.valid(f, p)) ++mismatched_gaps;
      else if (read.valid(f, p)) worst = std::max(worst, (read.position(f, p) - truth.position(f, p)).cwiseAbs().maxCoeff());
    }
  CHECK(mismatched_gaps == 0);
  CHECK(worst <= tolerance);
  for (int f = 0; f < read.frame_count(); ++f) REQUIRE(read.times[f] == doctest::Approx(f / truth.rate).epsilon(1e-12));
}

// an Intel file's 16-bit word at `offset`
void set_word(std::string& bytes, std::size_t offset, int value) {
  bytes[offset] = static_cast<char>(value & 0xFF);
  bytes[offset + 1] = static_cast<char>((value >> 8) & 0xFF);
}
int word(const std::string& bytes, std::size_t offset) {
  return static_cast<unsigned char>(bytes[offset]) | (static_cast<unsigned char>(bytes[offset + 1]) << 8);
}

// the byte where the nth record of a parameter (or group) `name` starts, found by its name in
// the parameter section (block 2 in the writer's files)
std::size_t record_of(const std::string& bytes, const std::string& name, int nth = 1) {
  std::size_t at = 512;
  while ((at = bytes.find(name, at)) != std::string::npos) {
    if (at >= 2 && static_cast<unsigned char>(bytes[at - 2]) == name.size() && --nth == 0) return at - 2;
    ++at;
  }
  FAIL("no record " << name);
  return 0;
}
// the byte of the data of a parameter record: after name, offset, type, dimension count, dimensions
std::size_t data_of(const std::string& bytes, std::size_t record) {
  const std::size_t body = record + 2 + static_cast<unsigned char>(bytes[record]) + 2;
  return body + 2 + static_cast<unsigned char>(bytes[body + 1]);
}

const unsigned char* raw(const std::vector<unsigned char>& v) { return v.data(); }

}  // namespace

TEST_SUITE("mocap") {

TEST_CASE("c3d numbers: Intel, MIPS and DEC floats and words, from the formats' definitions") {
  // 1.0: IEEE 0x3F800000 (Intel little-endian, MIPS big-endian); VAX F-float 1.0 is the
  // longword 0x00004080 (sign, exponent 129, zero fraction in the first word)
  CHECK(tela::read_c3d_float(raw({0x00, 0x00, 0x80, 0x3F}), C3dProcessor::intel) == 1.0);
  CHECK(tela::read_c3d_float(raw({0x3F, 0x80, 0x00, 0x00}), C3dProcessor::mips) == 1.0);
  CHECK(tela::read_c3d_float(raw({0x80, 0x40, 0x00, 0x00}), C3dProcessor::dec) == 1.0);
  // -2.5: IEEE 0xC0200000; VAX: sign, exponent 130, fraction 0x200000 -> first word 0xC120
  CHECK(tela::read_c3d_float(raw({0x00, 0x00, 0x20, 0xC0}), C3dProcessor::intel) == -2.5);
  CHECK(tela::read_c3d_float(raw({0xC0, 0x20, 0x00, 0x00}), C3dProcessor::mips) == -2.5);
  CHECK(tela::read_c3d_float(raw({0x20, 0xC1, 0x00, 0x00}), C3dProcessor::dec) == -2.5);
  // DEC zero, and the reserved operand (sign set, exponent 0)
  CHECK(tela::read_c3d_float(raw({0x00, 0x00, 0x00, 0x00}), C3dProcessor::dec) == 0.0);
  CHECK(std::isnan(tela::read_c3d_float(raw({0x00, 0x80, 0x00, 0x00}), C3dProcessor::dec)));
  // words: little-endian except MIPS
  CHECK(tela::read_c3d_word(raw({0x34, 0x12}), C3dProcessor::intel) == 0x1234);
  CHECK(tela::read_c3d_word(raw({0x34, 0x12}), C3dProcessor::dec) == 0x1234);
  CHECK(tela::read_c3d_word(raw({0x12, 0x34}), C3dProcessor::mips) == 0x1234);

  // written and read back; a DEC value is also what readers get by swapping its words, reading
  // an IEEE float and dividing by 4 (ezc3d, c3d.py)
  std::mt19937 random(3);
  std::uniform_real_distribution<double> exponent(-30, 30);
  for (int k = 0; k < 500; ++k) {
    const double v = (k % 2 ? -1 : 1) * std::exp(exponent(random));
    const float rounded = static_cast<float>(v);
    for (C3dProcessor processor : {C3dProcessor::intel, C3dProcessor::dec, C3dProcessor::mips}) {
      std::string bytes;
      tela::append_c3d_float(bytes, v, processor);
      REQUIRE(bytes.size() == 4);
      const double back = tela::read_c3d_float(reinterpret_cast<const unsigned char*>(bytes.data()), processor);
      CHECK(back == static_cast<double>(rounded));
      if (processor == C3dProcessor::dec) {
        const std::string swapped = bytes.substr(2, 2) + bytes.substr(0, 2);
        const double ieee = tela::read_c3d_float(reinterpret_cast<const unsigned char*>(swapped.data()), C3dProcessor::intel);
        CHECK(ieee / 4 == back);
      }
    }
  }
}

TEST_CASE("c3d: a synthetic recording round-trips as an Intel float file") {
  const Recording truth = small_recording();
  const std::string bytes = tela::write_c3d(truth);
  CHECK(tela::looks_like_c3d(bytes));
  CHECK(tela::sniff_recording_format(bytes) == "c3d");
  CHECK(bytes.size() % 512 == 0);
  const Recording rec = parse_ok(bytes);
  CHECK(rec.format == "c3d");
  CHECK(rec.format_version == "Intel float");
  CHECK(rec.units == "mm");
  CHECK(rec.units_declared);
  CHECK(rec.rate == 100.0);
  CHECK(rec.point_count() == 12);
  CHECK(rec.frame_count() == 101);
  CHECK(tela::missing_samples(truth) == static_cast<long>(0.05 * 101 * 12));
  check_same(rec, truth, 1e-6);  // float32 of millimetres
  // frame numbers from the header's first frame (C3D counts from 1; the synthetic take from 0)
  CHECK(truth.frame_numbers[0] == 0);
  CHECK(rec.frame_numbers[0] == 1);
  CHECK(rec.frame_numbers.back() == 101);
  // the synthetic recording is y-up (Motive's axes): POINT:Y_SCREEN '+Y'
  CHECK(rec.up_axis == 'y');
  const tela::UpAxis up = tela::default_up_axis(rec);
  CHECK(up.axis == 1);
  CHECK(up.sign == 1);
  CHECK(up.source == "format");
  CHECK(rec.warnings.empty());
}

TEST_CASE("c3d: every processor type with float and integer data") {
  const Recording truth = small_recording();
  for (C3dProcessor processor : {C3dProcessor::intel, C3dProcessor::dec, C3dProcessor::mips})
    for (bool float_data : {true, false}) {
      CAPTURE(tela::to_string(processor));
      CAPTURE(float_data);
      C3dWriteOptions options;
      options.processor = processor;
      options.float_data = float_data;
      options.scale = float_data ? 0 : 0.05;  // mm per step
      const std::string bytes = tela::write_c3d(truth, options);
      CHECK(static_cast<unsigned char>(bytes[512 + 3]) == static_cast<int>(processor));
      const Recording rec = parse_ok(bytes);
      CHECK(rec.format_version == std::string(tela::to_string(processor)) + (float_data ? " float" : " integer"));
      CHECK(rec.rate == 100.0);
      // integers: within half a step (0.025 mm) of the truth
      check_same(rec, truth, float_data ? 1e-6 : 0.025e-3 + 1e-12);
      CHECK(rec.warnings.empty());
    }
  // integer data are really rounded to the scale: a coarse step shows
  C3dWriteOptions coarse;
  coarse.float_data = false;
  coarse.scale = 2.0;  // mm
  const Recording rec = parse_ok(tela::write_c3d(truth, coarse));
  check_same(rec, truth, 1e-3 + 1e-12);
  double worst = 0;
  for (int p = 0; p < rec.point_count(); ++p)
    if (rec.valid(0, p)) {
      const Eigen::Vector3d x = rec.position(0, p) * 1000 / 2.0;  // steps
      worst = std::max(worst, (x - x.array().round().matrix()).cwiseAbs().maxCoeff());
    }
  CHECK(worst < 1e-9);
}

TEST_CASE("c3d: analog samples interleaved after each frame's points are skipped") {
  const Recording truth = small_recording();
  for (bool float_data : {true, false}) {
    C3dWriteOptions options;
    options.float_data = float_data;
    options.analog_channels = 3;
    options.analog_samples_per_frame = 4;  // 400 Hz analog under 100 Hz points
    options.processor = float_data ? C3dProcessor::mips : C3dProcessor::intel;
    const std::string bytes = tela::write_c3d(truth, options);
    CHECK(tela::read_c3d_word(reinterpret_cast<const unsigned char*>(bytes.data()) + 4, options.processor) == 12);
    const Recording rec = parse_ok(bytes);
    check_same(rec, truth, float_data ? 1e-6 : 1e-4);
    CHECK(rec.warnings.empty());
  }
  // the header's analog count sets the layout; ANALOG:USED disagreeing is only reported
  C3dWriteOptions options;
  options.analog_channels = 2;
  std::string bytes = tela::write_c3d(truth, options);
  set_word(bytes, data_of(bytes, record_of(bytes, "USED", 2)), 5);  // ANALOG:USED
  const Recording rec = parse_ok(bytes);
  check_same(rec, truth, 1e-6);
  CHECK(warns(rec, "ANALOG:USED and ANALOG:RATE make 5 analog values per frame, the header (byte 4) 2"));
}

TEST_CASE("c3d: more than 255 points are labelled through LABELS2") {
  const Recording truth = grid_recording(300, 3);
  for (bool float_data : {true, false}) {
    C3dWriteOptions options;
    options.float_data = float_data;
    const std::string bytes = tela::write_c3d(truth, options);
    record_of(bytes, "LABELS2");
    const Recording rec = parse_ok(bytes);
    CHECK(rec.names[254] == "m255");
    CHECK(rec.names[255] == "m256");
    CHECK(rec.names[299] == "m300");
    check_same(rec, truth, float_data ? 1e-6 : 1e-4);
    CHECK(rec.warnings.empty());
  }
}

TEST_CASE("c3d: 65535 points with one label are renamed without a quadratic search") {
  Recording truth = grid_recording(65535, 1);
  truth.names.assign(65535, "a");
  const std::string bytes = tela::write_c3d(truth);
  const auto start = std::chrono::steady_clock::now();
  const Recording rec = parse_ok(bytes);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  CHECK(rec.point_count() == 65535);
  CHECK(rec.names[0] == "a");
  CHECK(rec.names[1] == "a (2)");
  CHECK(rec.names[65534] == "a (65535)");
  CHECK(warns(rec, "65534 point label(s) repeat an earlier one"));
}

TEST_CASE("c3d: negative residuals are gaps; zeros with a valid residual too, with a warning") {
  Recording truth = grid_recording(3, 5);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  truth.positions.block(1, 3, 2, 3).setConstant(nan);  // point 1 in frames 1 and 2
  truth.positions.block(4, 0, 1, 3).setConstant(nan);  // point 0 in frame 4
  for (C3dProcessor processor : {C3dProcessor::intel, C3dProcessor::dec, C3dProcessor::mips})
    for (bool float_data : {true, false}) {
      C3dWriteOptions options;
      options.processor = processor;
      options.float_data = float_data;
      const Recording rec = parse_ok(tela::write_c3d(truth, options));
      CHECK(tela::missing_samples(rec) == 3);
      CHECK_FALSE(rec.valid(1, 1));
      CHECK_FALSE(rec.valid(2, 1));
      CHECK_FALSE(rec.valid(4, 0));
      CHECK(rec.valid(3, 1));
      CHECK(rec.warnings.empty());
    }
  // (0, 0, 0) with residual 0: a gap some writers leave; counted
  C3dWriteOptions options;
  std::string bytes = tela::write_c3d(truth, options);
  const std::size_t data = (static_cast<std::size_t>(word(bytes, 16)) - 1) * 512;
  const std::size_t frame_bytes = 3 * 16;
  bytes.replace(data + 3 * frame_bytes + 2 * 16, 16, std::string(16, '\0'));  // frame 3, point 2
  Recording rec = parse_ok(bytes);
  CHECK(tela::missing_samples(rec) == 4);
  CHECK_FALSE(rec.valid(3, 2));
  CHECK(warns(rec, "1 samples are exactly (0, 0, 0)"));
  // a negative residual hides whatever coordinates the point has
  bytes = tela::write_c3d(truth, options);
  bytes.replace(data + 12, 4, std::string("\x00\x00\x80\xBF", 4));  // frame 0, point 0: residual -1.0
  rec = parse_ok(bytes);
  CHECK_FALSE(rec.valid(0, 0));
}

TEST_CASE("c3d: units from POINT:UNITS, the mm default, and the units override") {
  const Recording truth = grid_recording(4, 6);
  for (const char* units : {"mm", "cm", "m"}) {
    C3dWriteOptions options;
    options.units = units;
    const Recording rec = parse_ok(tela::write_c3d(truth, options));
    CHECK(rec.units == units);
    CHECK(rec.units_declared);
    check_same(rec, truth, 1e-6);
  }
  // no POINT:UNITS: millimetres, said
  C3dWriteOptions none;
  none.write_units = false;
  const std::string bytes = tela::write_c3d(truth, none);
  Recording rec = parse_ok(bytes);
  CHECK(rec.units == "mm");
  CHECK_FALSE(rec.units_declared);
  CHECK(warns(rec, "no POINT:UNITS"));
  check_same(rec, truth, 1e-6);
  // the user's override rescales as for the text formats
  tela::RecordingParseOptions metres;
  metres.units = "m";
  rec = parse_ok(bytes, metres);
  CHECK(rec.units == "m");
  CHECK(rec.position(0, 0).x() == doctest::Approx(1000 * truth.position(0, 0).x()));
  CHECK(warns(rec, "units overridden"));
  // unknown units: millimetres, said
  C3dWriteOptions inches;
  std::string odd = tela::write_c3d(truth, inches);
  const std::size_t unit = data_of(odd, record_of(odd, "UNITS"));
  odd[unit] = 'i';
  odd[unit + 1] = 'n';
  rec = parse_ok(odd);
  CHECK(rec.units == "mm");
  CHECK_FALSE(rec.units_declared);
  CHECK(warns(rec, "POINT:UNITS 'in' is not mm, cm or m"));
}

TEST_CASE("c3d: the format override, binary bytes never transcoded, labels in Windows-1252") {
  Recording truth = grid_recording(3, 4);
  truth.names = {"Gr\xF6\xDF" "e", "M\xFC", "  a  "};  // Windows-1252 bytes; spaces around
  const std::string bytes = tela::write_c3d(truth);
  tela::RecordingParseOptions c3d;
  c3d.format = "c3d";
  const Recording rec = parse_ok(bytes, c3d);
  CHECK(rec.names[0] == "Gr\xC3\xB6\xC3\x9F" "e");
  CHECK(rec.names[1] == "M\xC3\xBC");
  CHECK(rec.names[2] == "  a");  // trailing spaces only are padding
  CHECK(warns(rec, "2 point label(s) are not UTF-8: read as Windows-1252"));
  CHECK_FALSE(warns(rec, "the file is not UTF-8 text"));  // the note for text files
  // forcing c3d on a text file names the format; forcing a text format on a C3D file fails
  tela::Result<Recording> r = tela::parse_recording("time,a_x,a_y,a_z\n0,1,2,3\n", c3d);
  REQUIRE_FALSE(r.ok());
  CHECK(contains(r.error, "c3d: the file has 25 bytes, fewer than the 512"));
  tela::RecordingParseOptions text;
  text.format = "csv";
  CHECK_FALSE(tela::parse_recording(bytes, text).ok());
}

TEST_CASE("c3d: empty and repeated labels get unique names") {
  Recording truth = grid_recording(5, 2);
  truth.names = {"a", "", "a", "a (2)", "point 2"};
  const Recording rec = parse_ok(tela::write_c3d(truth));
  CHECK(rec.names == std::vector<std::string>{"a", "point 2 (2)", "a (2)", "a (2) (2)", "point 2"});
  CHECK(warns(rec, "1 point(s) have no label"));
  CHECK(warns(rec, "2 point label(s) repeat an earlier one (first: 'a')"));
}

TEST_CASE("c3d: the up axis from POINT:Y_SCREEN, else detected") {
  Recording truth = grid_recording(4, 3);
  truth.up_axis = 'z';
  Recording rec = parse_ok(tela::write_c3d(truth));
  CHECK(rec.up_axis == 'z');
  CHECK(tela::default_up_axis(rec).source == "format");
  CHECK(tela::default_up_axis(rec).axis == 2);
  truth.up_axis = 'y';
  truth.up_sign = -1;
  rec = parse_ok(tela::write_c3d(truth));
  CHECK(tela::default_up_axis(rec).axis == 1);
  CHECK(tela::default_up_axis(rec).sign == -1);
  truth.up_axis = 0;
  rec = parse_ok(tela::write_c3d(truth));
  CHECK(rec.up_axis == 0);
  CHECK(tela::default_up_axis(rec).source == "detected");
  // something else in Y_SCREEN: detected, with a warning
  truth.up_axis = 'z';
  truth.up_sign = 1;
  std::string bytes = tela::write_c3d(truth);
  bytes[data_of(bytes, record_of(bytes, "Y_SCREEN")) + 1] = 'Q';
  rec = parse_ok(bytes);
  CHECK(rec.up_axis == 0);
  CHECK(warns(rec, "POINT:Y_SCREEN '+Q' is not an axis"));
}

TEST_CASE("c3d: more than 65535 frames through TRIAL:ACTUAL_END_FIELD") {
  const Recording truth = grid_recording(1, 70000);
  C3dWriteOptions options;
  options.trial_fields = true;
  const std::string bytes = tela::write_c3d(truth, options);
  CHECK(word(bytes, 8) == 65535);  // the header's last frame stops there
  const Recording rec = parse_ok(bytes);
  CHECK(rec.frame_count() == 70000);
  CHECK(rec.frame_numbers.back() == 70000);
  check_same(rec, truth, 1e-6);
  CHECK(rec.warnings.empty());
  // without them, the header's 65535 frames are read
  options.trial_fields = false;
  CHECK(parse_ok(tela::write_c3d(truth, options)).frame_count() == 65535);
}

TEST_CASE("c3d: located errors and warnings for broken files, never a crash") {
  const Recording truth = grid_recording(4, 10);
  const std::string good = tela::write_c3d(truth);
  const std::size_t data = (static_cast<std::size_t>(word(good, 16)) - 1) * 512;
  const std::size_t frame_bytes = 4 * 16;
  tela::RecordingParseOptions c3d;
  c3d.format = "c3d";
  auto error = [&](const std::string& bytes) {
    tela::Result<Recording> r = tela::parse_recording(bytes, c3d);
    REQUIRE_FALSE(r.ok());
    CHECK(contains(r.error, "c3d: "));
    return r.error;
  };

  // shorter than the header
  CHECK(contains(error(good.substr(0, 300)), "the file has 300 bytes, fewer than the 512 of a C3D header"));
  // the parameter section's pointer: block 1 (the header), past the end
  std::string bytes = good;
  bytes[0] = 1;
  CHECK(contains(error(bytes), "byte 0: the parameter section is said to start at block 1"));
  bytes[0] = static_cast<char>(200);
  CHECK(contains(error(bytes), "byte 0: the parameter section is said to start at block 200 (byte 101888), past the end"));
  // the key byte
  bytes = good;
  bytes[1] = 0x51;
  CHECK(contains(error(bytes), "byte 1: the key byte is 81"));
  // an unknown processor type
  bytes = good;
  bytes[512 + 3] = 99;
  CHECK(contains(error(bytes), "byte 515: processor type 99 is not 84 (Intel), 85 (DEC) or 86 (MIPS)"));
  // a truncated parameter section (the file ends inside a record)
  const std::size_t labels = record_of(good, "LABELS");
  CHECK(contains(error(good.substr(0, labels + 4)), "truncated"));
  std::string e = error(good.substr(0, labels + 12));
  CHECK(contains(e, "byte " + std::to_string(labels) + ": parameter LABELS runs past the end of the file"));
  // a parameter whose dimensions run past the end: 255 labels of 255 characters in a small file
  bytes = good;
  const std::size_t dims = data_of(bytes, labels) - 2;
  bytes[dims] = static_cast<char>(255);
  bytes[dims + 1] = static_cast<char>(255);
  e = error(bytes);
  INFO(e);
  CHECK(contains(e, "byte " + std::to_string(labels) + ": parameter LABELS runs past the end of the file (its data needs 65025 bytes"));
  // an unknown data type, and an offset pointing backwards
  bytes = good;
  bytes[dims - 2] = 3;
  CHECK(contains(error(bytes), "parameter LABELS has data type 3"));
  bytes = good;
  set_word(bytes, labels + 2 + 6, 0xFFF0);
  CHECK(contains(error(bytes), "byte " + std::to_string(labels + 8) + ": the offset to the next parameter record (-16) points backwards"));
  // no points
  bytes = good;
  set_word(bytes, 2, 0);
  CHECK(contains(error(bytes), "byte 2: the file holds no 3D points"));
  // the data block past the end, or 0
  bytes = good;
  set_word(bytes, 16, 5000);
  CHECK(contains(error(bytes), "byte 16: the data section is said to start at block 5000"));
  set_word(bytes, 16, 0);
  CHECK(contains(error(bytes), "byte 16: the data section is said to start at block 0"));
  // the last frame before the first
  bytes = good;
  set_word(bytes, 6, 20);
  CHECK(contains(error(bytes), "byte 8: the last frame (10) is before the first (20, byte 6)"));
  // a zero scale for integer data; a zero rate
  C3dWriteOptions integers;
  integers.float_data = false;
  bytes = tela::write_c3d(truth, integers);
  bytes.replace(data_of(bytes, record_of(bytes, "SCALE")), 4, std::string(4, '\0'));
  CHECK(contains(error(bytes), "parameter POINT:SCALE (byte "));
  bytes = good;
  bytes.replace(data_of(bytes, record_of(bytes, "RATE")), 4, std::string(4, '\0'));
  CHECK(contains(error(bytes), "parameter POINT:RATE (byte "));

  // a data section shorter than declared: the complete frames, with a warning
  Recording rec = parse_ok(good.substr(0, data + 7 * frame_bytes + 20));
  CHECK(rec.frame_count() == 7);
  CHECK(warns(rec, "the data section holds 7 complete frames of the 10 declared"));
  check_same(rec, [&] {
    Recording head = truth;
    head.positions.conservativeResize(7, Eigen::NoChange);
    head.times.resize(7);
    head.frame_numbers.resize(7);
    return head;
  }(), 1e-6);
  // ... and less than one frame is an error
  e = error(good.substr(0, data + frame_bytes - 1));
  CHECK(contains(e, "byte " + std::to_string(data) + ": the data section holds 63 bytes, less than one frame (64 bytes: 4 points"));
  // POINT:USED disagreeing with the header: the header's count, with a warning
  bytes = good;
  set_word(bytes, data_of(bytes, record_of(bytes, "USED")), 5);
  rec = parse_ok(bytes);
  CHECK(rec.point_count() == 4);
  CHECK(warns(rec, "POINT:USED says 5 points, the header (byte 2) 4"));
  check_same(rec, truth, 1e-6);
  // fewer labels than points
  bytes = good;
  set_word(bytes, 2, 5);
  set_word(bytes, 8, 8);  // 5 points x 8 frames fit in the data of 4 x 10
  rec = parse_ok(bytes);
  CHECK(rec.names.back() == "point 5");
  CHECK(warns(rec, "POINT:LABELS names 4 of the 5 points"));

  // absurd counts: 65535 points over frames 1 to 65535 in a 2 KB file fail at once, without
  // allocating for them
  bytes = good.substr(0, 2048);
  set_word(bytes, 2, 65535);
  set_word(bytes, 6, 1);
  set_word(bytes, 8, 65535);
  set_word(bytes, 16, 4);
  const auto start = std::chrono::steady_clock::now();
  e = error(bytes);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK(contains(e, "less than one frame (1048560 bytes: 65535 points"));
}

TEST_CASE("c3d: random mutations of a valid file parse or fail with a message, never crash") {
  tela::SyntheticRecordingSpec spec;
  spec.size = "A3";
  spec.duration = 0.2;
  spec.rest_before = 0.05;
  const tela::Result<Recording> truth = tela::synthesize_recording(spec);
  REQUIRE(truth.ok());
  std::mt19937 random(11);
  int failures = 0, successes = 0;
  for (int k = 0; k < 200; ++k) {
    C3dWriteOptions options;
    options.processor = k % 3 == 0 ? C3dProcessor::intel : k % 3 == 1 ? C3dProcessor::dec : C3dProcessor::mips;
    options.float_data = k % 2 == 0;
    options.analog_channels = k % 4;
    std::string bytes = tela::write_c3d(*truth.value, options);
    // most mutations in the header and the parameters, where they matter; some anywhere
    const std::size_t region = k % 4 == 0 ? bytes.size() : std::min<std::size_t>(bytes.size(), 1536);
    const int changes = 1 + static_cast<int>(random() % 8);
    for (int c = 0; c < changes; ++c) bytes[random() % region] = static_cast<char>(random() % 256);
    if (k % 5 == 0) bytes.resize(random() % bytes.size());
    const tela::Result<Recording> r = tela::parse_recording(bytes);
    if (r.ok()) {
      ++successes;
      const Recording& rec = *r.value;
      CHECK(rec.frame_count() >= 1);
      CHECK(rec.positions.rows() == rec.frame_count());
      CHECK(rec.positions.cols() == 3 * rec.point_count());
      CHECK(rec.frame_numbers.size() == rec.times.size());
      CHECK(rec.kinds.size() == rec.names.size());
    } else {
      ++failures;
      CHECK_FALSE(r.error.empty());
    }
  }
  MESSAGE("mutations: " << successes << " parsed, " << failures << " failed");
  CHECK(failures > 0);
  CHECK(successes > 0);
}

}  // TEST_SUITE
