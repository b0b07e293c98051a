// Malformed input: located messages (line / byte offset and what was expected), size limits,
// and a small fuzz (random truncations and bit flips of valid files of every format) that
// must never crash or hang. Build with -fsanitize=address,undefined to make the fuzz strict.
#include "base/portable_random.h"
#include "pointcloud/lzf.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/pcd.h"
#include "pointcloud/ply.h"

#include <doctest/doctest.h>

#include <random>
#include <string>

namespace {

std::string parse_error(const std::string& bytes, const std::string& name = "",
                        const tela::CloudLimits& limits = {}) {
  const auto parsed = tela::parse_point_cloud(bytes, name, limits);
  if (parsed.ok()) return "(parsed without error)";
  return parsed.error;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

tela::PointCloud small_cloud(int n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  tela::PointCloud cloud;
  cloud.points.resize(n, 3);
  cloud.colors.resize(n);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) cloud.points(i, d) = tela::uniform_real(rng, -1.0, 1.0);
    for (auto& c : cloud.colors[i]) c = static_cast<std::uint8_t>(tela::uniform_index(rng, 256));
  }
  return cloud;
}

const char* kPlyHeader = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nproperty float z\nend_header\n";

}  // namespace

TEST_SUITE("pointcloud") {

TEST_CASE("malformed PLY: located errors") {
  CHECK(contains(parse_error("ply\nformat ascii 1.0\nelement vertex 1\nproperty flot x\nend_header\n"),
                 "PLY header line 4: expected 'property <type> <name>'"));
  CHECK(contains(parse_error("ply\nformat ascii 2\nelement vertex x\n"), "PLY header line 3: expected 'element <name> <count>'"));
  CHECK(contains(parse_error("ply\nformat binary_middle_endian 1.0\n"), "PLY header line 2: unknown format 'binary_middle_endian'"));
  CHECK(contains(parse_error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n0 0\n"),
                 "PLY header line 3: the vertex element has no 'z' property"));
  CHECK(contains(parse_error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n"), "the file ends before 'end_header'"));
  CHECK(contains(parse_error(std::string(kPlyHeader) + "0 0 0\n1 zz 2\n"),
                 "PLY line 9 (vertex 1, property 'y'): expected a number, found 'zz'"));
  CHECK(contains(parse_error(std::string(kPlyHeader) + "0 0 0\n1 2\n"),
                 "(vertex 1, property 'z'): the file ends; expected a number"));
  CHECK(contains(parse_error("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
                             "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n3 0 1 2\n"),
                 "vertex index 1 out of range [0, 1)"));
  // float indices beyond any integer, or NaN, are reported as read (casting them to an integer
  // for the message would be undefined behaviour)
  const std::string float_faces = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                  "property float z\nelement face 1\nproperty list uchar double vertex_indices\nend_header\n"
                                  "0 0 0\n1 0 0\n0 1 0\n";
  CHECK(contains(parse_error(float_faces + "3 0 1 1e300\n"), "vertex index 1.0000000000000001e+300 out of range [0, 3)"));
  CHECK(contains(parse_error(float_faces + "3 0 nan 2\n"), "vertex index nan out of range [0, 3)"));
  // an element of no properties and an absurd count is empty, not an endless loop
  const auto empty_element = tela::parse_point_cloud(
      "ply\nformat ascii 1.0\nelement nothing 1000000000000000000\nelement vertex 1\nproperty float x\n"
      "property float y\nproperty float z\nend_header\n1 2 3\n", "");
  REQUIRE_MESSAGE(empty_element.ok(), empty_element.error);
  CHECK(empty_element.value->point_count() == 1);
  // binary: truncated data, with the byte offset
  std::string binary = tela::write_ply(small_cloud(10, 1), tela::PlyEncoding::binary_little_endian);
  const std::size_t header = binary.find("end_header\n") + 11;
  binary.resize(binary.size() - 5);
  const std::string error = parse_error(binary);
  CHECK(contains(error, "PLY binary data, byte " + std::to_string(header + 9 * 27 + 16)));
  CHECK(contains(error, "(vertex 9, property 'z'): the file ends; expected 8 more byte(s)"));
  // a vertex count that cannot fit in the file is refused before allocating
  CHECK(contains(parse_error("ply\nformat binary_little_endian 1.0\nelement vertex 40000000\nproperty float x\n"
                             "property float y\nproperty float z\nend_header\n\x01\x02"),
                 "the file declares 40000000 vertices, but only 2 bytes of data follow the header"));
}

TEST_CASE("lines of form feeds and vertical tabs are blank in every text format") {
  // trim() and split_tokens() agree on what is blank (\f and \v included): a line of them is
  // an empty line, never tokens[0] of an empty token list
  CHECK(contains(parse_error("\f\nu 1@"), "format"));
  const std::string pcd_head = "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z\n\f\v\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\n"
                               "WIDTH 1\nHEIGHT 1\nPOINTS 1\nDATA ascii\n1 2 3\n";
  const auto pcd = tela::parse_point_cloud(pcd_head, "");
  REQUIRE_MESSAGE(pcd.ok(), pcd.error);
  CHECK(pcd.value->points.rows() == 1);
  const auto xyz = tela::parse_point_cloud("1 2 3\n\f\n4 5 6\n\v\n7 8 9\n", "");
  REQUIRE_MESSAGE(xyz.ok(), xyz.error);
  CHECK(xyz.value->points.rows() == 3);
  const auto ply = tela::parse_point_cloud(std::string("ply\n\f\n") + (kPlyHeader + 4) + "0 0 0\n1 1 1\n", "");
  REQUIRE_MESSAGE(ply.ok(), ply.error);
  CHECK(ply.value->points.rows() == 2);
}

TEST_CASE("malformed PCD: located errors") {
  const std::string head = "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\n";
  CHECK(contains(parse_error("# .PCD v0.7\nFIELDS x y z\nSIZE 4 4\n"), "PCD header line 3: SIZE has 2 entries, expected one per field (3)"));
  CHECK(contains(parse_error("# .PCD v0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F Q F\n"), "PCD header line 4: TYPE entry 2 is 'Q'"));
  CHECK(contains(parse_error("# .PCD\nFIELDS a b c\nSIZE 4 4 4\nTYPE F F F\nWIDTH 1\nHEIGHT 1\nDATA ascii\n1 2 3\n"),
                 "PCD header line 2: FIELDS must include x, y and z"));
  CHECK(contains(parse_error(head + "WIDTH 3\nHEIGHT 2\nPOINTS 5\nDATA ascii\n"), "WIDTH x HEIGHT = 3 x 2 does not match POINTS 5"));
  CHECK(contains(parse_error(head + "WIDTH 2\nHEIGHT 1\nPOINTS 2\nDATA lzma\n"), "PCD header line 10: unknown DATA type 'lzma'"));
  CHECK(contains(parse_error(head + "WIDTH 2\nHEIGHT 1\nPOINTS 2\nDATA ascii\n1 2 3\n4 x 6\n"),
                 "PCD line 12, value 2 (point 1): expected a number, found 'x'"));
  CHECK(contains(parse_error(head + "WIDTH 2\nHEIGHT 1\nPOINTS 2\nDATA ascii\n1 2 3\n4 5\n"),
                 "PCD line 12 (point 1): expected 3 values, found 2"));
  CHECK(contains(parse_error(head + "WIDTH 3\nHEIGHT 1\nPOINTS 3\nDATA ascii\n1 2 3\n4 5 6\n"),
                 "the file ends after 2 of 3 points"));
  const std::string binary_head = head + "WIDTH 4\nHEIGHT 1\nPOINTS 4\nDATA binary\n";
  CHECK(contains(parse_error(binary_head + std::string(40, '\0')),
                 "PCD binary data, byte " + std::to_string(binary_head.size()) + ": 4 points of 12 bytes need 48 bytes, but the file has 40"));
  // binary_compressed: wrong sizes and corrupt LZF
  tela::PointCloud cloud = small_cloud(50, 2);
  std::string compressed = tela::write_pcd(cloud, tela::PcdEncoding::binary_compressed);
  const std::size_t data_at = compressed.find("binary_compressed\n") + 18;
  std::string wrong_size = compressed;
  wrong_size[data_at + 4] = static_cast<char>(wrong_size[data_at + 4] + 1);
  CHECK(contains(parse_error(wrong_size), "PCD binary_compressed data, byte " + std::to_string(data_at + 4) +
                                              ": the uncompressed size is 801 bytes, expected 800 (50 points of 16 bytes)"));
  std::string truncated = compressed.substr(0, compressed.size() - 10);
  CHECK(contains(parse_error(truncated), "(truncated file?)"));
  // a small file claiming a huge cloud is refused before the buffer is allocated
  std::string huge = "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nWIDTH 20000000\nHEIGHT 1\nDATA binary_compressed\n";
  for (std::uint32_t word : {16u, 240000000u}) {
    for (int k = 0; k < 4; ++k) huge.push_back(static_cast<char>((word >> (8 * k)) & 0xff));
  }
  huge += std::string(16, '\x1f');
  CHECK(contains(parse_error(huge), "16 compressed bytes cannot hold 240000000 bytes of points"));
  std::string corrupt = compressed;
  corrupt[data_at + 8] = static_cast<char>(0xE0);  // first chunk: a back reference into nothing
  CHECK(contains(parse_error(corrupt), "PCD binary_compressed data, byte " + std::to_string(data_at + 8) +
                                           ": LZF error: a back reference points before the start of the data"));
}

TEST_CASE("malformed XYZ and OBJ, unknown formats: located errors") {
  CHECK(contains(parse_error("1 2 3\n4 5 6\n7 8 x\n", "a.xyz"), "XYZ line 3, column 3: expected a number, found 'x'"));
  CHECK(contains(parse_error("1,2,3\n4,5\n", "a.csv"), "XYZ line 2: expected 3 columns like the first data row, found 2"));
  CHECK(contains(parse_error("x y z\n", "a.xyz"), "XYZ: no data rows"));
  CHECK(contains(parse_error("v 1 2 3\nv 1 2\n"), "OBJ line 2: expected 'v x y z'"));
  CHECK(contains(parse_error("v 1 2 3\nv 1 2 q\n"), "OBJ line 2, value 3: expected a number, found 'q'"));
  CHECK(contains(parse_error(std::string("\x00\x01\x02garbage", 10), "data.bin"), "unrecognised point-cloud format"));
  CHECK(contains(parse_error("", "a.ply"), "the file is empty"));
}

TEST_CASE("size limits give a clear message") {
  tela::CloudLimits limits;
  limits.max_points = 100;
  const tela::PointCloud cloud = small_cloud(101, 3);
  CHECK(contains(parse_error(tela::write_ply(cloud, tela::PlyEncoding::binary_little_endian), "", limits),
                 "declares 101 vertices, more than the limit of 100 points"));
  CHECK(contains(parse_error(tela::write_pcd(cloud, tela::PcdEncoding::binary_compressed), "", limits),
                 "the file declares 101 points, more than the limit of 100"));
  std::string rows;
  for (int i = 0; i < 101; ++i) rows += "1 2 3\n";
  CHECK(contains(parse_error(rows, "", limits), "XYZ line 101: more than the limit of 100 points"));
  limits = {};
  limits.max_bytes = 1000;
  CHECK(contains(parse_error(rows + rows, "", limits), "the file has 1212 bytes, more than the limit of 1000"));
  // exactly at the limit is fine
  limits = {};
  limits.max_points = 101;
  CHECK(tela::parse_point_cloud(rows, "", limits).ok());
}

TEST_CASE("fuzz: truncations and bit flips of every format never crash") {
  const tela::PointCloud cloud = small_cloud(40, 4);
  tela::PointCloud with_faces = cloud;
  with_faces.faces.push_back(tela::Face{{0, 1, 2, -1}});
  std::vector<std::string> files = {
      tela::write_ply(with_faces, tela::PlyEncoding::ascii),
      tela::write_ply(with_faces, tela::PlyEncoding::binary_little_endian),
      tela::write_ply(with_faces, tela::PlyEncoding::binary_big_endian, {}, "label", true),
      tela::write_pcd(cloud, tela::PcdEncoding::ascii),
      tela::write_pcd(cloud, tela::PcdEncoding::binary),
      tela::write_pcd(cloud, tela::PcdEncoding::binary_compressed),
      "x,y,z,r,g,b\n1,2,3,4,5,6\n7,8,9,10,11,12\n",
      "v 1 2 3\nv 4 5 6\nf 1 2 3\n"};
  std::mt19937_64 rng(2024);
  int parsed = 0, failed = 0;
  for (const std::string& file : files) {
    for (int trial = 0; trial < 150; ++trial) {
      std::string mutated = file;
      if (trial % 3 == 0) {
        mutated.resize(tela::uniform_index(rng, static_cast<int>(file.size())));
      } else {
        const int flips = 1 + tela::uniform_index(rng, 4);
        for (int f = 0; f < flips; ++f) {
          const int at = tela::uniform_index(rng, static_cast<int>(mutated.size()));
          mutated[at] = static_cast<char>(mutated[at] ^ (1 << tela::uniform_index(rng, 8)));
        }
      }
      const auto result = tela::parse_point_cloud(mutated, "");
      if (result.ok()) {
        ++parsed;
        // whatever parsed is a consistent cloud
        const tela::PointCloud& c = *result.value;
        CHECK(c.points.allFinite());
        CHECK((c.colors.empty() || static_cast<int>(c.colors.size()) == c.point_count()));
        for (const tela::Face& face : c.faces)
          for (int k = 0; k < face.size(); ++k) CHECK((face.v[k] >= 0 && face.v[k] < c.point_count()));
      } else {
        ++failed;
        CHECK_FALSE(result.error.empty());
      }
    }
  }
  MESSAGE("fuzz: " << parsed << " mutated files parsed, " << failed << " refused with a message");
  CHECK(failed > 0);
}

TEST_CASE("LZF: round trip and every truncation of a compressed stream is detected") {
  std::mt19937_64 rng(5);
  std::string data;
  for (int i = 0; i < 20000; ++i) {
    // repetitive with noise: long matches, short matches and literals
    data.push_back(static_cast<char>(i % 97 < 60 ? (i % 13) : tela::uniform_index(rng, 256)));
  }
  const std::string compressed = tela::lzf_compress(data);
  CHECK(compressed.size() < data.size());
  std::vector<std::uint8_t> out(data.size());
  REQUIRE(tela::lzf_decompress(compressed, out).status == tela::LzfStatus::ok);
  CHECK(std::string(out.begin(), out.end()) == data);
  // incompressible data grows by at most one byte in 32
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(tela::uniform_index(rng, 256));
  const std::string noisy = tela::lzf_compress(noise);
  CHECK(noisy.size() <= noise.size() + noise.size() / 32 + 1);
  std::vector<std::uint8_t> noise_out(noise.size());
  REQUIRE(tela::lzf_decompress(noisy, noise_out).status == tela::LzfStatus::ok);
  CHECK(std::string(noise_out.begin(), noise_out.end()) == noise);
  // any proper prefix fails (truncated chunk or too few bytes), none overflows
  for (std::size_t cut = 0; cut < compressed.size(); cut += 7) {
    std::vector<std::uint8_t> partial(data.size());
    CHECK(tela::lzf_decompress(compressed.substr(0, cut), partial).status != tela::LzfStatus::ok);
  }
  // a too-small output buffer is reported, not overrun
  std::vector<std::uint8_t> small(data.size() - 1);
  CHECK(tela::lzf_decompress(compressed, small).status == tela::LzfStatus::output_overflow);
  // empty in, empty out
  std::vector<std::uint8_t> none;
  CHECK(tela::lzf_compress("").empty());
  CHECK(tela::lzf_decompress("", none).status == tela::LzfStatus::ok);
}

}
