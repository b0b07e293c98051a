// The one check of a fit's settings (fit/fit_settings.h), which `tela fit`'s flags and the
// page's settings keys map onto: every refusal names the setting as its caller does.
#include "fit/fit_settings.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using tela::FitSettingsRequest;
using tela::Given;

Given<double> number(double v, const std::string& text) { return Given<double>{v, text}; }

std::vector<tela::ObstacleDesc> table() {
  tela::ObstacleDesc plane;
  plane.type = "plane";
  plane.mu = 0.5;
  return {plane};
}

std::string flag(const std::string& key) {
  if (key == "mu_max") return "--mu-max";
  if (key == "start_mu") return "--start-mu";
  if (key == "start") return "--params";
  if (key == "scene") return "--scenario";
  return "--" + key;
}

std::string refusal(const FitSettingsRequest& request, const std::vector<tela::ObstacleDesc>& obstacles = {},
                    tela::SettingName name = tela::setting_key) {
  const tela::Result<tela::FitSettings> s = tela::make_fit_settings(request, obstacles, 10.0, name);
  return s.ok() ? std::string("accepted") : s.error;
}

}  // namespace

TEST_CASE("fit settings: the defaults, and what a request gives") {
  const tela::Result<tela::FitSettings> defaults = tela::make_fit_settings({}, {}, 10.0);
  REQUIRE(defaults.ok());
  CHECK(defaults.value->grid == 20);
  CHECK(defaults.value->refine_evaluations == 40);
  CHECK(defaults.value->mu_grid == 9);
  CHECK(defaults.value->mu_max == 2.0);
  CHECK(defaults.value->train.end == 1e300);
  CHECK_FALSE(defaults.value->has_start);
  CHECK(std::isnan(defaults.value->start_mu));

  FitSettingsRequest request;
  request.grid = number(0, "0");
  request.refine_evaluations = number(10000, "10000");
  request.mu_grid = number(200, "200");
  request.mu_max = number(100, "100");
  request.repetition = number(2, "2");
  request.split = Given<std::string>{std::string("half"), "half"};
  request.start = Given<std::vector<double>>{std::vector<double>{1, 4, 0.3}, "[1,4,0.3]"};
  const tela::Result<tela::FitSettings> s = tela::make_fit_settings(request, table(), 10.0);
  REQUIRE(s.ok());
  CHECK(s.value->grid == 0);
  CHECK(s.value->refine_evaluations == 10000);
  CHECK(s.value->mu_grid == 200);
  CHECK(s.value->mu_max == 100);
  CHECK(s.value->a_priori_repetition == 2);
  CHECK(s.value->train.end == 5.0);
  CHECK(s.value->test.begin == 5.0);
  CHECK(s.value->has_start);
  CHECK(s.value->start_delta_ratio == 1);
  CHECK(s.value->start_alpha_ratio == 4);
  CHECK(s.value->start_mu == 0.3);
}

TEST_CASE("fit settings: a value the fit cannot use is refused, never clamped, quoting what was given") {
  FitSettingsRequest r;
  r.grid = number(1, "1");
  CHECK(refusal(r) == "grid: must be a whole number of points per axis, 0 (no sweep) or 2 to 200 (got 1)");
  r.grid = Given<double>{std::nullopt, "\"12\""};
  CHECK(refusal(r) == "grid: must be a whole number of points per axis, 0 (no sweep) or 2 to 200 (got \"12\")");
  r.grid = number(2.5, "2.5");
  CHECK(refusal(r, {}, flag) == "--grid: must be a whole number of points per axis, 0 (no sweep) or 2 to 200 (got 2.5)");
  r = {};
  r.mu_max = number(0, "0");
  CHECK(refusal(r) == "mu_max: must be the largest friction coefficient tried, in (0, 100] (got 0)");
  r = {};
  r.split = Given<std::string>{std::string("thirds"), "\"thirds\""};
  CHECK(refusal(r) == "split: must be \"whole\" or \"half\" (got \"thirds\")");
  r = {};
  r.start = Given<std::vector<double>>{std::vector<double>{2, 1}, "[2,1]"};
  CHECK(refusal(r) == "start: must be a point of the searched box delta / rho in [0, 1], alpha / rho in [0, 4] "
                      "(thesis §4.2.2) (got [2,1])");
  r.start = Given<std::vector<double>>{std::vector<double>{-0.1, 1}, "[-0.1,1]"};
  CHECK(refusal(r) == "start: must be [delta / rho, alpha / rho] or [delta / rho, alpha / rho, mu], numbers >= 0 "
                      "(got [-0.1,1])");
}

TEST_CASE("fit settings: a mu needs obstacles, is given once, and lies in [0, mu_max]") {
  FitSettingsRequest r;
  r.start_mu = number(0.3, "0.3");
  CHECK(refusal(r) == "start_mu: must be left out: a mu needs obstacles to act on (give a scene with obstacles, "
                      "e.g. tablecloth)");
  CHECK(refusal(r, {}, flag) == "--start-mu: must be left out: a mu needs obstacles to act on (give a --scenario "
                                "with obstacles, e.g. tablecloth)");
  CHECK(refusal(r, table()) == "accepted");
  r.start = Given<std::vector<double>>{std::vector<double>{0.5, 2, 0.3}, "[0.5,2,0.3]"};
  CHECK(refusal(r, table(), flag) == "--start-mu: must be left out when --params holds a mu (the third number of "
                                     "--params)");
  r = {};
  r.start_mu = number(0.9, "0.9");
  r.mu_max = number(0.5, "0.5");
  CHECK(refusal(r, table()) == "start_mu: 0.9 lies above mu_max 0.5 (mu is fitted in [0, mu_max]); give a smaller "
                               "mu or raise mu_max");
  r = {};
  r.mu_max = number(0.3, "0.3");
  CHECK(refusal(r, table(), flag) == "--mu-max: 0.3 is below the first obstacle's friction coefficient 0.5, the "
                                     "fit's starting mu (mu is fitted in [0, mu_max]); raise --mu-max or give a "
                                     "starting mu (--start-mu)");
  // mu fixed (no mu line): any starting mu
  r.mu_grid = number(0, "0");
  CHECK(refusal(r, table()) == "accepted");
}
