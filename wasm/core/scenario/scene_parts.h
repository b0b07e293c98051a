// Pieces the built-in scenes share (scenes.cpp, contact_scenes.cpp): controls by node set and
// the A2 sheet of wool the thesis' chapter 4 experiments use.
#pragma once

#include "scenario/scenario.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace tela {

// The node set held at its rest position.
Control hold(const std::string& node_set);

// The node set moved by keyframed displacements (Scenario: linear between keys).
Control keyframed(const std::string& node_set, const std::vector<Keyframe>& keys);

// An A2 sheet (42 x 59.4 cm, quads, 0.5 mm normal noise) of wool (thesis Table 4.1: rho 0.1804,
// delta 0.087, alpha 0.35, kappa 0) with the default solver (dt 0.01 s, tolerance 1e-3, 50
// iterations), nx x ny nodes in `plane` ("xy" or "xz") from `origin`; name, description,
// duration, controls and obstacles are the caller's.
Scenario a2_wool_sheet(int nx, int ny, const std::string& plane, const Eigen::Vector3d& origin);

}  // namespace tela
