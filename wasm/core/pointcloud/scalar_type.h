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

// The raw bits of a Size-byte value at `data`, assembled in the file's order (a constant size
// lets the compiler turn the shifts into one load, and a byte swap for the other order).
template <int Size>
inline std::uint64_t read_bits(const unsigned char* data, bool big_endian) {
  std::uint64_t bits = 0;
  if (big_endian) {
    for (int b = 0; b < Size; ++b) bits |= static_cast<std::uint64_t>(data[b]) << (8 * (Size - 1 - b));
  } else {
    for (int b = 0; b < Size; ++b) bits |= static_cast<std::uint64_t>(data[b]) << (8 * b);
  }
  return bits;
}

// The same for a size of 1, 2, 4 or 8 bytes known at run time.
inline std::uint64_t read_raw_bits(const unsigned char* data, int size, bool big_endian) {
  switch (size) {
    case 1: return data[0];
    case 2: return read_bits<2>(data, big_endian);
    case 4: return read_bits<4>(data, big_endian);
    default: return read_bits<8>(data, big_endian);
  }
}

// The value at `data` as a double (int64 beyond 2^53 rounds).
inline double read_scalar(const unsigned char* data, ScalarType type, bool big_endian) {
  switch (type) {
    case ScalarType::int8: return static_cast<std::int8_t>(data[0]);
    case ScalarType::uint8: return data[0];
    case ScalarType::int16: return static_cast<std::int16_t>(read_bits<2>(data, big_endian));
    case ScalarType::uint16: return static_cast<std::uint16_t>(read_bits<2>(data, big_endian));
    case ScalarType::int32: return static_cast<std::int32_t>(read_bits<4>(data, big_endian));
    case ScalarType::uint32: return static_cast<std::uint32_t>(read_bits<4>(data, big_endian));
    case ScalarType::int64: return static_cast<double>(static_cast<std::int64_t>(read_bits<8>(data, big_endian)));
    case ScalarType::uint64: return static_cast<double>(read_bits<8>(data, big_endian));
    case ScalarType::float32: {
      const std::uint32_t b32 = static_cast<std::uint32_t>(read_bits<4>(data, big_endian));
      float f;
      std::memcpy(&f, &b32, 4);
      return f;
    }
    case ScalarType::float64: {
      const std::uint64_t bits = read_bits<8>(data, big_endian);
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
  }
  return 0;
}

}  // namespace tela
