// The parameter section of a C3D file (C3D User Guide, chapter "The parameter section"): it
// starts at the block named by the file's first byte (block n begins at byte 512 (n - 1)) with
// four bytes (reserved, key, block count, processor type 84/85/86), then a chain of records.
// A record: name length (signed byte; negative = locked), id (negative: a group, positive: a
// parameter of group -id), the name, a signed 16-bit offset from that word to the next record
// (0: the last record), then for a group a description, and for a parameter its data type
// (-1 char, 1 byte, 2 16-bit integer, 4 float), dimension count, dimensions (bytes) and data,
// then a description.
#pragma once

#include "mocap/c3d_processor.h"
#include "base/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tela {

struct C3dParameter {
  std::string group;                 // upper case, e.g. "POINT"; "" when no group record has its id
  std::string name;                  // upper case, e.g. "LABELS"
  int type = 0;                      // -1 char, 1 byte, 2 16-bit integer, 4 float
  std::vector<int> dimensions;       // none for a single value
  std::size_t offset = 0;            // byte of the record in the file
  std::size_t data_offset = 0;       // byte of the data in the file
  std::size_t count = 1;             // values: the product of the dimensions (1 without)
  std::string full_name() const { return group + ":" + name; }
};

// The parameters of a file; the accessors read values from `bytes`, which must outlive this.
struct C3dParameterSection {
  std::string_view bytes;
  C3dProcessor processor = C3dProcessor::intel;
  std::size_t offset = 0;  // byte where the section starts
  std::vector<C3dParameter> parameters;

  // The first parameter GROUP:NAME (upper case), or nullptr.
  const C3dParameter* find(const std::string& group, const std::string& name) const;
  // Value i of a byte, integer or float parameter; false for a char parameter or i >= count.
  bool number(const C3dParameter& p, std::size_t i, double& out) const;
  // Value i as an unsigned 16-bit count (an integer parameter's word read unsigned: POINT:USED
  // and POINT:FRAMES go up to 65535); false unless p holds a whole number in 0 .. 65535.
  bool count_value(const C3dParameter& p, std::size_t i, long& out) const;
  // A char parameter's strings (dimensions [length, count...]; none: one character; one: one
  // string), trailing spaces and NULs removed; empty for other types.
  std::vector<std::string> strings(const C3dParameter& p) const;
};

// Reads the parameter section of a C3D file. Fails, naming the byte, when the section's block is
// outside the file, the processor type is unknown, a record runs past the end of the file, a
// data type is unknown or an offset points backwards (which could loop). The chain ends at an
// offset of 0, a record with an empty name or id 0, or an offset pointing past the end.
Result<C3dParameterSection> read_c3d_parameters(std::string_view bytes);

}  // namespace tela
