// libFuzzer target: bytes -> parse_recording (every format, sniffed) -> the fit problem (up
// axis, marker grid, simulation mesh, held-corner tracks, resampled targets, initial
// projection) -> one short simulation with its error metrics. Whatever the bytes, each stage
// returns a value or a message; nothing may crash, hang or trip the sanitizers.
// Build and run: scripts/fuzz.sh recording.
#include "fit/fit_problem.h"
#include "mocap/parse_recording.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto recording = tela::parse_recording(bytes);
  if (!recording.ok()) return 0;
  if (recording.value->point_count() > 400 || recording.value->frame_count() > 20000) return 0;
  tela::FitProblemOptions options;
  if (recording.value->duration() > 0.2) options.duration = 0.2;  // keep each input fast
  const auto problem = tela::make_fit_problem(std::move(*recording.value), options);
  if (!problem.ok() || problem.value->cloth.mesh.node_count() > 400) return 0;
  tela::evaluate(*problem.value, 0.5, 2.0, tela::Window{});
  return 0;
}
