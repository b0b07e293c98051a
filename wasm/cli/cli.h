// Shared pieces of the `tela` command: file reading and the JSON error contract
// (bad input: {"error": ...} and exit 2; numerical failure: exit 3).
#pragma once

#include "base/result.h"
#include "scenario/scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tela::cli {

constexpr int kExitBadInput = 2;
constexpr int kExitNumericalFailure = 3;

// Prints {"error": message} on stdout and returns kExitBadInput.
int bad_input(const std::string& message);

// --help or -h anywhere in a command's arguments: it prints its usage and does nothing else.
bool wants_help(const std::vector<std::string>& args);
// Prints {"usage": usage} on stdout and returns 0.
int print_usage(const std::string& usage);

// The whole file, or a message: missing, a directory, or more than max_bytes (checked before
// reading).
constexpr std::int64_t kMaxInputBytes = std::int64_t(2) << 30;  // recordings, point clouds (2 GiB)
constexpr std::int64_t kMaxScenarioBytes = std::int64_t(64) << 20;  // a 20,000-node explicit mesh is ~2 MB
Result<std::string> read_file(const std::string& path, std::int64_t max_bytes = kMaxInputBytes);
// Writes `text` as the whole file at `path` (bytes as they are); false when it cannot.
bool write_file(const std::string& path, const std::string& text);
// Whether `path` can be opened for writing (checked before a long computation; creates an
// empty file when there was none, which the later write_file replaces).
bool writable(const std::string& path);

// A whole option value: a whole number in [lo, hi], or a finite real number (the whole text,
// no trailing characters). False leaves `out` unchanged.
bool parse_int(const std::string& text, int lo, int hi, int& out);
bool parse_real(const std::string& text, double& out);

// "a,b,c" -> {"a", "b", "c"} (no trimming; "" -> {}).
std::vector<std::string> split_list(const std::string& text);

// A scenario from a file path or, when no such file exists, a built-in scene name.
Result<Scenario> load_scenario(const std::string& file_or_name);

int run_scenarios(const std::vector<std::string>& args);
int run_scenario(const std::vector<std::string>& args);
int run_simulate(const std::vector<std::string>& args);
int run_reconstruct(const std::vector<std::string>& args);
int run_dgli(const std::vector<std::string>& args);
int run_classify(const std::vector<std::string>& args);
int run_dgli_database(const std::vector<std::string>& args);
int run_fit(const std::vector<std::string>& args);
int run_synth_recording(const std::vector<std::string>& args);

}  // namespace tela::cli
