#include "fit/fit_settings.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace tela {
namespace {

// a whole number in [0, max]; not 1 unless one_allowed (a grid of one point)
bool whole_count(const std::optional<double>& v, int max, bool one_allowed) {
  return v && std::isfinite(*v) && *v == std::floor(*v) && *v >= 0 && *v <= max && (one_allowed || *v != 1);
}

bool non_negative_numbers(const std::optional<std::vector<double>>& v) {
  if (!v || (v->size() != 2 && v->size() != 3)) return false;
  for (double x : *v)
    if (!std::isfinite(x) || x < 0) return false;
  return true;
}

template <class T>
std::string must_be(const std::string& name, const std::string& what, const Given<T>& given) {
  return name + ": must be " + what + " (got " + given.text + ")";
}

// %g: the values of a message as `tela fit` and the page print them
std::string shortest(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

void split_half(FitSettings& settings, double duration) {
  settings.train = Window{0, 0.5 * duration};
  settings.test = Window{0.5 * duration, 1e300};
}

double starting_mu(const FitSettings& settings, const std::vector<ObstacleDesc>& obstacles) {
  if (std::isfinite(settings.start_mu)) return settings.start_mu;
  return obstacles.empty() ? std::numeric_limits<double>::quiet_NaN() : obstacles.front().mu;
}

bool fits_mu(const FitSettings& settings, const std::vector<ObstacleDesc>& obstacles) {
  return !obstacles.empty() && settings.mu_grid > 0 && settings.mu_max > 0;
}

std::string setting_key(const std::string& key) { return key; }

Result<FitSettings> make_fit_settings(const FitSettingsRequest& request, const std::vector<ObstacleDesc>& obstacles,
                                      double duration, SettingName name) {
  using R = Result<FitSettings>;
  FitSettings s;
  const std::string grid_max = std::to_string(kMaxFitGrid);
  const std::string needs_obstacles =
      "a mu needs obstacles to act on (give a " + name("scene") + " with obstacles, e.g. tablecloth)";
  if (const auto& g = request.grid) {
    if (!whole_count(g->value, kMaxFitGrid, false))
      return R::failure(must_be(name("grid"), "a whole number of points per axis, 0 (no sweep) or 2 to " + grid_max, *g));
    s.grid = static_cast<int>(*g->value);
  }
  if (const auto& r = request.refine_evaluations) {
    if (!whole_count(r->value, kMaxRefineEvaluations, true))
      return R::failure(must_be(name("refine_evaluations"),
                                "a whole number of evaluations from 0 to " + std::to_string(kMaxRefineEvaluations), *r));
    s.refine_evaluations = static_cast<int>(*r->value);
  }
  if (const auto& m = request.mu_grid) {
    if (!whole_count(m->value, kMaxFitGrid, false))
      return R::failure(must_be(name("mu_grid"), "a whole number of mu values, 0 (mu fixed) or 2 to " + grid_max, *m));
    s.mu_grid = static_cast<int>(*m->value);
  }
  if (const auto& r = request.repetition) {
    if (!r->value || (*r->value != 1 && *r->value != 2))
      return R::failure(must_be(name("repetition"), "1 (hanger) or 2 (bare hands)", *r));
    s.a_priori_repetition = static_cast<int>(*r->value);
  }
  if (const auto& split = request.split) {
    if (!split->value || (*split->value != "whole" && *split->value != "half"))
      return R::failure(must_be(name("split"), "\"whole\" or \"half\"", *split));
    if (*split->value == "half") split_half(s, duration);
  }
  if (const auto& m = request.mu_max) {
    if (!m->value || !(*m->value > 0 && *m->value <= kMaxFitMu))
      return R::failure(must_be(name("mu_max"), "the largest friction coefficient tried, in (0, 100]", *m));
    s.mu_max = *m->value;
  }
  if (const auto& start = request.start) {
    if (!non_negative_numbers(start->value))
      return R::failure(must_be(name("start"),
                                "[delta / rho, alpha / rho] or [delta / rho, alpha / rho, mu], numbers >= 0", *start));
    const std::vector<double>& v = *start->value;
    // the fit searches [0, max] x [0, max] (thesis §4.2.2): a start outside would be moved to
    // the box's edge without a word
    if (v[0] > s.delta_ratio_max || v[1] > s.alpha_ratio_max)
      return R::failure(must_be(name("start"),
                                "a point of the searched box delta / rho in [0, " + shortest(s.delta_ratio_max) +
                                    "], alpha / rho in [0, " + shortest(s.alpha_ratio_max) + "] (thesis §4.2.2)",
                                *start));
    if (v.size() == 3 && obstacles.empty())
      return R::failure(name("start") + ": must be two numbers, without a mu: " + needs_obstacles);
    s.has_start = true;
    s.start_delta_ratio = v[0];
    s.start_alpha_ratio = v[1];
    if (v.size() == 3) s.start_mu = v[2];
  }
  if (const auto& m = request.start_mu) {
    if (!m->value || !std::isfinite(*m->value) || *m->value < 0)
      return R::failure(must_be(name("start_mu"), "the friction coefficient the fit starts from, a number >= 0", *m));
    if (obstacles.empty()) return R::failure(name("start_mu") + ": must be left out: " + needs_obstacles);
    if (std::isfinite(s.start_mu))
      return R::failure(name("start_mu") + ": must be left out when " + name("start") + " holds a mu (the third number of " +
                        name("start") + ")");
    s.start_mu = *m->value;
  }
  const double mu = starting_mu(s, obstacles);
  if (fits_mu(s, obstacles) && mu > s.mu_max) {
    const std::string mu_max = name("mu_max"), value = shortest(mu), bound = shortest(s.mu_max);
    const std::string interval = " (mu is fitted in [0, mu_max]); ";
    if (request.start_mu)
      return R::failure(name("start_mu") + ": " + value + " lies above " + mu_max + " " + bound + interval +
                        "give a smaller mu or raise " + mu_max);
    if (std::isfinite(s.start_mu))
      return R::failure(name("start") + ": its mu " + value + " lies above " + mu_max + " " + bound + interval +
                        "give a smaller mu or raise " + mu_max);
    return R::failure(mu_max + ": " + bound + " is below the first obstacle's friction coefficient " + value +
                      ", the fit's starting mu" + interval + "raise " + mu_max + " or give a starting mu (" +
                      name("start_mu") + ")");
  }
  return R::success(std::move(s));
}

}  // namespace tela
