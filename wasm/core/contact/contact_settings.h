// How the cloth meets obstacles and itself (thesis §3.3): its thickness tau0 (two layers of
// cloth keep tau0 apart; the mid-surface keeps tau0 / 2 from an obstacle surface), the
// proximity omega of the displaced continuous checks (§3.3.3), and whether cloth-cloth
// contacts are detected, with their friction. Built from the scenario's self_collision by the
// compile step (sim/compile.h).
#pragma once

namespace tela {

struct ContactSettings {
  double thickness = 0.003;     // tau0, metres
  double proximity = 0.5;       // omega of thesis §3.3.3, in [0, 0.5]
  bool self_collision = false;  // cloth-cloth contacts
  double self_mu = 0.3;         // cloth-cloth friction
};

}  // namespace tela
