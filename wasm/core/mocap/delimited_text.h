// Delimited text (CSV, TSV) split into numbered lines of cells, and strict number parsing:
// the shared first stage of the motion-capture parsers. Bytes in, no file access.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tela {

struct TextLine {
  int number = 0;                   // 1-based line number in the file
  std::vector<std::string> cells;   // trimmed of surrounding spaces and of "..." quotes
  bool blank() const;               // no cell has any text
};

// Splits `bytes` into lines (\n, \r\n or \r) and each line into cells at `delimiter`.
// Double-quoted cells may contain the delimiter; a UTF-8 byte-order mark is skipped.
std::vector<TextLine> split_delimited(std::string_view bytes, char delimiter);

// Parses a whole cell as a finite decimal number (C locale; surrounding spaces allowed).
// Returns false for empty cells, trailing text, "nan", "inf".
bool parse_number(const std::string& cell, double& value);

// "line 12, column 7: " (1-based; column is the cell index), the prefix of located errors.
std::string location(int line, int column);

// Lower-case copy (ASCII).
std::string lower_case(std::string text);

}  // namespace tela
