// The numeric types binary point-cloud files store (PLY property types, PCD SIZE/TYPE pairs)
// and reading one from bytes in either byte order, independent of the host's.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace tela {

enum class ScalarType { int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64 };

inline int scalar_size(ScalarType type) {
  switch (type) {
    case ScalarType::int8: case ScalarType::uint8: return 1;
    case ScalarType::int16: case ScalarType::uint16: return 2;
    case ScalarType::int32: case ScalarType::uint32: case ScalarType::float32: return 4;
    case ScalarType::int64: case ScalarType::uint64: case ScalarType::float64: return 8;
  }
  return 1;
}

inline bool scalar_is_integer(ScalarType type) {
  return type != ScalarType::float32 && type != ScalarType::float64;
}

// The raw bits of a size-byte value at `data` (size 1, 2, 4 or 8), assembled in the file's order.
inline std::uint64_t read_raw_bits(const unsigned char* data, int size, bool big_endian) {
  std::uint64_t bits = 0;
  for (int b = 0; b < size; ++b) {
    const int shift = 8 * (big_endian ? size - 1 - b : b);
    bits |= static_cast<std::uint64_t>(data[b]) << shift;
  }
  return bits;
}

// The value at `data` as a double (int64 beyond 2^53 rounds).
inline double read_scalar(const unsigned char* data, ScalarType type, bool big_endian) {
  const std::uint64_t bits = read_raw_bits(data, scalar_size(type), big_endian);
  switch (type) {
    case ScalarType::int8: return static_cast<std::int8_t>(bits);
    case ScalarType::uint8: return static_cast<std::uint8_t>(bits);
    case ScalarType::int16: return static_cast<std::int16_t>(bits);
    case ScalarType::uint16: return static_cast<std::uint16_t>(bits);
    case ScalarType::int32: return static_cast<std::int32_t>(bits);
    case ScalarType::uint32: return static_cast<std::uint32_t>(bits);
    case ScalarType::int64: return static_cast<double>(static_cast<std::int64_t>(bits));
    case ScalarType::uint64: return static_cast<double>(bits);
    case ScalarType::float32: {
      const std::uint32_t b32 = static_cast<std::uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case ScalarType::float64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
  }
  return 0;
}

}  // namespace tela
