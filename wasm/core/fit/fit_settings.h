// The settings of a fit (fit/fit_job.h) with their defaults, and the one check of the settings
// a person gives. `tela fit`'s flags (wasm/cli/fit.cpp) and the page's settings keys
// (wasm/bindings/fit_options.h) only map what was given onto a FitSettingsRequest;
// make_fit_settings refuses a value the fit cannot use, naming the setting as its caller does
// (a key for the page, a flag for the CLI), rather than clamping it or taking the default.
#pragma once

#include "base/result.h"
#include "fit/fit_problem.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace tela {

// the ranges of the settings below; a value outside is refused, never clamped
constexpr int kMaxFitGrid = 200;              // grid and mu_grid: 0 (off) or 2 to this
constexpr int kMaxRefineEvaluations = 10000;  // refine_evaluations: 0 to this
constexpr double kMaxFitMu = 100;             // mu_max: in (0, this]

struct FitSettings {
  int grid = 20;                   // sweep points per axis (0: no sweep)
  double delta_ratio_max = 1.0;    // sweep box [0, max] for delta / rho (thesis: [0, rho])
  double alpha_ratio_max = 4.0;    // and for alpha / rho (thesis: [0, 4 rho])
  int refine_evaluations = 40;     // Nelder-Mead budget (0: no refinement)
  Window train;                    // fitting window (default: the whole recording, as §4.2)
  Window test;                     // reporting window (§4.1.2 uses the last half)
  int a_priori_repetition = 1;     // Table 4.6 column: 1 (hanger) or 2 (bare hands)
  bool has_start = false;          // a user's starting point replaces the a-priori one
  double start_delta_ratio = 0, start_alpha_ratio = 0;
  int threads = 1;                 // sweep threads (native only; the wasm build runs 1)
  // contact scenes only (problems with obstacles)
  int mu_grid = 9;                 // points of the mu line in [0, mu_max] (0: mu is not fitted)
  double mu_max = 2.0;             // Table 4.7's largest fitted mu is 2
  double start_mu = std::numeric_limits<double>::quiet_NaN();  // NaN: the obstacles' own
};

// §4.1.2: train on the first half of the recording, test on the last half.
void split_half(FitSettings& settings, double duration);

// The mu the sweep runs at: the start's, else the first obstacle's (NaN without obstacles).
// When mu is fitted the mu line and the refinement search [0, mu_max], so a starting mu above
// mu_max is refused (make_fit_settings) rather than let the fit leave what it searched.
double starting_mu(const FitSettings& settings, const std::vector<ObstacleDesc>& obstacles);
bool fits_mu(const FitSettings& settings, const std::vector<ObstacleDesc>& obstacles);

// One setting as a person gave it: what it reads as (absent when it does not read as a T, as
// "abc" for a number), and the text it was given as, quoted in a message ("2.5", "\"12\"").
template <class T>
struct Given {
  std::optional<T> value;
  std::string text;
};

// The settings a person gave, by the page's settings keys; an absent one keeps its default.
struct FitSettingsRequest {
  std::optional<Given<double>> grid;                // 0 (no sweep) or 2 to kMaxFitGrid, whole
  std::optional<Given<double>> refine_evaluations;  // 0 to kMaxRefineEvaluations, whole
  std::optional<Given<double>> mu_grid;             // 0 (mu fixed) or 2 to kMaxFitGrid, whole
  std::optional<Given<double>> mu_max;              // in (0, kMaxFitMu]
  std::optional<Given<double>> repetition;          // 1 (hanger) or 2 (bare hands)
  std::optional<Given<std::string>> split;          // "whole" or "half"
  // [delta / rho, alpha / rho] or [delta / rho, alpha / rho, mu], numbers >= 0 inside the
  // searched box; a mu only with obstacles
  std::optional<Given<std::vector<double>>> start;
  std::optional<Given<double>> start_mu;            // >= 0; with obstacles, and not with a start's mu
};

// How a caller names a setting (a key above, or "scene" for the choice of a scene with
// obstacles) in its messages: the page by the key itself (setting_key), `tela fit` by its flag.
using SettingName = std::string (*)(const std::string& key);
std::string setting_key(const std::string& key);

// The settings of a fit of a recording of `duration` seconds against `obstacles` (a problem's,
// fit/fit_problem.h): the defaults with what `request` gives, or the first setting that cannot
// be used, "NAME: must be WHAT (got TEXT)", or what it conflicts with ("start_mu: 0.9 lies
// above mu_max 0.5 (...)"), every setting named by `name`. threads stays 1.
Result<FitSettings> make_fit_settings(const FitSettingsRequest& request, const std::vector<ObstacleDesc>& obstacles,
                                      double duration, SettingName name = setting_key);

}  // namespace tela
