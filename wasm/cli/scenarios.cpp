// tela scenarios: the names of the built-in scenes.
#include "cli.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "scenario/scenes.h"
#include "base/json_text.h"

namespace tela::cli {

int run_scenarios(const std::vector<std::string>& args) {
  const std::string usage = "usage: tela scenarios";
  if (wants_help(args)) return print_usage(usage);
  if (!args.empty()) return bad_input(usage);
  std::printf("%s\n", json_text(nlohmann::json{{"scenarios", scene_names()}}).c_str());
  return 0;
}

}  // namespace tela::cli
