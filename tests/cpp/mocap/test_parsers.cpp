// Recording parsers: generated files of every format, the real third-party exports in
// TELA_SHARED_DATA/mocap (skipped when absent), and located errors for broken input.
#include "mocap/motive_csv_writer.h"
#include "mocap/parse_recording.h"
#include "recording_checks.h"
#include "generators/synthetic_recording.h"
#include "mocap/up_axis.h"
#include "mocap/text_encoding.h"

#include <Eigen/Geometry>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using recording_checks::contains;
using recording_checks::parse_error;
using recording_checks::parse_ok;
using tela::Recording;

std::string shared_data() {
  if (const char* env = std::getenv("TELA_SHARED_DATA")) return env;
  return TELA_SHARED_DATA;
}

bool read_text(const std::string& path, std::string& text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  text = s.str();
  return true;
}

// a small synthetic A3 recording (12 markers, 1.01 s at 100 Hz)
Recording small_recording() {
  tela::SyntheticRecordingSpec spec;
  spec.size = "A3";
  spec.duration = 1.0;
  spec.seed = 7;
  tela::Result<Recording> r = tela::synthesize_recording(spec);
  REQUIRE(r.ok());
  return *r.value;
}

// Motive header for two markers a, b; rows appended by the caller
const char* kMotiveHeader =
    "Format Version,1.23,Take Name,t,Capture Frame Rate,120.000000,Export Frame Rate,120.000000,"
    "Total Exported Frames,3,Rotation Type,Quaternion,Length Units,Millimeters,Coordinate Space,Global\n"
    "\n"
    ",Type,Marker,Marker,Marker,Marker,Marker,Marker\n"
    ",Name,C:a,C:a,C:a,C:b,C:b,C:b\n"
    ",ID,1,1,1,2,2,2\n"
    ",,Position,Position,Position,Position,Position,Position\n"
    "Frame,Time (Seconds),X,Y,Z,X,Y,Z\n";

}  // namespace

