// tela scenario NAME: the JSON of a built-in scene (a complete scenario file).
#include "cli.h"

#include <cstdio>

#include "scenario/json.h"
#include "scenario/scenes.h"

namespace tela::cli {

int run_scenario(const std::vector<std::string>& args) {
  const std::string usage = "usage: tela scenario NAME";
  if (wants_help(args)) return print_usage(usage);
  if (args.size() != 1) return bad_input(usage);
  const auto scene = builtin_scene(args[0]);
  if (!scene) return bad_input("no built-in scene named '" + args[0] + "' (see `tela scenarios`)");
  std::printf("%s\n", scenario_to_json(*scene).c_str());
  return 0;
}

}  // namespace tela::cli
