#include "dgli/state_distance.h"

#include "base/portable_math.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace tela {
namespace {

using Vector = std::vector<double>;

constexpr double kNormFloor = 1e-12;

double norm_of(const Vector& v) {
  double sum = 0;
  for (double x : v) sum += x * x;
  return std::max(std::sqrt(sum), kNormFloor);
}

}  // namespace

const char* to_string(StateDistance distance) {
  switch (distance) {
    case StateDistance::direction_log_norm: return "direction_log_norm";
    case StateDistance::saturated: return "saturated";
    default: return "euclidean";
  }
}

bool parse_state_distance(const std::string& text, StateDistance& out) {
  if (text == "euclidean") out = StateDistance::euclidean;
  else if (text == "direction_log_norm") out = StateDistance::direction_log_norm;
  else if (text == "saturated") out = StateDistance::saturated;
  else return false;
  return true;
}

Vector distance_features(const Vector& coordinates, StateDistance distance, double saturation) {
  if (distance == StateDistance::euclidean) return coordinates;
  Vector out = coordinates;
  if (distance == StateDistance::saturated)
    for (double& x : out) x = saturation * portable_tanh(x / saturation);
  const double norm = norm_of(out);
  for (double& x : out) x /= norm;
  out.push_back(portable_log(norm));  // portable: native and wasm distances are bit-identical
  return out;
}

double coordinate_distance(const Vector& a, const Vector& b) {
  assert(a.size() == b.size());
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

}  // namespace tela
