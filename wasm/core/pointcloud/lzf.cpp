// LZF stream format (liblzf 3.6, lzf_d.c): a sequence of chunks, each starting with a control
// byte c. c < 32: a literal run of c + 1 bytes follows. Otherwise a back reference: length
// field L = c >> 5 (if 7, one more byte is added), offset = ((c & 31) << 8) + next byte; copy
// L + 2 bytes from (output position - offset - 1), overlapping copies allowed.
#include "pointcloud/lzf.h"

#include <algorithm>
#include <array>

namespace tela {

LzfResult lzf_decompress(std::string_view input, std::vector<std::uint8_t>& output) {
  const auto* in = reinterpret_cast<const unsigned char*>(input.data());
  const std::size_t in_size = input.size();
  const std::size_t out_size = output.size();
  std::size_t ip = 0, op = 0;
  while (ip < in_size) {
    const std::size_t control_at = ip;
    const unsigned control = in[ip++];
    if (control < 32) {
      const std::size_t length = control + 1;
      if (length > in_size - ip) return {LzfStatus::truncated_input, control_at};
      if (length > out_size - op) return {LzfStatus::output_overflow, control_at};
      std::copy(in + ip, in + ip + length, output.begin() + op);
      ip += length;
      op += length;
    } else {
      std::size_t length = control >> 5;
      if (length == 7) {
        if (ip >= in_size) return {LzfStatus::truncated_input, control_at};
        length += in[ip++];
      }
      if (ip >= in_size) return {LzfStatus::truncated_input, control_at};
      const std::size_t offset = ((static_cast<std::size_t>(control & 0x1f)) << 8) + in[ip++] + 1;
      length += 2;
      if (offset > op) return {LzfStatus::bad_back_reference, control_at};
      if (length > out_size - op) return {LzfStatus::output_overflow, control_at};
      // byte by byte: the source may overlap what is being written
      std::size_t ref = op - offset;
      for (std::size_t k = 0; k < length; ++k) output[op++] = output[ref++];
    }
  }
  if (op != out_size) return {LzfStatus::size_mismatch, ip};
  return {LzfStatus::ok, ip};
}

std::string lzf_compress(std::string_view input) {
  const auto* in = reinterpret_cast<const unsigned char*>(input.data());
  const std::size_t n = input.size();
  constexpr int kHashBits = 14;
  constexpr std::size_t kMaxOffset = 1 << 13;  // 13-bit offsets
  constexpr std::size_t kMaxMatch = 264;       // 7 + 255 + 2
  std::vector<std::int64_t> table(std::size_t(1) << kHashBits, -1);
  std::string out;
  out.reserve(n + n / 32 + 16);

  std::size_t literal_at = out.size();  // the control byte of the open literal run
  int literals = 0;
  out.push_back(0);
  auto close_literals = [&]() {
    if (literals > 0) {
      out[literal_at] = static_cast<char>(literals - 1);
    } else {
      out.erase(literal_at, 1);
    }
  };
  auto push_literal = [&](unsigned char byte) {
    out.push_back(static_cast<char>(byte));
    if (++literals == 32) {
      out[literal_at] = 31;
      literals = 0;
      literal_at = out.size();
      out.push_back(0);
    }
  };

  std::size_t ip = 0;
  while (ip + 2 < n) {
    const unsigned hash = ((in[ip] << 16 | in[ip + 1] << 8 | in[ip + 2]) * 2654435761u) >> (32 - kHashBits);
    const std::int64_t candidate = table[hash];
    table[hash] = static_cast<std::int64_t>(ip);
    if (candidate >= 0) {
      const std::size_t ref = static_cast<std::size_t>(candidate);
      const std::size_t offset = ip - ref - 1;
      if (offset < kMaxOffset && in[ref] == in[ip] && in[ref + 1] == in[ip + 1] && in[ref + 2] == in[ip + 2]) {
        const std::size_t max_length = std::min(kMaxMatch, n - ip);
        std::size_t length = 3;
        while (length < max_length && in[ref + length] == in[ip + length]) ++length;
        close_literals();
        const std::size_t l = length - 2;
        if (l < 7) {
          out.push_back(static_cast<char>((l << 5) | (offset >> 8)));
        } else {
          out.push_back(static_cast<char>((7 << 5) | (offset >> 8)));
          out.push_back(static_cast<char>(l - 7));
        }
        out.push_back(static_cast<char>(offset & 0xff));
        ip += length;
        literals = 0;
        literal_at = out.size();
        out.push_back(0);
        continue;
      }
    }
    push_literal(in[ip++]);
  }
  while (ip < n) push_literal(in[ip++]);
  close_literals();
  return out;
}

const char* lzf_status_message(LzfStatus status) {
  switch (status) {
    case LzfStatus::ok: return "ok";
    case LzfStatus::truncated_input: return "the compressed data ends inside a chunk";
    case LzfStatus::output_overflow: return "the data decompresses to more bytes than declared";
    case LzfStatus::bad_back_reference: return "a back reference points before the start of the data";
    case LzfStatus::size_mismatch: return "the data decompresses to fewer bytes than declared";
  }
  return "unknown LZF error";
}

}  // namespace tela
