#include "pointcloud/text_scan.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tela {
namespace {

// the blanks between tokens (split_tokens) and around a line (trim, with the line ends)
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }
bool is_space(char c) { return is_blank(c) || c == '\r' || c == '\n'; }

}  // namespace

bool LineScanner::next(TextLine& line) {
  if (offset_ >= bytes_.size()) return false;
  const std::size_t begin = offset_;
  std::size_t end = begin;
  while (end < bytes_.size() && bytes_[end] != '\n' && bytes_[end] != '\r') ++end;
  line.text = bytes_.substr(begin, end - begin);
  line.number = line_number_;
  line.offset = begin;
  if (end < bytes_.size()) {
    if (bytes_[end] == '\r' && end + 1 < bytes_.size() && bytes_[end + 1] == '\n') ++end;
    ++end;
  }
  offset_ = end;
  ++line_number_;
  return true;
}

void split_tokens(std::string_view text, std::vector<std::string_view>& tokens, bool with_punctuation) {
  tokens.clear();
  const std::size_t n = text.size();
  if (with_punctuation && text.find_first_of(",;") != std::string_view::npos) {
    // delimited fields: every comma or semicolon ends one, empty fields are kept
    std::size_t begin = 0;
    for (std::size_t i = 0; i <= n; ++i) {
      if (i == n || text[i] == ',' || text[i] == ';') {
        tokens.push_back(trim(text.substr(begin, i - begin)));
        begin = i + 1;
      }
    }
    return;
  }
  std::size_t i = 0;
  while (i < n) {
    while (i < n && is_blank(text[i])) ++i;
    if (i >= n) break;
    std::size_t j = i;
    while (j < n && !is_blank(text[j])) ++j;
    tokens.push_back(text.substr(i, j - i));
    i = j;
  }
}

std::string_view trim(std::string_view text) {
  // the blanks of split_tokens too: a line trim() leaves non-empty has a token
  std::size_t b = 0, e = text.size();
  while (b < e && is_space(text[b])) ++b;
  while (e > b && is_space(text[e - 1])) --e;
  return text.substr(b, e - b);
}

bool parse_double_token(std::string_view token, double& value) {
  char buffer[96];
  if (token.empty() || token.size() >= sizeof(buffer)) return false;
  std::memcpy(buffer, token.data(), token.size());
  buffer[token.size()] = '\0';
  char* end = nullptr;
  value = std::strtod(buffer, &end);
  return end == buffer + token.size();
}

bool parse_integer_token(std::string_view token, long long& value) {
  char buffer[32];
  if (token.empty() || token.size() >= sizeof(buffer)) return false;
  std::memcpy(buffer, token.data(), token.size());
  buffer[token.size()] = '\0';
  char* end = nullptr;
  errno = 0;
  value = std::strtoll(buffer, &end, 10);
  return errno == 0 && end == buffer + token.size();
}

std::string quote_token(std::string_view token) {
  std::string out = "'";
  const std::size_t shown = token.size() > 24 ? 24 : token.size();
  for (std::size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 32 && c < 127) {
      out += static_cast<char>(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "\\x%02x", c);
      out += hex;
    }
  }
  if (shown < token.size()) out += "...";
  return out + "'";
}

}  // namespace tela
