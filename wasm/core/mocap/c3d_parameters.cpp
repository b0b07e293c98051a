#include "mocap/c3d_parameters.h"

#include <cmath>
#include <cstdlib>
#include <map>

namespace tela {
namespace {

using R = Result<C3dParameterSection>;

std::string at(std::size_t byte) { return "byte " + std::to_string(byte) + ": "; }

std::string upper_case(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

const unsigned char* data(std::string_view bytes, std::size_t offset) {
  return reinterpret_cast<const unsigned char*>(bytes.data()) + offset;
}

// n bytes from offset lie inside the file
bool inside(std::string_view bytes, std::size_t offset, std::size_t n) {
  return offset <= bytes.size() && n <= bytes.size() - offset;
}

}  // namespace

const C3dParameter* C3dParameterSection::find(const std::string& group, const std::string& name) const {
  for (const C3dParameter& p : parameters)
    if (p.group == group && p.name == name) return &p;
  return nullptr;
}

bool C3dParameterSection::number(const C3dParameter& p, std::size_t i, double& out) const {
  if (i >= p.count) return false;
  const unsigned char* value = data(bytes, p.data_offset + i * static_cast<std::size_t>(std::abs(p.type)));
  switch (p.type) {
    case 1: out = value[0]; return true;
    case 2: out = static_cast<std::int16_t>(read_c3d_word(value, processor)); return true;
    case 4: out = read_c3d_float(value, processor); return true;
    default: return false;
  }
}

bool C3dParameterSection::count_value(const C3dParameter& p, std::size_t i, long& out) const {
  if (p.type == 2 && i < p.count) {
    out = read_c3d_word(data(bytes, p.data_offset + 2 * i), processor);
    return true;
  }
  double value = 0;
  if (!number(p, i, value) || !(value >= 0 && value <= 65535) || value != std::floor(value)) return false;
  out = static_cast<long>(value);
  return true;
}

std::vector<std::string> C3dParameterSection::strings(const C3dParameter& p) const {
  std::vector<std::string> out;
  if (p.type != -1) return out;
  const std::size_t length = p.dimensions.empty() ? 1 : static_cast<std::size_t>(p.dimensions[0]);
  const std::size_t n = length == 0 ? 0 : p.count / length;
  for (std::size_t k = 0; k < n; ++k) {
    std::string s(bytes.substr(p.data_offset + k * length, length));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) s.pop_back();
    out.push_back(std::move(s));
  }
  return out;
}

Result<C3dParameterSection> read_c3d_parameters(std::string_view bytes) {
  if (bytes.size() < 2) return R::failure("the file is shorter than a C3D header");
  const int block = static_cast<unsigned char>(bytes[0]);
  if (block < 2)
    return R::failure(at(0) + "the parameter section is said to start at block " + std::to_string(block) +
                      " (block 1 is the header)");
  C3dParameterSection section;
  section.bytes = bytes;
  section.offset = static_cast<std::size_t>(block - 1) * 512;
  if (!inside(bytes, section.offset, 4))
    return R::failure(at(0) + "the parameter section is said to start at block " + std::to_string(block) + " (byte " +
                      std::to_string(section.offset) + "), past the end of the file (" + std::to_string(bytes.size()) +
                      " bytes)");
  const int processor = static_cast<unsigned char>(bytes[section.offset + 3]);
  if (!c3d_processor_from_byte(processor, section.processor))
    return R::failure(at(section.offset + 3) + "processor type " + std::to_string(processor) +
                      " is not 84 (Intel), 85 (DEC) or 86 (MIPS)");

  std::map<int, std::string> groups;  // id -> name
  std::vector<int> group_of;          // per parameter, its group id
  std::size_t pos = section.offset + 4;
  while (true) {
    if (!inside(bytes, pos, 2))
      return R::failure(at(pos) + "the parameter section is truncated: the file ends inside a record");
    const int name_length = std::abs(static_cast<int>(static_cast<signed char>(bytes[pos])));
    const int id = static_cast<signed char>(bytes[pos + 1]);
    if (name_length == 0 || id == 0) break;  // an end marker some writers add
    const std::size_t offset_word = pos + 2 + static_cast<std::size_t>(name_length);
    if (!inside(bytes, offset_word, 2))
      return R::failure(at(pos) + "the parameter section is truncated: the file ends inside a record");
    const std::string name = upper_case(std::string(bytes.substr(pos + 2, name_length)));
    const int next = static_cast<std::int16_t>(read_c3d_word(data(bytes, offset_word), section.processor));
    const std::size_t body = offset_word + 2;
    if (id < 0) {
      groups.emplace(-id, name);
    } else {
      C3dParameter p;
      p.name = name;
      p.offset = pos;
      if (!inside(bytes, body, 2))
        return R::failure(at(pos) + "parameter " + name + " runs past the end of the file");
      p.type = static_cast<signed char>(bytes[body]);
      if (p.type != -1 && p.type != 1 && p.type != 2 && p.type != 4)
        return R::failure(at(body) + "parameter " + name + " has data type " + std::to_string(p.type) +
                          ", not -1 (char), 1 (byte), 2 (integer) or 4 (float)");
      const int dimension_count = static_cast<unsigned char>(bytes[body + 1]);
      if (!inside(bytes, body + 2, static_cast<std::size_t>(dimension_count)))
        return R::failure(at(pos) + "parameter " + name + " runs past the end of the file (in its dimensions)");
      p.data_offset = body + 2 + static_cast<std::size_t>(dimension_count);
      // at most 255^255 values: stop multiplying once they cannot fit in the file (64-bit:
      // size_t is 32-bit in WebAssembly)
      const std::uint64_t file_size = bytes.size();
      std::uint64_t count = 1;
      bool exact = true;
      for (int d = 0; d < dimension_count; ++d) {
        p.dimensions.push_back(static_cast<unsigned char>(bytes[body + 2 + d]));
        if (count <= file_size) count *= static_cast<std::uint64_t>(p.dimensions.back());
        else exact = exact && p.dimensions.back() == 1;
      }
      for (int d : p.dimensions)
        if (d == 0) count = 0, exact = true;  // no values at all
      const std::uint64_t needed = count * static_cast<std::uint64_t>(std::abs(p.type));
      if (count > file_size || needed > file_size - p.data_offset)
        return R::failure(at(pos) + "parameter " + name + " runs past the end of the file (its data needs " +
                          (exact ? "" : "more than ") + std::to_string(needed) + " bytes from byte " +
                          std::to_string(p.data_offset) + "; the file has " + std::to_string(bytes.size()) + ")");
      p.count = static_cast<std::size_t>(count);
      section.parameters.push_back(std::move(p));
      group_of.push_back(id);
    }
    if (next == 0) break;
    if (next < 0)
      return R::failure(at(offset_word) + "the offset to the next parameter record (" + std::to_string(next) +
                        ") points backwards");
    pos = offset_word + static_cast<std::size_t>(next);
    if (pos >= bytes.size()) break;  // past the end: the chain ends (some writers leave it dangling)
  }
  for (std::size_t k = 0; k < section.parameters.size(); ++k) {
    const auto it = groups.find(group_of[k]);
    if (it != groups.end()) section.parameters[k].group = it->second;
  }
  return R::success(std::move(section));
}

}  // namespace tela
