// Labelled toy states for the dGLI database tests.
#pragma once

#include "dgli/dgli_database.h"

#include <utility>
#include <vector>

namespace tela_test {

inline tela::ReferenceState state(int label, std::vector<double> coordinates) {
  tela::ReferenceState s;
  s.label = label;
  s.coordinates = std::move(coordinates);
  return s;
}

}  // namespace tela_test
