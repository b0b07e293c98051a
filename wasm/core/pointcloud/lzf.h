// LZF (Marc Lehmann's liblzf format, used by PCD binary_compressed): a decompressor written for
// untrusted input and a simple compressor for writers and tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tela {

enum class LzfStatus { ok, truncated_input, output_overflow, bad_back_reference, size_mismatch };

struct LzfResult {
  LzfStatus status = LzfStatus::ok;
  std::size_t input_offset = 0;  // where decoding stopped (the offending control byte on error)
};

// Decompresses `input` into exactly `output.size()` bytes (the caller knows the size).
// Never reads or writes out of bounds, whatever the input.
LzfResult lzf_decompress(std::string_view input, std::vector<std::uint8_t>& output);

// Compresses `input` (any size; incompressible data grows by at most 1 byte per 32).
std::string lzf_compress(std::string_view input);

const char* lzf_status_message(LzfStatus status);

}  // namespace tela
