// One entry point for every recording format: sniffs the format from the content (not the
// file name), parses, and applies the user's overrides.
#pragma once

#include "mocap/recording.h"
#include "base/result.h"

#include <string>
#include <string_view>

namespace tela {

struct RecordingParseOptions {
  std::string format;  // "" (sniff), motive-csv, vicon-csv, qualisys-tsv, c3d, csv (plain, long or wide)
  std::string units;   // "" (as the file says or, for plain CSV, guessed), or m | cm | mm to override
};

// The format a file looks like: c3d (binary: mocap/c3d.h looks_like_c3d), motive-csv ("Format
// Version" first), vicon-csv (a "Trajectories" or "Devices" section), qualisys-tsv (NO_OF_FRAMES /
// MARKER_NAMES lines), csv (anything else with commas); "" for empty input.
std::string sniff_recording_format(std::string_view bytes);

// Parses `bytes` into a Recording (metres, the file's axes). Errors name the line and column
// (C3D: the byte or the parameter). Text bytes that are not UTF-8 are read as Windows-1252 (with
// a warning), so names reach the JSON outputs intact; C3D bytes are binary and never transcoded.
Result<Recording> parse_recording(std::string_view bytes, const RecordingParseOptions& options = {});

}  // namespace tela
