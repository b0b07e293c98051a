// tela scenarios: the names of the built-in scenes.
#include "cli.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "scenario/scenes.h"

namespace tela::cli {

int run_scenarios(const std::vector<std::string>& args) {
  if (!args.empty()) return bad_input("usage: tela scenarios");
  std::printf("%s\n", nlohmann::json{{"scenarios", scene_names()}}.dump().c_str());
  return 0;
}

}  // namespace tela::cli
