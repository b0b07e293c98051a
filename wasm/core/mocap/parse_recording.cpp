#include "mocap/parse_recording.h"

#include "mocap/c3d.h"
#include "mocap/delimited_text.h"
#include "mocap/length_units.h"
#include "mocap/motive_csv.h"
#include "mocap/plain_csv.h"
#include "mocap/qualisys_tsv.h"
#include "mocap/vicon_csv.h"
#include "mocap/text_encoding.h"

namespace tela {

std::string sniff_recording_format(std::string_view bytes) {
  if (looks_like_c3d(bytes)) return "c3d";
  // the first non-blank line, and whether some line starts a Vicon section
  std::size_t start = 0;
  while (start < bytes.size() && (bytes[start] == '\n' || bytes[start] == '\r' || bytes[start] == ' ')) ++start;
  std::string_view rest = bytes.substr(start);
  if (rest.size() >= 3 && static_cast<unsigned char>(rest[0]) == 0xEF) rest.remove_prefix(3);
  if (rest.empty()) return "";
  const std::string head = lower_case(std::string(rest.substr(0, 64)));
  if (head.rfind("format version", 0) == 0) return "motive-csv";
  if (head.rfind("trajectories", 0) == 0 || head.rfind("devices", 0) == 0) return "vicon-csv";
  const std::string first_kb = std::string(rest.substr(0, 4096));
  if (first_kb.find("NO_OF_FRAMES") != std::string::npos || first_kb.find("MARKER_NAMES") != std::string::npos)
    return "qualisys-tsv";
  if (first_kb.find("\nTrajectories") != std::string::npos) return "vicon-csv";
  return "csv";
}

Result<Recording> parse_recording(std::string_view file_bytes, const RecordingParseOptions& options) {
  using R = Result<Recording>;
  std::string override_units;
  if (!options.units.empty()) {
    override_units = canonical_length_unit(options.units);
    if (override_units.empty()) return R::failure("units: '" + options.units + "' is not one of m, cm, mm");
  }
  // binary C3D first: its bytes are never text (nor transcoded)
  const bool c3d = options.format == "c3d" || (options.format.empty() && looks_like_c3d(file_bytes));
  // any other binary file would be read as CSV, and its first bytes quoted as a column name
  if (!c3d) {
    const std::string_view head = file_bytes.substr(0, 4096);
    if (head.size() >= 2 && ((head[0] == '\xFF' && head[1] == '\xFE') || (head[0] == '\xFE' && head[1] == '\xFF')))
      return R::failure("the file is UTF-16 text: save it as UTF-8 (or ANSI) text and load it again");
    if (head.find('\0') != std::string_view::npos)
      return R::failure("the file is binary but not C3D (its header does not point to a C3D parameter section): the "
                        "formats read are OptiTrack Motive CSV, Vicon CSV, Qualisys TSV, C3D and CSV");
  }
  // names in a Windows code page (a Motive take "Größe" saved as Windows-1252) become UTF-8
  const bool utf8 = c3d || is_utf8(file_bytes);
  const std::string transcoded = utf8 ? std::string() : as_utf8(file_bytes);
  const std::string_view bytes = utf8 ? file_bytes : std::string_view(transcoded);
  const std::string format = c3d ? "c3d" : options.format.empty() ? sniff_recording_format(bytes) : options.format;
  Result<Recording> parsed = R::failure("the file is empty");
  if (format.empty()) return parsed;
  if (format == "c3d") parsed = parse_c3d(bytes);
  else if (format == "motive-csv") parsed = parse_motive_csv(bytes);
  else if (format == "vicon-csv") parsed = parse_vicon_csv(bytes);
  else if (format == "qualisys-tsv") parsed = parse_qualisys_tsv(bytes);
  else if (format == "csv" || format == "csv-long" || format == "csv-wide") parsed = parse_plain_csv(bytes);
  else return R::failure("format: '" + format + "' is not one of motive-csv, vicon-csv, qualisys-tsv, c3d, csv");
  if (!parsed.ok()) return R::failure(format + ": " + parsed.error);
  Recording& rec = *parsed.value;
  if (!override_units.empty() && override_units != rec.units) {
    rec.positions *= metres_per_unit(override_units) / metres_per_unit(rec.units);
    rec.warnings.push_back("units overridden: the file's values read as " + override_units + " instead of " + rec.units);
    rec.units = override_units;
    rec.units_declared = true;
  }
  if (!utf8) rec.warnings.push_back("the file is not UTF-8 text: its names were read as Windows-1252");
  return parsed;
}

}  // namespace tela
