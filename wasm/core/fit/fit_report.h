// JSON forms of a fit for the CLI, the page and exports: what was detected in the recording,
// and the fitted parameters with their errors (docs/cli.md, "tela fit").
#pragma once

#include "fit/fit_job.h"
#include "fit/fit_problem.h"

#include <string>
#include <vector>

namespace tela {

// {"recording": {format, units, rate, frames, points, duration, missing_samples,
//  missing_fraction, up_axis, up_axis_source, names}, "grid": {...}, "mesh": {...},
//  "rho", "kappa", "warnings"}
std::string fit_summary_json(const FitProblem& problem);

// What was read from a recording alone (format, units, rate, frames, points, missing data,
// names, warnings): shown while a problem cannot be built from it (e.g. no marker grid found).
std::string recording_summary_json(const Recording& recording);

// The summary plus delta, alpha, delta_over_rho, alpha_over_rho, mean_error_cm (testing
// window), spatial_sd_cm, train_error_cm, a_priori, sweep best, evaluations, cancelled, mu
// (null: contacts are not simulated yet). With `details`: per-frame errors ("frames") and
// every sweep point ("sweep_points").
std::string fit_result_json(const FitProblem& problem, const FitSettings& settings, const FitResult& result,
                            bool details);

// A fit's replay marker by marker, the page's "Replay CSV" (web/src/io/export.js): one row per
// step and grid marker, `step,time,marker,recorded_x,recorded_y,recorded_z,simulated_x,
// simulated_y,simulated_z,distance_cm` (metres, the recording's z-up frame; an occluded
// sample leaves the recorded cells and the distance empty). trajectory: the positions at every
// step of a simulation of the problem (evaluate(..., &trajectory)).
std::string marker_replay_csv(const FitProblem& problem, const std::vector<Positions>& trajectory);

}  // namespace tela
