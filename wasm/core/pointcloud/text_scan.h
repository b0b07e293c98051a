// Scanning text point-cloud data: lines with their numbers, tokens, and numbers parsed from a
// token (the whole token must be the number). Locale-independent for the "C" locale the core
// runs in; accepts nan and inf spellings.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tela {

struct TextLine {
  std::string_view text;  // without the line break (\n, \r\n or \r)
  int number = 0;         // 1-based line number in the file
  std::size_t offset = 0; // byte offset of the line's first character
};

// Yields the lines of bytes[offset...] one by one.
class LineScanner {
 public:
  LineScanner(std::string_view bytes, std::size_t offset = 0, int first_line_number = 1)
      : bytes_(bytes), offset_(offset), line_number_(first_line_number) {}
  bool next(TextLine& line);
  std::size_t offset() const { return offset_; }  // the start of the next line
  int line_number() const { return line_number_; }  // the number of the next line

 private:
  std::string_view bytes_;
  std::size_t offset_;
  int line_number_;
};

// Splits on runs of spaces and tabs; when with_punctuation and the text has a comma or a
// semicolon, splits on those instead (each field trimmed, empty fields kept).
void split_tokens(std::string_view text, std::vector<std::string_view>& tokens, bool with_punctuation);

// Without leading and trailing spaces, tabs, vertical tabs, form feeds and line ends (the
// blanks of split_tokens: a non-empty trimmed line splits into at least one token).
std::string_view trim(std::string_view text);

bool parse_double_token(std::string_view token, double& value);
bool parse_integer_token(std::string_view token, long long& value);

// The token shortened to at most 24 characters for messages, non-printable bytes escaped.
std::string quote_token(std::string_view token);

}  // namespace tela
