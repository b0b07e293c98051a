// libFuzzer target: bytes -> parse_recording (every format, sniffed) -> marker grid -> the
// simulation mesh of a fit. Whatever the bytes, each stage returns a value or a message;
// nothing may crash, hang or trip the sanitizers. Build and run: scripts/fuzz.sh recording.
#include "mocap/marker_cloth.h"
#include "mocap/marker_grid.h"
#include "mocap/parse_recording.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  const auto recording = tela::parse_recording(bytes);
  if (!recording.ok()) return 0;
  if (recording.value->point_count() > 400 || recording.value->frame_count() > 20000) return 0;
  const auto grid = tela::detect_marker_grid(*recording.value);
  if (!grid.ok()) return 0;
  tela::build_marker_cloth(*recording.value, *grid.value);
  return 0;
}
