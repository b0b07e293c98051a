// A SAX walk over the text (nlohmann-json), which never throws: it reports the byte position
// and the JSON path of a syntax error and stops at the first duplicate key.
#include "base/json_syntax.h"

#include "base/json_read.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace tela {
namespace {

using json = nlohmann::json;

// the lexer quotes the offending bytes, which may be invalid UTF-8: keep messages printable
std::string printable(const std::string& text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (const char c : text) {
    const unsigned char b = static_cast<unsigned char>(c);
    if (b >= 0x20 && b < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += hex[b >> 4];
      out += hex[b & 15];
    }
  }
  return out;
}

class SyntaxCheck final : public nlohmann::json_sax<json> {
 public:
  std::string error;

  bool null() override { return value_done(); }
  bool boolean(bool) override { return value_done(); }
  bool number_integer(number_integer_t) override { return value_done(); }
  bool number_unsigned(number_unsigned_t) override { return value_done(); }
  bool number_float(number_float_t, const string_t&) override { return value_done(); }
  bool string(string_t&) override { return value_done(); }
  bool binary(binary_t&) override { return value_done(); }

  bool start_object(std::size_t) override {
    if (too_deep()) return false;
    frames_.push_back(Frame{true, {}, 0, {}});
    return true;
  }
  bool key(string_t& name) override {
    Frame& frame = frames_.back();
    frame.key = name;
    if (!frame.keys.insert(name).second) {
      error = path() + ": duplicate key";
      return false;
    }
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return value_done();
  }
  bool start_array(std::size_t) override {
    if (too_deep()) return false;
    frames_.push_back(Frame{false, {}, 0, {}});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return value_done();
  }

  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    std::string what = printable(ex.what());
    const std::size_t tag_end = what.find("] ");
    if (tag_end != std::string::npos) what = what.substr(tag_end + 2);
    const std::string where = path();
    if (ex.id == 406) {  // out_of_range.406: a number literal beyond the double range
      error = (where.empty() ? std::string("number") : where) + ": must be finite (" + what + ")";
      return false;
    }
    // "parse error at line L, column C: detail" -> "(line L, column C)" and "detail"
    std::string location;
    const std::string prefix = "parse error at ";
    if (what.compare(0, prefix.size(), prefix) == 0) {
      const std::size_t colon = what.find(": ", prefix.size());
      if (colon != std::string::npos) {
        location = what.substr(prefix.size(), colon - prefix.size());
        what = what.substr(colon + 2);
      }
    }
    error = "invalid JSON at byte " + std::to_string(position);
    if (!location.empty()) error += " (" + location + ")";
    if (!where.empty()) error += " in " + where;
    error += ": " + what;
    return false;
  }

 private:
  struct Frame {
    bool is_object;
    std::string key;        // objects: the key being read
    std::size_t index;      // arrays: the element being read
    std::set<std::string> keys;
  };
  std::vector<Frame> frames_;

  // a scenario nests 5 levels deep; deeper text is refused before the path of an error is
  // rebuilt at every level (minutes for a million '[') or a DOM parse overflows the stack
  static constexpr std::size_t kMaxDepth = 64;
  bool too_deep() {
    if (frames_.size() < kMaxDepth) return false;
    error = "invalid JSON: nested deeper than " + std::to_string(kMaxDepth) + " levels at " + path();
    return true;
  }

  bool value_done() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
    return true;
  }

  std::string path() const {
    std::string out;
    for (const Frame& frame : frames_) {
      if (frame.is_object) {
        if (frame.key.empty()) break;
        out = member_path(out, frame.key);
      } else {
        out = element_path(out, frame.index);
      }
    }
    return out;
  }
};

}  // namespace

std::string json_syntax_error(const std::string& json_text) {
  SyntaxCheck check;
  if (json::sax_parse(json_text, &check)) return {};
  return check.error.empty() ? "invalid JSON" : check.error;
}

}  // namespace tela
