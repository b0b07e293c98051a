// Generated files of every format and encoding: what the writers produce (and hand-written
// variants with other property types, orders and separators) parses back to the same cloud.
#include "base/portable_random.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/pcd.h"
#include "pointcloud/ply.h"
#include "pointcloud/text_cloud.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace {

tela::PointCloud random_cloud(int n, bool colors, bool normals, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  tela::PointCloud cloud;
  cloud.points.resize(n, 3);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) cloud.points(i, d) = tela::uniform_real(rng, -2.0, 2.0);
  if (colors) {
    cloud.colors.resize(n);
    for (auto& c : cloud.colors)
      for (auto& channel : c) channel = static_cast<std::uint8_t>(tela::uniform_index(rng, 256));
  }
  if (normals) {
    cloud.normals.resize(n, 3);
    for (int i = 0; i < n; ++i) {
      Eigen::Vector3d v(tela::standard_normal(rng), tela::standard_normal(rng), tela::standard_normal(rng));
      cloud.normals.row(i) = v.normalized().transpose();
    }
  }
  return cloud;
}

// positions as float32 would store them
tela::Positions as_float(const tela::Positions& p) { return p.cast<float>().cast<double>(); }

void check_same(const tela::PointCloud& a, const tela::PointCloud& b, bool float_positions) {
  REQUIRE(a.point_count() == b.point_count());
  if (float_positions) {
    CHECK(as_float(a.points) == b.points);
  } else {
    CHECK(a.points == b.points);
  }
  CHECK(a.colors == b.colors);
  REQUIRE(a.normals.rows() == b.normals.rows());
  if (a.has_normals()) CHECK(as_float(a.normals) == b.normals);
}

tela::PointCloud parse_ok(const std::string& bytes, const std::string& name = "") {
  auto parsed = tela::parse_point_cloud(bytes, name);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error);
  return std::move(*parsed.value);
}

void append_be_float(std::string& out, float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  for (int k = 3; k >= 0; --k) out.push_back(static_cast<char>((bits >> (8 * k)) & 0xff));
}

}  // namespace

