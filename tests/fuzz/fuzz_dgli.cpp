// libFuzzer target: the Classify panel's inputs: text -> an OBJ mesh, a boundary CSV or a
// dGLI database (the first byte picks which), then the cloth coordinates of what was read.
// Build and run: scripts/fuzz.sh dgli.
#include "dgli/cloth_boundary.h"
#include "dgli/cloth_coordinates.h"
#include "dgli/cloth_state_input.h"
#include "dgli/database_json.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  switch (data[0] % 3) {
    case 0: {
      const auto mesh = tela::parse_obj_mesh(text);
      if (!mesh.ok() || mesh.value->node_count() > 5000) return 0;
      const auto curve = tela::mesh_boundary(*mesh.value, mesh.value->positions);
      if (curve.ok()) tela::cloth_coordinates(*curve.value, tela::CoordinateSettings{});
      break;
    }
    case 1: {
      const auto points = tela::parse_boundary_csv(text);
      if (!points.ok() || points.value->rows() > 5000) return 0;
      const auto curve = tela::polyline_boundary(*points.value);
      if (curve.ok()) tela::cloth_coordinates(*curve.value, tela::CoordinateSettings{});
      break;
    }
    default:
      tela::parse_database(text);
  }
  return 0;
}
