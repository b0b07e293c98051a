// How two cloth states' dGLI coordinate vectors are compared (thesis §7.4 uses the Euclidean
// distance; the other two are our addition, see below).
#pragma once

#include <string>
#include <vector>

namespace tela {

// How two coordinate vectors are compared. euclidean: |a - b|. direction_log_norm: the
// Euclidean distance between (a/|a|, log|a|) and (b/|b|, log|b|) (|.| the Euclidean norm,
// floored at 1e-12): the pattern of signs and relative sizes counts, the overall magnitude only
// through its logarithm. dGLI entries grow like 1/distance when two segments approach (stacked
// layers, crumpled boundaries), so a few close pairs dominate the plain Euclidean distance.
// saturated: every entry x first becomes c tanh(x / c) (c = `saturation`, in the units of the
// coordinates), then as direction_log_norm: an entry beyond about c (two segments nearly
// touching) counts by its sign, so one pair of stacked segments cannot dominate the direction.
enum class StateDistance { euclidean, direction_log_norm, saturated };
const char* to_string(StateDistance distance);
bool parse_state_distance(const std::string& text, StateDistance& out);
constexpr double kDefaultSaturation = 2.0;

// The vector in which `distance` is Euclidean: the coordinates, or (v/|v|, log|v|) of the
// coordinates (saturated: of their saturated values).
std::vector<double> distance_features(const std::vector<double>& coordinates, StateDistance distance,
                                      double saturation = kDefaultSaturation);

// Euclidean distance; vectors of different length are a programmer error (debug assert).
double coordinate_distance(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace tela
