#include "mocap/text_encoding.h"

#include <cstdint>

namespace tela {

namespace {

// Windows-1252 bytes 0x80-0x9F (the rest of 0xA0-0xFF is Latin-1, the same code points);
// 0 marks the five unassigned bytes
constexpr std::uint16_t kWindows1252High[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

void append_code_point(std::uint32_t c, std::string& out) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

bool is_utf8(std::string_view bytes) {
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  auto at = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  while (i < n) {
    const unsigned char b = at(i);
    if (b < 0x80) {
      ++i;
      continue;
    }
    int length = 0;
    std::uint32_t c = 0, least = 0;
    if ((b & 0xE0) == 0xC0) length = 2, c = b & 0x1F, least = 0x80;
    else if ((b & 0xF0) == 0xE0) length = 3, c = b & 0x0F, least = 0x800;
    else if ((b & 0xF8) == 0xF0) length = 4, c = b & 0x07, least = 0x10000;
    else return false;
    if (i + length > n) return false;
    for (int k = 1; k < length; ++k) {
      if ((at(i + k) & 0xC0) != 0x80) return false;
      c = (c << 6) | (at(i + k) & 0x3F);
    }
    if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
    i += length;
  }
  return true;
}

std::string as_utf8(std::string_view bytes) {
  if (is_utf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + bytes.size() / 8);
  for (const char ch : bytes) {
    const unsigned char b = static_cast<unsigned char>(ch);
    if (b < 0x80) out += ch;
    else if (b < 0xA0) append_code_point(kWindows1252High[b - 0x80] ? kWindows1252High[b - 0x80] : 0xFFFD, out);
    else append_code_point(b, out);
  }
  return out;
}

}  // namespace tela
