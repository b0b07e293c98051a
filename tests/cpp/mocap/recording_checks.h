// Checks shared by the recording parser tests: parse bytes expecting a Recording (the error in
// the failure message) or expecting an error, and substring tests for messages.
#pragma once

#include "mocap/parse_recording.h"

#include <doctest/doctest.h>

#include <string>

namespace recording_checks {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline tela::Recording parse_ok(const std::string& bytes, const tela::RecordingParseOptions& options = {}) {
  tela::Result<tela::Recording> r = tela::parse_recording(bytes, options);
  INFO(r.error);
  REQUIRE(r.ok());
  return *r.value;
}

inline std::string parse_error(const std::string& bytes) {
  tela::Result<tela::Recording> r = tela::parse_recording(bytes);
  REQUIRE_FALSE(r.ok());
  return r.error;
}

}  // namespace recording_checks
