// is_whole_number and clamped_floor: casts defined for every double, NaN and overflowing values included.
#include "base/integer_cast.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>

TEST_SUITE("geometry") {

TEST_CASE("clamped_floor: floor inside the range, the bounds outside it, the low bound for NaN") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  CHECK(tela::clamped_floor(2.7, 0, 9) == 2);
  CHECK(tela::clamped_floor(-0.5, -3, 9) == -1);
  CHECK(tela::clamped_floor(-0.5, 0, 9) == 0);
  CHECK(tela::clamped_floor(8.999, 0, 9) == 8);
  CHECK(tela::clamped_floor(9.0, 0, 9) == 9);
  CHECK(tela::clamped_floor(1e300, 0, 9) == 9);
  CHECK(tela::clamped_floor(-1e300, 0, 9) == 0);
  CHECK(tela::clamped_floor(inf, 0, 9) == 9);
  CHECK(tela::clamped_floor(-inf, 0, 9) == 0);
  CHECK(tela::clamped_floor(nan, 0, 9) == 0);
  const std::int64_t big = std::int64_t{1} << 62;
  CHECK(tela::clamped_floor<std::int64_t>(1e300, -big, big) == big);
  CHECK(tela::clamped_floor<std::int64_t>(-3.5e15, -big, big) == -3500000000000000);
  CHECK(tela::clamped_floor<std::int64_t>(nan, -big, big) == -big);
}

TEST_CASE("is_whole_number: whole doubles up to 2^53 in magnitude, nothing else") {
  CHECK(tela::is_whole_number(0));
  CHECK(tela::is_whole_number(-3));
  CHECK(tela::is_whole_number(9007199254740992.0));
  CHECK_FALSE(tela::is_whole_number(2.5));
  CHECK_FALSE(tela::is_whole_number(1e30));
  CHECK_FALSE(tela::is_whole_number(std::numeric_limits<double>::quiet_NaN()));
  CHECK_FALSE(tela::is_whole_number(std::numeric_limits<double>::infinity()));
}

}
