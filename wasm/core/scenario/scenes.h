// The built-in scene library, shared by tests, CLI, benchmarks and the page's gallery.
#pragma once

#include "scenario/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace tela {

std::vector<std::string> scene_names();
std::optional<Scenario> builtin_scene(const std::string& name);

}  // namespace tela
