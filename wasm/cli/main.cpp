// tela: the command-line front end. Each command prints one JSON object on stdout.
#include "cli.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

#include <cmath>
#include <cstdlib>
#include "scenario/json.h"
#include "scenario/scenes.h"
#include "base/json_text.h"

namespace tela::cli {

int bad_input(const std::string& message) {
  std::printf("%s\n", json_text(nlohmann::json{{"error", message}}).c_str());
  return kExitBadInput;
}

bool wants_help(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") return true;
  return false;
}

int print_usage(const std::string& usage) {
  std::printf("%s\n", json_text(nlohmann::json{{"usage", usage}}).c_str());
  return 0;
}

bool parse_int(const std::string& text, int lo, int hi, int& out) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < lo || v > hi) return false;
  out = static_cast<int>(v);
  return true;
}

bool parse_real(const std::string& text, double& out) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) out.push_back(item);
  return out;
}

Result<std::string> read_file(const std::string& path, std::int64_t max_bytes) {
  using R = Result<std::string>;
  // checked before reading, so that an oversized file is refused without being loaded
  // (a 3 GiB file read whole would take 6 GB of memory before a parser could refuse it)
  struct stat info;
  if (stat(path.c_str(), &info) != 0) return R::failure("cannot read file '" + path + "'");
  if (S_ISDIR(info.st_mode)) return R::failure("'" + path + "' is a directory, not a file");
  if (S_ISREG(info.st_mode) && info.st_size > max_bytes)
    return R::failure("'" + path + "' is " + std::to_string(info.st_size) + " bytes, more than the " +
                      std::to_string(max_bytes) + " this command reads");
  std::ifstream in(path, std::ios::binary);
  if (!in) return R::failure("cannot read file '" + path + "'");
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    // a pipe or device has no size to check beforehand
    if (static_cast<std::int64_t>(text.size()) + in.gcount() > max_bytes)
      return R::failure("'" + path + "' has more than the " + std::to_string(max_bytes) + " bytes this command reads");
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) return R::failure("cannot read file '" + path + "'");
  return R::success(std::move(text));
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  return out && (out << text) && out.flush();
}

bool writable(const std::string& path) { return !path.empty() && std::ofstream(path, std::ios::app).good(); }

Result<Scenario> load_scenario(const std::string& file_or_name) {
  struct stat info;
  if (stat(file_or_name.c_str(), &info) == 0) {
    Result<std::string> text = read_file(file_or_name, kMaxScenarioBytes);
    if (!text.ok()) return Result<Scenario>::failure(text.error);
    Result<Scenario> scenario = parse_scenario(*text.value);
    if (!scenario.ok()) return Result<Scenario>::failure(file_or_name + ": " + scenario.error);
    return scenario;
  }
  if (auto scene = builtin_scene(file_or_name)) return Result<Scenario>::success(*scene);
  return Result<Scenario>::failure("'" + file_or_name +
                                   "' is neither a readable file nor a built-in scene (see `tela scenarios`)");
}

}  // namespace tela::cli

int main(int argc, char** argv) {
  using namespace tela::cli;
  std::vector<std::string> args(argv + 1, argv + argc);
  const std::string usage =
      "usage: tela scenarios | tela scenario NAME | tela simulate FILE|NAME [--out traj.csv] "
      "[--every K] [--final-obj FILE] [--steps N] | tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--crop ...] [--voxel S] [--outliers K[,R]] [--remove-planes K] | "
      "tela dgli STATE | tela classify STATE [--database FILE] | "
      "tela dgli-database --out FILE [--evaluate] | "
      "tela fit RECORDING [...] | tela synth-recording SCENE --out FILE";
  if (args.empty()) return bad_input(usage);
  const std::string command = args.front();
  if (command == "help" || command == "--help" || command == "-h")
    return print_usage(usage + " (tela COMMAND --help: the command's options)");
  args.erase(args.begin());
  if (command == "scenarios") return run_scenarios(args);
  if (command == "scenario") return run_scenario(args);
  if (command == "simulate") return run_simulate(args);
  if (command == "reconstruct") return run_reconstruct(args);
  if (command == "dgli") return run_dgli(args);
  if (command == "classify") return run_classify(args);
  if (command == "dgli-database") return run_dgli_database(args);
  if (command == "fit") return run_fit(args);
  if (command == "synth-recording") return run_synth_recording(args);
  return bad_input("unknown command '" + command + "'; " + usage);
}