TEST_SUITE("mocap") {

TEST_CASE("motive: generated export in millimetres round-trips counts, rate, units and gaps") {
  const Recording truth = small_recording();
  const std::string text = tela::write_motive_csv(truth);
  const Recording rec = parse_ok(text);
  CHECK(rec.format == "motive-csv");
  CHECK(rec.format_version == "1.23");
  CHECK(rec.units == "mm");
  CHECK(rec.rate == 100.0);
  CHECK(rec.point_count() == 12);
  CHECK(rec.frame_count() == 101);
  CHECK(rec.names == truth.names);
  CHECK(tela::missing_samples(rec) == tela::missing_samples(truth));
  CHECK(tela::missing_samples(truth) == static_cast<long>(0.05 * 101 * 12));
  for (int f = 0; f < rec.frame_count(); f += 17)
    for (int p = 0; p < rec.point_count(); ++p) {
      REQUIRE(rec.valid(f, p) == truth.valid(f, p));
      if (rec.valid(f, p)) CHECK((rec.position(f, p) - truth.position(f, p)).norm() < 1e-6);  // 3 decimals of mm
    }
  CHECK(rec.warnings.empty());
}

TEST_CASE("motive: metres, a Parent row (Motive 3) and the rounded Time column") {
  Recording truth = small_recording();
  tela::MotiveWriteOptions options;
  options.units = "m";
  options.decimals = 7;
  options.parent_row = true;
  std::string text = tela::write_motive_csv(truth, options);
  const Recording rec = parse_ok(text);
  CHECK(rec.units == "m");
  CHECK(rec.point_count() == 12);
  CHECK(tela::missing_samples(rec) == tela::missing_samples(truth));
  CHECK(std::abs(rec.position(0, 0).x() - truth.position(0, 0).x()) < 1e-7);

  // times come from the frame index and the header's rate, not from a rounded Time column
  std::string rounded = std::string(kMotiveHeader) + "0,0.000,1,2,3,4,5,6\n1,0.008,1,2,3,4,5,6\n2,0.017,1,2,3,,,\n";
  const Recording r = parse_ok(rounded);
  CHECK(r.rate == 120.0);
  CHECK(r.times[1] == doctest::Approx(1.0 / 120).epsilon(1e-12));
  CHECK(r.times[2] == doctest::Approx(2.0 / 120).epsilon(1e-12));
  CHECK(r.position(1, 1).z() == doctest::Approx(0.006));
  CHECK(tela::missing_samples(r) == 1);
  CHECK_FALSE(r.valid(2, 1));
}

TEST_CASE("motive: rigid body, rigid body marker and marker columns") {
  const std::string text =
      "Format Version,1.21,Take Name,rb,Capture Frame Rate,240,Export Frame Rate,60,Length Units,Meters\n"
      "\n"
      ",Type,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,Rigid Body,"
      "Rigid Body Marker,Rigid Body Marker,Rigid Body Marker,Rigid Body Marker,Marker,Marker,Marker\n"
      ",Name,hanger,hanger,hanger,hanger,hanger,hanger,hanger,hanger,hanger:M1,hanger:M1,hanger:M1,hanger:M1,"
      "Unlabeled 1036,Unlabeled 1036,Unlabeled 1036\n"
      ",ID,1,1,1,1,1,1,1,1,1,1,1,1,2,2,2\n"
      ",,Rotation,Rotation,Rotation,Rotation,Position,Position,Position,Mean Marker Error,Position,Position,"
      "Position,Marker Quality,Position,Position,Position\n"
      "Frame,Time (Seconds),X,Y,Z,W,X,Y,Z,,X,Y,Z,,X,Y,Z\n"
      "0,0,0,0,0,1,0.1,0.2,0.3,0.0001,0.11,0.21,0.31,1,1,2,3\n"
      "4,0.066667,,,,,,,,,0.12,0.22,0.32,1,,,\n";
  const Recording rec = parse_ok(text);
  REQUIRE(rec.point_count() == 3);
  CHECK(rec.names[0] == "hanger");
  CHECK(rec.kinds[0] == tela::PointKind::rigid_body);
  CHECK(rec.kinds[1] == tela::PointKind::rigid_body_marker);
  CHECK(rec.kinds[2] == tela::PointKind::marker);
  CHECK(rec.rate == 60.0);  // the export rate, not the capture rate
  CHECK(rec.times[1] == doctest::Approx(4.0 / 60));
  CHECK(rec.position(0, 0).y() == doctest::Approx(0.2));
  CHECK(rec.position(1, 1).x() == doctest::Approx(0.12));
  CHECK(tela::missing_samples(rec) == 2);
}

TEST_CASE("vicon: generated Trajectories section after a Devices section") {
  const std::string text =
      "Devices\n100\n,,Force\nFrame,Sub Frame,Fx\n,,N\n1,0,3\n\n"
      "Trajectories\n200\n,,S:a,,,S:b,,\nFrame,Sub Frame,X,Y,Z,X,Y,Z\n,,mm,mm,mm,mm,mm,mm\n"
      "1,0,1,2,3,4,5,6\n2,0,1.5,2,3,,,\n3,0,2,2,3,4,5,7\n\nModel Outputs\n200\n";
  const Recording rec = parse_ok(text);
  CHECK(rec.format == "vicon-csv");
  CHECK(rec.rate == 200.0);
  CHECK(rec.units == "mm");
  REQUIRE(rec.point_count() == 2);
  CHECK(rec.names[1] == "S:b");
  CHECK(rec.frame_count() == 3);
  CHECK(tela::missing_samples(rec) == 1);
  CHECK(rec.position(2, 1).z() == doctest::Approx(0.007));
  CHECK(rec.times[2] == doctest::Approx(0.01));
}

TEST_CASE("qualisys: TSV with and without the Frame/Time header; zeros are untracked") {
  const std::string with_header =
      "NO_OF_FRAMES\t3\nNO_OF_CAMERAS\t8\nNO_OF_MARKERS\t2\nFREQUENCY\t150\nNO_OF_ANALOG\t0\n"
      "DESCRIPTION\t--\nTIME_STAMP\t2026-01-01, 10:00:00\nDATA_INCLUDED\t3D\nMARKER_NAMES\ta\tb\n"
      "Frame\tTime\ta X\ta Y\ta Z\tb X\tb Y\tb Z\n"
      "1\t0.00000\t10\t20\t30\t40\t50\t60\n2\t0.00667\t11\t20\t30\t0.000\t0.000\t0.000\n"
      "3\t0.01333\t12\t20\t30\t\t\t\n";
  Recording rec = parse_ok(with_header);
  CHECK(rec.format == "qualisys-tsv");
  CHECK(rec.rate == 150.0);
  CHECK(rec.units == "mm");
  CHECK(rec.point_count() == 2);
  CHECK(rec.frame_count() == 3);
  CHECK(tela::missing_samples(rec) == 2);
  CHECK(rec.position(2, 0).x() == doctest::Approx(0.012));

  const std::string bare =
      "NO_OF_FRAMES\t2\nNO_OF_MARKERS\t1\nFREQUENCY\t100\nMARKER_NAMES\tm\n1\t2\t3\n4\t5\t6\n";
  rec = parse_ok(bare);
  CHECK(rec.point_count() == 1);
  CHECK(rec.frame_count() == 2);
  CHECK(rec.position(1, 0).z() == doctest::Approx(0.006));
}

TEST_CASE("plain csv: long and wide forms, declared and guessed units") {
  const std::string long_form =
      "# units: mm\nframe,time,marker,x,y,z\n0,0,a,1,2,3\n0,0,b,4,5,6\n1,0.01,a,1,2,4\n2,0.02,a,1,2,5\n2,0.02,b,,,\n";
  Recording rec = parse_ok(long_form);
  CHECK(rec.format == "csv-long");
  CHECK(rec.units == "mm");
  CHECK(rec.point_count() == 2);
  CHECK(rec.frame_count() == 3);
  CHECK(rec.rate == doctest::Approx(100.0));
  CHECK(tela::missing_samples(rec) == 2);  // b: an absent row and an empty row
  CHECK(rec.position(2, 0).z() == doctest::Approx(0.005));

  const std::string wide = "time,m1_x (m),m1_y (m),m1_z (m),m2_x (m),m2_y (m),m2_z (m)\n0,0,0,1,0.1,0,1\n0.02,0,0,0.99,,,\n";
  rec = parse_ok(wide);
  CHECK(rec.format == "csv-wide");
  CHECK(rec.units == "m");
  CHECK(rec.units_declared);
  CHECK(rec.names == std::vector<std::string>{"m1", "m2"});
  CHECK(rec.rate == doctest::Approx(50.0));
  CHECK(tela::missing_samples(rec) == 1);

  const std::string guessed = "time,p_x,p_y,p_z\n0,100,200,1000\n0.01,101,200,1000\n";
  rec = parse_ok(guessed);
  CHECK(rec.units == "mm");
  CHECK_FALSE(rec.units_declared);
  CHECK(rec.position(0, 0).z() == doctest::Approx(1.0));
  CHECK_FALSE(rec.warnings.empty());

  tela::RecordingParseOptions metres;
  metres.units = "m";
  rec = parse_ok(guessed, metres);
  CHECK(rec.position(0, 0).z() == doctest::Approx(1000.0));
}

TEST_CASE("broken input gives located errors, never a crash") {
  // empty file (also only blank lines)
  CHECK(contains(parse_error(""), "empty"));
  CHECK(contains(parse_error("\n\n \n"), "empty"));
  // header-only Motive exports: no data columns, or no data rows
  const std::string no_columns =
      "Format Version,1.23,Take Name,x,Export Frame Rate,100,Length Units,Meters\n\n,Type\n,Name\n,ID\n,\n"
      "Frame,Time (Seconds)\n";
  std::string e = parse_error(no_columns);
  CHECK(contains(e, "header-only"));
  CHECK(contains(e, "line 7"));
  e = parse_error(kMotiveHeader);
  CHECK(contains(e, "header-only"));
  CHECK(contains(e, "line 7"));
  // truncated file: the last row stops mid-way
  std::string full = std::string(kMotiveHeader) + "0,0,1,2,3,4,5,6\n1,0.008,1,2,3,4,5,6\n";
  e = parse_error(full.substr(0, full.size() - 6));
  CHECK(contains(e, "line 9"));
  CHECK(contains(e, "truncated"));
  // truncated inside the header
  e = parse_error(std::string(kMotiveHeader).substr(0, 200));
  CHECK(contains(e, "truncated"));
  // text in a number cell, located by line and column and named
  e = parse_error(std::string(kMotiveHeader) + "0,0,1,2,3,4,5,6\n1,0.008,1,abc,3,4,5,6\n");
  CHECK(contains(e, "line 9, column 4"));
  CHECK(contains(e, "C:a Y"));
  CHECK(contains(e, "'abc'"));
  e = parse_error("Trajectories\n100\n,,S:a,,\nFrame,Sub Frame,X,Y,Z\n,,mm,mm,mm\n1,0,1,2,x3\n");
  CHECK(contains(e, "line 6, column 5"));
  // mixed units: Vicon's units row, plain CSV suffixes
  e = parse_error("Trajectories\n100\n,,S:a,,\nFrame,Sub Frame,X,Y,Z\n,,mm,mm,m\n1,0,1,2,3\n");
  CHECK(contains(e, "mixed units"));
  CHECK(contains(e, "line 5, column 5"));
  e = parse_error("time,a_x (mm),a_y (mm),a_z (m)\n0,1,2,3\n");
  CHECK(contains(e, "mixed units"));
  CHECK(contains(e, "line 1, column 4"));
  // a bad rate, an unknown layout
  CHECK(contains(parse_error("Format Version,1.23,Export Frame Rate,fast\n"), "line 1, column 4"));
  CHECK(contains(parse_error("a,b,c\n1,2,3\n"), "line 1, column 1"));
  // a number cell in the Qualisys header
  CHECK(contains(parse_error("NO_OF_FRAMES\tmany\nFREQUENCY\t100\nMARKER_NAMES\ta\n1\t2\t3\n"), "line 1, column 2"));
  // counts beyond any integer or with a fraction (converting 2e75 to int is undefined
  // behaviour): named as not a whole number
  CHECK(contains(parse_error("NO_OF_MARKERS\t2e75\nFREQUENCY\t100\nMARKER_NAMES\ta\n1\t2\t3\n"),
                 "line 1, column 2: NO_OF_MARKERS must be a whole number, found '2e75'"));
  CHECK(contains(parse_error("NO_OF_FRAMES\t2.5\nFREQUENCY\t100\nMARKER_NAMES\ta\n1\t2\t3\n"),
                 "NO_OF_FRAMES must be a whole number, found '2.5'"));
  // frame numbers beyond what a long holds (casting 7.8e117 to long is undefined behaviour),
  // in the Motive and plain CSV readers
  CHECK(contains(parse_error(std::string(kMotiveHeader) + "0,0,1,2,3,4,5,6\n7.8e117,0.008,1,2,3,4,5,6\n"),
                 "line 9, column 1: frame number '7.8e117' is not a whole number (of at most 2^53)"));
  CHECK(contains(parse_error("frame,time,marker,x,y,z\n0,0,a,1,2,3\n-1e300,0.01,a,1,2,3\n"),
                 "line 3, column 1: frame number '-1e300' is not a whole number (of at most 2^53)"));
  // a declared frame count beyond any integer is compared as a number (a warning, not a cast)
  std::string huge_total = std::string(kMotiveHeader) + "0,0,1,2,3,4,5,6\n";
  huge_total.replace(huge_total.find("Total Exported Frames,3"), 23, "Total Exported Frames,1e300");
  const tela::Recording announced = parse_ok(huge_total);
  REQUIRE(announced.warnings.size() >= 1);
  CHECK(contains(announced.warnings.back(), "the header announces 1e300 exported frames, the file has 1"));
  // unit guess from magnitudes of any size (the warning cast the largest to long)
  const tela::Recording guessed = parse_ok("time,a_x,a_y,a_z\n0,1,2,3e200\n0.01,1,2,3\n");
  CHECK(guessed.units == "mm");
  CHECK(contains(guessed.warnings.front(), "values up to 3e+200 read as millimetres"));
}

TEST_CASE("names in a Windows code page are read as Windows-1252, with a warning; UTF-8 is kept") {
  // a Motive take saved on a Western-European Windows: take "Größe", markers "Mü" and "b€"
  // (0xF6 0xDF, 0xFC, 0x80 in Windows-1252; not UTF-8)
  auto with_names = [](const std::string& take, const std::string& a, const std::string& b) {
    std::string text = kMotiveHeader;
    text.replace(text.find("Take Name,t,"), 12, "Take Name," + take + ",");
    const std::string row = ",Name,C:a,C:a,C:a,C:b,C:b,C:b";
    text.replace(text.find(row), row.size(), ",Name," + a + "," + a + "," + a + "," + b + "," + b + "," + b);
    return text + "0,0,1,2,3,4,5,6\n";
  };
  const Recording legacy = parse_ok(with_names("Gr\xF6\xDF" "e", "C:M\xFC", "C:b\x80"));
  REQUIRE(legacy.point_count() == 2);
  CHECK(legacy.names[0] == "C:M\xC3\xBC");      // U+00FC in UTF-8
  CHECK(legacy.names[1] == "C:b\xE2\x82\xAC");  // U+20AC
  auto mentions_code_page = [](const Recording& r) {
    int count = 0;
    for (const std::string& w : r.warnings) count += contains(w, "Windows-1252") ? 1 : 0;
    return count;
  };
  CHECK(mentions_code_page(legacy) == 1);
  // the same names written in UTF-8 are read as they are, without a warning
  const Recording modern = parse_ok(with_names("Gr\xC3\xB6\xC3\x9F" "e", "C:M\xC3\xBC", "C:b\xE2\x82\xAC"));
  CHECK(modern.names == legacy.names);
  CHECK(mentions_code_page(modern) == 0);
  CHECK(modern.warnings.size() + 1 == legacy.warnings.size());
  // a located error quoting such bytes is UTF-8 too (the CLI prints it as JSON)
  const std::string e = parse_error(with_names("t", "C:a", "C:b") + "1,0.008,1,\xE9\xE9,3,4,5,6\n");
  CHECK(contains(e, "'\xC3\xA9\xC3\xA9'"));
}

TEST_CASE("every prefix of an export parses or fails with a message, never crashes") {
  tela::SyntheticRecordingSpec spec;
  spec.size = "A3";
  spec.duration = 0.2;
  spec.rest_before = 0.05;
  const tela::Result<Recording> rec = tela::synthesize_recording(spec);
  REQUIRE(rec.ok());
  const std::string text = tela::write_motive_csv(*rec.value);
  REQUIRE(text.size() > 5000);
  int failures = 0;
  for (std::size_t cut = 0; cut < text.size(); cut += 7) {
    const tela::Result<Recording> r = tela::parse_recording(text.substr(0, cut));
    if (r.ok()) {
      CHECK(r.value->frame_count() >= 1);
    } else {
      ++failures;
      CHECK_FALSE(r.error.empty());
    }
  }
  CHECK(failures > 0);
}

TEST_CASE("up axis: the format's convention, detection and the rotation to z-up") {
  Recording rec = parse_ok(std::string(kMotiveHeader) + "0,0,0,1000,0,100,1000,0\n");
  const tela::UpAxis up = tela::default_up_axis(rec);
  CHECK(up.axis == 1);
  CHECK(up.source == "format");
  tela::to_z_up(rec, up);
  CHECK(rec.position(0, 0).z() == doctest::Approx(1.0));  // Motive's y = 1 m becomes z = 1 m
  CHECK(rec.position(0, 1).z() == doctest::Approx(1.0));
  // rotation, not reflection: the distance and the handedness are kept
  const Eigen::Vector3d a(1, 2, 3), b(-2, 0.5, 4), c(0.3, -1, 2);
  Recording three;
  three.names = {"a", "b", "c"};
  three.times = {0};
  three.positions.resize(1, 9);
  three.positions << a.transpose(), b.transpose(), c.transpose();
  const double volume = a.dot(b.cross(c));
  for (const char* axis : {"x", "y", "z", "-x", "-y", "-z"}) {
    Recording r = three;
    tela::to_z_up(r, *tela::parse_up_axis(axis).value);
    CHECK(r.position(0, 0).dot(r.position(0, 1).cross(r.position(0, 2))) == doctest::Approx(volume));
  }
  Recording turned = three;
  tela::to_z_up(turned, *tela::parse_up_axis("-y").value);
  CHECK(turned.position(0, 0).z() == doctest::Approx(-2.0));
  CHECK_FALSE(tela::parse_up_axis("w").ok());
  // detection: the tallest extent
  Recording tall = parse_ok("time,p_x,p_y,p_z,q_x,q_y,q_z\n0,0,0,0,0.1,0.5,0.02\n");
  CHECK(tela::detect_up_axis(tall).axis == 1);
}

TEST_CASE("real exports: Vicon Nexus (pyomeca) and Motive 1.23 rigid bodies (pathviewr)") {
  std::string text;
  const std::string vicon = shared_data() + "/mocap/vicon_nexus_markers_100hz.csv";
  if (!read_text(vicon, text)) {
    MESSAGE("skipped: " << vicon << " is absent");
  } else {
    const Recording rec = parse_ok(text);
    CHECK(rec.format == "vicon-csv");
    CHECK(rec.point_count() == 51);
    CHECK(rec.rate == 100.0);
    CHECK(rec.units == "mm");
    CHECK(rec.frame_count() == 580);
    CHECK(tela::missing_samples(rec) == 305);  // 915 blank cells, whole triples
    CHECK(rec.names.front() == "boite:gauche_ext");
    CHECK(rec.position(0, 0).x() == doctest::Approx(0.0441628));
    CHECK(tela::default_up_axis(rec).axis == 2);
  }
  const std::string motive = shared_data() + "/mocap/motive_rigid_bodies_with_gaps_100hz.csv";
  if (!read_text(motive, text)) {
    MESSAGE("skipped: " << motive << " is absent");
  } else {
    const Recording rec = parse_ok(text);
    CHECK(rec.format == "motive-csv");
    CHECK(rec.format_version == "1.23");
    REQUIRE(rec.point_count() == 3);
    CHECK(rec.names == std::vector<std::string>{"device02", "device03", "device05"});
    CHECK(rec.kinds[0] == tela::PointKind::rigid_body);
    CHECK(rec.rate == 100.0);
    CHECK(rec.units == "m");
    CHECK(rec.frame_count() == 934);
    CHECK(tela::missing_samples(rec, 0) == 1);
    CHECK(tela::missing_samples(rec, 1) == 2);
    CHECK(tela::missing_samples(rec, 2) == 186);
    CHECK(rec.position(0, 0).z() == doctest::Approx(2.000101));
    CHECK(rec.times[1] == doctest::Approx(0.01));
    CHECK(rec.times.back() == doctest::Approx((105100 - 72210) / 100.0));  // frames, not rows
    CHECK(rec.warnings.size() == 1);  // the excerpt has fewer frames than the header announces
  }
}

}  // TEST_SUITE
