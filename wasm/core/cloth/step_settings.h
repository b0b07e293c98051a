// How the cloth is stepped (cloth/step.h): step length, projection tolerance and iteration
// cap, adaptive subdivision, strain limit. Built from the scenario's solver settings by the
// compile step (sim/compile.h).
#pragma once

namespace tela {

struct StepSettings {
  double dt = 0.01;             // s
  double tolerance = 1e-3;      // relative constraint error (see cloth/constraints.h)
  int max_iterations = 50;      // projection iterations per step
  // adaptive subdivision (cloth/step.h, our addition): at most 1, 2 or 4 substeps per step;
  // 1 is the thesis' fixed step
  int max_substeps = 4;
  // strain limit epsilon (cloth/strain_limit.h, our addition): element node pairs stay within
  // (1 + epsilon) of their rest distance; 0 (default) is the thesis' model alone
  double strain_limit = 0.0;
};

}  // namespace tela