TEST_SUITE("pointcloud") {

TEST_CASE("PLY: every encoding round-trips positions, colours, normals, labels and faces") {
  tela::PointCloud cloud = random_cloud(300, true, true, 7);
  cloud.faces.push_back(tela::Face{{0, 1, 2, -1}});
  cloud.faces.push_back(tela::Face{{3, 4, 5, 6}});
  std::vector<int> labels(300);
  for (int i = 0; i < 300; ++i) labels[i] = (i * 7) % 5 - 1;
  for (tela::PlyEncoding encoding :
       {tela::PlyEncoding::ascii, tela::PlyEncoding::binary_little_endian, tela::PlyEncoding::binary_big_endian}) {
    for (bool as_float_positions : {false, true}) {
      CAPTURE(static_cast<int>(encoding));
      CAPTURE(as_float_positions);
      const std::string bytes = tela::write_ply(cloud, encoding, labels, "segment", as_float_positions);
      CHECK(bytes.find("property int segment") != std::string::npos);
      const tela::PointCloud back = parse_ok(bytes, "no_extension");
      CHECK(back.format == std::string("ply ") + (encoding == tela::PlyEncoding::ascii ? "ascii"
                                                  : encoding == tela::PlyEncoding::binary_big_endian ? "binary_big_endian"
                                                                                                     : "binary_little_endian"));
      check_same(cloud, back, as_float_positions);
      REQUIRE(back.faces.size() == 2);
      CHECK(back.faces[0].v == cloud.faces[0].v);
      CHECK(back.faces[1].v == cloud.faces[1].v);
    }
  }
}

TEST_CASE("normals and PLY faces can be left out; they are still read and checked") {
  // what the page asks for (bind_pointcloud.cpp): points and colours only
  tela::PointCloud cloud = random_cloud(200, true, true, 17);
  cloud.faces.push_back(tela::Face{{0, 1, 2, -1}});
  tela::CloudLimits points_only;
  points_only.normals = false;
  points_only.faces = false;
  tela::PointCloud expected = cloud;
  expected.normals.resize(0, 3);
  for (tela::PlyEncoding encoding : {tela::PlyEncoding::ascii, tela::PlyEncoding::binary_little_endian}) {
    CAPTURE(static_cast<int>(encoding));
    const std::string bytes = tela::write_ply(cloud, encoding, {}, "", false);
    const auto back = tela::parse_point_cloud(bytes, "", points_only);
    REQUIRE_MESSAGE(back.ok(), back.error);
    check_same(expected, *back.value, false);
    CHECK_FALSE(back.value->has_normals());
    CHECK(back.value->faces.empty());
    CHECK(parse_ok(bytes).faces.size() == 1);  // kept by default
    // a face index out of range is an error whether or not faces are kept
    std::string bad = bytes;
    if (encoding == tela::PlyEncoding::ascii) {
      const std::size_t face = bad.rfind("3 0 1 2");
      REQUIRE(face != std::string::npos);
      bad.replace(face, 7, "3 0 1 999");
    } else {
      const std::int32_t index = 999;
      std::memcpy(&bad[bad.size() - 4], &index, 4);
    }
    const auto rejected = tela::parse_point_cloud(bad, "", points_only);
    REQUIRE_FALSE(rejected.ok());
    CHECK(rejected.error.find("vertex index 999 out of range") != std::string::npos);
  }
  const std::string pcd =
      "VERSION 0.7\nFIELDS x y z normal_x normal_y normal_z\nSIZE 4 4 4 4 4 4\nTYPE F F F F F F\n"
      "COUNT 1 1 1 1 1 1\nWIDTH 2\nHEIGHT 1\nPOINTS 2\nDATA ascii\n0 0 0 0 0 1\n1 2 3 0 1 0\n";
  CHECK(parse_ok(pcd).normals.row(1) == Eigen::RowVector3d(0, 1, 0));
  const auto back = tela::parse_point_cloud(pcd, "", points_only);
  REQUIRE_MESSAGE(back.ok(), back.error);
  CHECK_FALSE(back.value->has_normals());
  CHECK(back.value->points.row(1) == Eigen::RowVector3d(1, 2, 3));
  std::string bad = pcd;
  bad.replace(bad.size() - 2, 1, "x");  // text in a normal's cell
  CHECK_FALSE(tela::parse_point_cloud(bad, "", points_only).ok());
}

TEST_CASE("PLY: other property types and orders, float colours, extra elements, indented header") {
  // int16 x, extra properties before and after, double z, colours as float in [0, 1],
  // an unrelated element before the vertices, a pentagon face (fanned into 3 triangles)
  const std::string ascii =
      "ply\n"
      "  format ascii 1.0\n"
      "  comment made by hand\n"
      "  element camera 1\n"
      "  property float focal\n"
      "  element vertex 5\n"
      "  property uchar quality\n"
      "  property short x\n"
      "  property float y\n"
      "  property double z\n"
      "  property float red\n  property float green\n  property float blue\n"
      "  property list uchar int extra_list\n"
      "  element face 1\n"
      "  property list uchar int vertex_indices\n"
      "  end_header\n"
      "35.5\n"
      "1 1 0.5 -1.25 1 0 0 2 7 8\n"
      "2 -3 1.5 2 0 1 0 0\n"
      "3 4 2.5 3 0 0 1 1 9\n"
      "4 5 3.5 4 0.5 0.5 0.5 0\n"
      "5 6 4.5 5 1 1 1 0\n"
      "5 0 1 2 3 4\n";
  const tela::PointCloud cloud = parse_ok(ascii);
  REQUIRE(cloud.point_count() == 5);
  CHECK(cloud.points.row(0) == Eigen::RowVector3d(1, 0.5, -1.25));
  CHECK(cloud.points.row(1) == Eigen::RowVector3d(-3, 1.5, 2));
  CHECK(cloud.colors[0] == std::array<std::uint8_t, 3>{255, 0, 0});
  CHECK(cloud.colors[3] == std::array<std::uint8_t, 3>{128, 128, 128});  // 127.5 rounds up
  REQUIRE(cloud.faces.size() == 3);
  CHECK(cloud.faces[2].v == std::array<int, 4>{0, 3, 4, -1});

  // the same vertices, big-endian binary with float x y z and uchar colours, then a face
  std::string be = "ply\nformat binary_big_endian 1.0\nelement vertex 2\nproperty float x\nproperty float y\n"
                   "property float z\nproperty uchar red\nproperty uchar green\nproperty uchar blue\n"
                   "property int16 intensity\nend_header\n";
  append_be_float(be, 1.0f); append_be_float(be, -2.5f); append_be_float(be, 3.25f);
  be += std::string("\x0a\x14\x1e", 3) + std::string("\x01\x02", 2);
  append_be_float(be, 0.125f); append_be_float(be, 1e6f); append_be_float(be, -0.0f);
  be += std::string("\xff\x00\x80", 3) + std::string("\xff\xfe", 2);
  const tela::PointCloud big = parse_ok(be, "scan.ply");
  REQUIRE(big.point_count() == 2);
  CHECK(big.points.row(0) == Eigen::RowVector3d(1, -2.5, 3.25));
  CHECK(big.points.row(1) == Eigen::RowVector3d(0.125, 1e6, 0));
  CHECK(big.colors[0] == std::array<std::uint8_t, 3>{10, 20, 30});
  CHECK(big.colors[1] == std::array<std::uint8_t, 3>{255, 0, 128});

  // binary vertices with a list among their properties have no fixed record size: they are
  // read value by value (fixed-size records are read at their offsets), to the same result
  std::string listed = "ply\nformat binary_big_endian 1.0\nelement vertex 2\nproperty float x\n"
                       "property list uchar int16 extra\nproperty float y\nproperty float z\nend_header\n";
  append_be_float(listed, 1.0f);
  listed += std::string("\x02\x00\x07\x00\x08", 5);
  append_be_float(listed, -2.5f); append_be_float(listed, 3.25f);
  append_be_float(listed, 0.125f);
  listed += std::string("\x00", 1);
  append_be_float(listed, 1e6f); append_be_float(listed, -0.0f);
  const tela::PointCloud with_list = parse_ok(listed, "scan.ply");
  REQUIRE(with_list.point_count() == 2);
  CHECK(with_list.points.row(0) == Eigen::RowVector3d(1, -2.5, 3.25));
  CHECK(with_list.points.row(1) == Eigen::RowVector3d(0.125, 1e6, 0));
  // a fixed-size vertex record cut short still names the vertex and property it stopped at
  const auto cut = tela::parse_point_cloud(be.substr(0, be.size() - 4), "scan.ply");
  REQUIRE_FALSE(cut.ok());
  CHECK_MESSAGE(cut.error.find("vertex 1") != std::string::npos, cut.error);
}

TEST_CASE("PLY: CRLF header before binary data, byte-order mark, obj_info") {
  std::string bytes = "\xEF\xBB\xBFply\r\nformat binary_little_endian 1.0\r\nobj_info scanner\r\nelement vertex 1\r\n"
                      "property float x\r\nproperty float y\r\nproperty float z\r\nend_header\r\n";
  const float xyz[3] = {0.5f, 10.0f, -3.0f};  // 10.0f starts with byte 0x00, 0x0a would follow a \r
  bytes.append(reinterpret_cast<const char*>(xyz), sizeof(xyz));
  const tela::PointCloud cloud = parse_ok(bytes);
  REQUIRE(cloud.point_count() == 1);
  CHECK(cloud.points.row(0) == Eigen::RowVector3d(0.5, 10, -3));
}

TEST_CASE("PLY: non-finite vertices are dropped with the faces through them") {
  const std::string ascii =
      "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n"
      "element face 2\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\nnan 0 0\n1 0 0\n0 1 0\n3 0 2 3\n3 0 1 2\n";
  const tela::PointCloud cloud = parse_ok(ascii);
  CHECK(cloud.point_count() == 3);
  CHECK(cloud.dropped_non_finite == 1);
  REQUIRE(cloud.faces.size() == 1);
  CHECK(cloud.faces[0].v == std::array<int, 4>{0, 1, 2, -1});
}

TEST_CASE("PCD: ascii, binary and binary_compressed round-trip, unorganized and organized") {
  tela::PointCloud cloud = random_cloud(500, true, false, 11);
  for (tela::PcdEncoding encoding : {tela::PcdEncoding::ascii, tela::PcdEncoding::binary, tela::PcdEncoding::binary_compressed}) {
    CAPTURE(static_cast<int>(encoding));
    const tela::PointCloud back = parse_ok(tela::write_pcd(cloud, encoding), "x.ply");  // wrong hint on purpose
    check_same(cloud, back, true);
    CHECK(back.grid_width == 0);
  }
  // an organized 40 x 30 grid with a third of the pixels invalid
  tela::PointCloud grid = random_cloud(800, true, false, 12);
  grid.grid_width = 40;
  grid.grid_height = 30;
  std::mt19937_64 rng(13);
  std::vector<int> pixels(1200);
  for (int i = 0; i < 1200; ++i) pixels[i] = i;
  for (int i = 1199; i > 0; --i) std::swap(pixels[i], pixels[tela::uniform_index(rng, i + 1)]);
  pixels.resize(800);
  std::sort(pixels.begin(), pixels.end());
  grid.grid_index = pixels;
  for (tela::PcdEncoding encoding : {tela::PcdEncoding::ascii, tela::PcdEncoding::binary, tela::PcdEncoding::binary_compressed}) {
    CAPTURE(static_cast<int>(encoding));
    const std::string bytes = tela::write_pcd(grid, encoding);
    CHECK(bytes.find("WIDTH 40\nHEIGHT 30\n") != std::string::npos);
    const tela::PointCloud back = parse_ok(bytes);
    check_same(grid, back, true);
    CHECK(back.grid_width == 40);
    CHECK(back.grid_height == 30);
    CHECK(back.dropped_non_finite == 400);
    CHECK(back.grid_index == pixels);
  }
}

TEST_CASE("PCD: float-packed rgb in ascii, rgba, fields with COUNT > 1, doubles, other fields") {
  // rgb as the float whose bits are 0x00FF8040 (PCL's ascii output), written with full precision
  const std::uint32_t packed = 0x00FF8040u;
  float packed_float;
  std::memcpy(&packed_float, &packed, 4);
  char rgb_text[64];
  std::snprintf(rgb_text, sizeof(rgb_text), "%.9g", static_cast<double>(packed_float));
  const std::string ascii = std::string("# .PCD v0.7\nVERSION 0.7\nFIELDS x y z rgb\nSIZE 4 4 4 4\nTYPE F F F F\n"
                                        "COUNT 1 1 1 1\nWIDTH 2\nHEIGHT 1\nPOINTS 2\nDATA ascii\n") +
                            "1 2 3 " + rgb_text + "\nnan nan nan " + rgb_text + "\n";
  const tela::PointCloud a = parse_ok(ascii);
  REQUIRE(a.point_count() == 1);
  CHECK(a.dropped_non_finite == 1);
  CHECK(a.colors[0] == std::array<std::uint8_t, 3>{0xFF, 0x80, 0x40});

  // binary: intensity (U 2), x y z as F 8, a 3-element descriptor (F 4 x 3), rgba (U 4 = 0xAARRGGBB)
  std::string binary = "VERSION .7\nFIELDS intensity x y z descriptor rgba\nSIZE 2 8 8 8 4 4\nTYPE U F F F F U\n"
                       "COUNT 1 1 1 1 3 1\nWIDTH 1\nHEIGHT 1\nPOINTS 1\nDATA binary\n";
  auto append = [&binary](const void* p, int size) { binary.append(static_cast<const char*>(p), size); };
  const std::uint16_t intensity = 7;
  const double xyz[3] = {0.1, -0.2, 1.5};
  const float descriptor[3] = {1, 2, 3};
  const std::uint32_t rgba = 0x80102030u;
  append(&intensity, 2);
  append(xyz, 24);
  append(descriptor, 12);
  append(&rgba, 4);
  const tela::PointCloud b = parse_ok(binary);
  REQUIRE(b.point_count() == 1);
  CHECK(b.points.row(0) == Eigen::RowVector3d(0.1, -0.2, 1.5));
  CHECK(b.colors[0] == std::array<std::uint8_t, 3>{0x10, 0x20, 0x30});
}

TEST_CASE("XYZ/CSV/TXT: separators, header lines, colour columns") {
  SUBCASE("whitespace, 3 columns, comment and a point-count line") {
    const tela::PointCloud c = parse_ok("# scanner export\n3\n0 0 0\n1.5\t2 -3\n  4 5 6e-1  \n", "a.xyz");
    REQUIRE(c.point_count() == 3);
    CHECK(c.points.row(1) == Eigen::RowVector3d(1.5, 2, -3));
    CHECK(c.points.row(2) == Eigen::RowVector3d(4, 5, 0.6));
    CHECK_FALSE(c.has_colors());
    CHECK(c.format == "xyz");
  }
  SUBCASE("CSV with a header naming the columns in another order, CRLF line ends") {
    const tela::PointCloud c = parse_ok("id,Z,Y,X,Red,Green,Blue\r\n1,3,2,1,255,0,10\r\n2,6,5,4,0,128,20\r\n", "a.csv");
    REQUIRE(c.point_count() == 2);
    CHECK(c.points.row(0) == Eigen::RowVector3d(1, 2, 3));
    CHECK(c.points.row(1) == Eigen::RowVector3d(4, 5, 6));
    REQUIRE(c.has_colors());
    CHECK(c.colors[1] == std::array<std::uint8_t, 3>{0, 128, 20});
  }
  SUBCASE("6 columns of unit colours, semicolons") {
    const tela::PointCloud c = parse_ok("0;0;0;1;0;0.5\n1;1;1;0;1;0\n", "a.txt");
    REQUIRE(c.has_colors());
    CHECK(c.colors[0] == std::array<std::uint8_t, 3>{255, 0, 128});
  }
  SUBCASE("trailing delimiters and a text column after x y z") {
    const tela::PointCloud c = parse_ok("1,2,3,\n4,5,6,\n", "a.csv");
    CHECK(c.point_count() == 2);
    const tela::PointCloud labelled = parse_ok("x y z r g b class\n0 0 0 1 2 3 table\n1 1 1 4 5 6 cloth\n", "");
    REQUIRE(labelled.point_count() == 2);
    CHECK(labelled.colors[1] == std::array<std::uint8_t, 3>{4, 5, 6});
    const tela::PointCloud guessed = parse_ok("0 0 0 1 2 3\n1 1 1 a b c\n", "");
    CHECK(guessed.point_count() == 2);
    CHECK_FALSE(guessed.has_colors());
  }
  SUBCASE("6 columns that are normals (negative values) are not colours") {
    const tela::PointCloud c = parse_ok("0 0 0 0 0 -1\n1 1 1 0 1 0\n");
    CHECK_FALSE(c.has_colors());
  }
}

TEST_CASE("OBJ: v lines (with and without vertex colours), everything else ignored") {
  const tela::PointCloud c = parse_ok("# exported\nmtllib a.mtl\no cloth\nv 0 0 0\nv 1 0 0\nvn 0 0 1\nv 0 1 0.5\nf 1 2 3\n", "");
  REQUIRE(c.point_count() == 3);
  CHECK(c.format == "obj");
  CHECK(c.points.row(2) == Eigen::RowVector3d(0, 1, 0.5));
  CHECK_FALSE(c.has_colors());
  const tela::PointCloud colored = parse_ok("v 0 0 0 1 0 0\nv 1 0 0 0 0.5 1\n");
  REQUIRE(colored.has_colors());
  CHECK(colored.colors[1] == std::array<std::uint8_t, 3>{0, 128, 255});
}

TEST_CASE("format sniffing: content first, extension only for ties") {
  CHECK(tela::sniff_cloud_format("ply\nformat ascii 1.0\n", "a.pcd") == tela::CloudFormat::ply);
  CHECK(tela::sniff_cloud_format("# .PCD v0.7\nVERSION 0.7\n", "a.ply") == tela::CloudFormat::pcd);
  CHECK(tela::sniff_cloud_format("VERSION .5\nFIELDS x y z\n", "") == tela::CloudFormat::pcd);
  CHECK(tela::sniff_cloud_format("v 1 2 3\nv 4 5 6\n", "a.xyz") == tela::CloudFormat::obj);
  CHECK(tela::sniff_cloud_format("1 2 3\n4 5 6\n", "a.obj") == tela::CloudFormat::xyz);
  CHECK(tela::sniff_cloud_format("x,y,z\n", "a.csv") == tela::CloudFormat::xyz);
  CHECK(tela::sniff_cloud_format("hello\n", "a.bin") == tela::CloudFormat::unknown);
  const auto mocap = tela::parse_point_cloud("Format Version,1.23,Take Name,x\n\n", "take.csv");
  CHECK_FALSE(mocap.ok());
}

}
