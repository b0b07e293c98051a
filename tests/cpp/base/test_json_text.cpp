// JSON text that cannot abort (base/json_text.h).
#include "base/json_text.h"

#include <doctest/doctest.h>

#include <string>

TEST_SUITE("scenario") {

TEST_CASE("json_text: strings that are not UTF-8 become U+FFFD instead of aborting") {
  // with JSON_NOEXCEPTION a plain dump() of this would abort the program
  const nlohmann::json j = {{"error", std::string("line 3: '0.\xE1" "3' is not a number")}};
  CHECK(tela::json_text(j) == "{\"error\":\"line 3: '0.\xEF\xBF\xBD" "3' is not a number\"}");
  CHECK(tela::json_text(nlohmann::json{{"a", 1}}, 1) == "{\n \"a\": 1\n}");
}

}  // TEST_SUITE
