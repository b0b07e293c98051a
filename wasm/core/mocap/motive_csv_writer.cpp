#include "mocap/motive_csv_writer.h"

#include "mocap/length_units.h"

#include <cstdio>

namespace tela {

std::string write_motive_csv(const Recording& rec, const MotiveWriteOptions& options) {
  const double scale = 1.0 / metres_per_unit(options.units == "m" ? "m" : "mm");
  std::string out;
  char buffer[128];
  std::snprintf(buffer, sizeof buffer, "%.6f", rec.rate);
  const std::string rate = buffer;
  const std::string frames = std::to_string(rec.frame_count());
  out += "Format Version,1.23,Take Name," + options.take_name + ",Capture Frame Rate," + rate +
         ",Export Frame Rate," + rate + ",Capture Start Time,2026-01-01 12.00.00.000 PM,Total Frames in Take," +
         frames + ",Total Exported Frames," + frames + ",Rotation Type,Quaternion,Length Units," +
         (options.units == "m" ? "Meters" : "Millimeters") + ",Coordinate Space,Global\n\n";
  auto header_row = [&](const std::string& label, auto cell) {
    out += "," + label;
    for (int p = 0; p < rec.point_count(); ++p)
      for (int a = 0; a < 3; ++a) out += "," + cell(p);
    out += "\n";
  };
  header_row("Type", [&](int p) { return std::string(rec.kinds[p] == PointKind::rigid_body_marker ? "Rigid Body Marker" : "Marker"); });
  header_row("Name", [&](int p) { return rec.names[p]; });
  header_row("ID", [&](int p) { return std::to_string(p + 1); });
  if (options.parent_row) header_row("Parent", [&](int) { return std::string("Cloth"); });
  out += ",";
  for (int p = 0; p < rec.point_count(); ++p) out += ",Position,Position,Position";
  out += "\nFrame,Time (Seconds)";
  for (int p = 0; p < rec.point_count(); ++p) out += ",X,Y,Z";
  out += "\n";
  for (int f = 0; f < rec.frame_count(); ++f) {
    std::snprintf(buffer, sizeof buffer, "%ld,%.6f", rec.frame_numbers[f], rec.times[f]);
    out += buffer;
    for (int p = 0; p < rec.point_count(); ++p) {
      const bool valid = rec.valid(f, p);
      for (int a = 0; a < 3; ++a) {
        out += ',';
        if (!valid) continue;
        std::snprintf(buffer, sizeof buffer, "%.*f", options.decimals, scale * rec.positions(f, 3 * p + a));
        out += buffer;
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace tela
