#include "mocap/c3d_processor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tela {
namespace {

std::uint32_t ieee_bits(double value) {
  const double largest = std::numeric_limits<float>::max();
  const float f = std::isnan(value) ? std::numeric_limits<float>::quiet_NaN()
                                    : static_cast<float>(std::max(-largest, std::min(largest, value)));
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof f);
  return bits;
}

float ieee_float(std::uint32_t bits) {
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// VAX F-float: sign, 8-bit exponent with bias 128 and a hidden bit worth one half, 23 fraction
// bits: value = (-1)^s * 0.1f (binary) * 2^(e - 128) = (-1)^s * 1.f * 2^(e - 129). Read as an
// IEEE float the same bits are worth 4 times more (bias 127, hidden bit one), which is why readers
// divide by 4; this computes the value directly, so no IEEE overflow or subnormal gets in the way.
// e = 0 is zero (sign clear) or the reserved operand (sign set).
double dec_value(std::uint32_t bits) {
  const bool negative = (bits >> 31) != 0;
  const int exponent = static_cast<int>((bits >> 23) & 0xFF);
  const std::uint32_t fraction = bits & 0x7FFFFF;
  if (exponent == 0) return negative ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  const double magnitude = std::ldexp(1.0 + std::ldexp(static_cast<double>(fraction), -23), exponent - 129);
  return negative ? -magnitude : magnitude;
}

std::uint32_t dec_bits(double value) {
  if (std::isnan(value) || value == 0) return 0;
  const std::uint32_t sign = value < 0 ? 0x80000000u : 0u;
  int k = 0;
  const double m = std::frexp(std::abs(value), &k);  // |value| = m 2^k, m in [0.5, 1)
  int exponent = k + 128;                             // 1.f 2^(e - 129) with 1.f = 2m
  std::uint32_t fraction = static_cast<std::uint32_t>(std::lround(std::ldexp(2 * m - 1, 23)));
  if (fraction == (1u << 23)) {
    fraction = 0;
    ++exponent;
  }
  if (exponent < 1) return 0;
  if (exponent > 255) return sign | 0x7FFFFFFFu;
  return sign | (static_cast<std::uint32_t>(exponent) << 23) | fraction;
}

}  // namespace

const char* to_string(C3dProcessor processor) {
  switch (processor) {
    case C3dProcessor::intel: return "Intel";
    case C3dProcessor::dec: return "DEC";
    case C3dProcessor::mips: return "MIPS";
  }
  return "Intel";
}

bool c3d_processor_from_byte(int byte, C3dProcessor& processor) {
  if (byte != 84 && byte != 85 && byte != 86) return false;
  processor = static_cast<C3dProcessor>(byte);
  return true;
}

std::uint16_t read_c3d_word(const unsigned char* p, C3dProcessor processor) {
  if (processor == C3dProcessor::mips) return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
  return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

double read_c3d_float(const unsigned char* p, C3dProcessor processor) {
  switch (processor) {
    case C3dProcessor::intel:
      return ieee_float(static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
                        (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24));
    case C3dProcessor::mips:
      return ieee_float((static_cast<std::uint32_t>(p[0]) << 24) | (static_cast<std::uint32_t>(p[1]) << 16) |
                        (static_cast<std::uint32_t>(p[2]) << 8) | static_cast<std::uint32_t>(p[3]));
    case C3dProcessor::dec:
      // two little-endian words, the one holding sign and exponent first
      return dec_value((static_cast<std::uint32_t>(read_c3d_word(p, processor)) << 16) |
                       read_c3d_word(p + 2, processor));
  }
  return 0;
}

void append_c3d_word(std::string& out, std::uint16_t word, C3dProcessor processor) {
  const char low = static_cast<char>(word & 0xFF), high = static_cast<char>(word >> 8);
  if (processor == C3dProcessor::mips) {
    out += high;
    out += low;
  } else {
    out += low;
    out += high;
  }
}

void append_c3d_float(std::string& out, double value, C3dProcessor processor) {
  if (processor == C3dProcessor::dec) {
    const std::uint32_t bits = dec_bits(value);
    append_c3d_word(out, static_cast<std::uint16_t>(bits >> 16), processor);
    append_c3d_word(out, static_cast<std::uint16_t>(bits & 0xFFFF), processor);
    return;
  }
  const std::uint32_t bits = ieee_bits(value);
  if (processor == C3dProcessor::mips) {
    append_c3d_word(out, static_cast<std::uint16_t>(bits >> 16), processor);
    append_c3d_word(out, static_cast<std::uint16_t>(bits & 0xFFFF), processor);
  } else {
    append_c3d_word(out, static_cast<std::uint16_t>(bits & 0xFFFF), processor);
    append_c3d_word(out, static_cast<std::uint16_t>(bits >> 16), processor);
  }
}

}  // namespace tela
