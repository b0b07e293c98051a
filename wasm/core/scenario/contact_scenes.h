// The contact scenes of the built-in library (thesis §3.6 and §4.3), registered by scenes.cpp.
#pragma once

#include "scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace tela {

std::vector<std::string> contact_scene_names();
std::optional<Scenario> contact_scene(const std::string& name);

}  // namespace tela
