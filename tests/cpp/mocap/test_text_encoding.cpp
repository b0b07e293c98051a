// Users' text as UTF-8 (mocap/text_encoding.h): recordings from Windows tools in their 8-bit
// code page.
#include "mocap/text_encoding.h"

#include <doctest/doctest.h>

#include <string>

TEST_SUITE("mocap") {

TEST_CASE("is_utf8: well-formed sequences only") {
  CHECK(tela::is_utf8(""));
  CHECK(tela::is_utf8("plain ASCII, 0-9"));
  CHECK(tela::is_utf8("Gr\xC3\xB6\xC3\x9F" "e"));         // Größe
  CHECK(tela::is_utf8("\xE2\x82\xAC"));                   // U+20AC
  CHECK(tela::is_utf8("\xF0\x9F\xA7\xB5"));               // U+1F9F5, four bytes
  CHECK_FALSE(tela::is_utf8("Gr\xF6\xDF" "e"));           // Windows-1252
  CHECK_FALSE(tela::is_utf8("\xC3"));                     // truncated
  CHECK_FALSE(tela::is_utf8("\xE2\x82"));                 // truncated
  CHECK_FALSE(tela::is_utf8("\xC0\xAF"));                 // overlong '/'
  CHECK_FALSE(tela::is_utf8("\xE0\x80\xAF"));             // overlong '/'
  CHECK_FALSE(tela::is_utf8("\xED\xA0\x80"));             // a surrogate, U+D800
  CHECK_FALSE(tela::is_utf8("\xF4\x90\x80\x80"));         // U+110000
  CHECK_FALSE(tela::is_utf8("\x80"));                     // a lone continuation byte
  CHECK_FALSE(tela::is_utf8("\xFF"));
}

TEST_CASE("as_utf8: UTF-8 kept, anything else read as Windows-1252") {
  CHECK(tela::as_utf8("Gr\xC3\xB6\xC3\x9F" "e") == "Gr\xC3\xB6\xC3\x9F" "e");
  CHECK(tela::as_utf8("Gr\xF6\xDF" "e") == "Gr\xC3\xB6\xC3\x9F" "e");
  CHECK(tela::as_utf8("\x80 \x9F \xA0 \xFF") == "\xE2\x82\xAC \xC5\xB8 \xC2\xA0 \xC3\xBF");
  CHECK(tela::as_utf8("a\x81z") == "a\xEF\xBF\xBDz");  // unassigned in Windows-1252: U+FFFD
  CHECK(tela::is_utf8(tela::as_utf8(std::string("\x00\x7F\x80\xC3\xFF", 5))));
}

}
