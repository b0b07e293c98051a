// tela synth-recording SCENE --out file.csv: a synthetic Motive CSV recording of a simulated
// sheet with known parameters (generators/synthetic_recording.h); --out FILE.c3d writes it as a C3D
// file instead (Intel, float data, y up in POINT:Y_SCREEN). SCENE: A2-shake, A2-twist, A2-lay,
// A3-shake, A3-twist or A3-lay.
#include "cli.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/integer_cast.h"
#include "mocap/c3d_writer.h"
#include "mocap/motive_csv_writer.h"
#include "generators/synthetic_recording.h"
#include "base/json_text.h"

namespace tela::cli {

int run_synth_recording(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela synth-recording A2-shake|A2-twist|A2-lay|A3-shake|A3-twist|A3-lay --out FILE [--duration S] "
      "[--rho R] [--delta D] [--alpha A] [--kappa K] [--mu M] [--noise M] [--occlusion F] [--seed N] "
      "[--amplitude X] [--frequency F] [--units mm|m] [--decimals N]\n"
      "(lay: laid on the table of the built-in scene 'tablecloth'; fit it with --scenario tablecloth; "
      "FILE ending in .c3d: a C3D file, else Motive CSV)";
  if (wants_help(args)) return print_usage(usage);
  std::string scene, out_path;
  SyntheticRecordingSpec spec;
  MotiveWriteOptions write;
  std::optional<double> delta, alpha;
  bool mu_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) == 0) {
      if (i + 1 >= args.size()) return bad_input("option " + a + " needs a value; " + usage);
      const std::string v = args[++i];
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      const bool number = !v.empty() && *end == '\0' && std::isfinite(x);
      if (a == "--out") out_path = v;
      else if (a == "--units") write.units = v;
      else if (!number) return bad_input(a + ": needs a number, got '" + v + "'");
      else if (a == "--duration") spec.duration = x;
      else if (a == "--rho") spec.rho = x;
      else if ((a == "--delta" || a == "--alpha") && x < 0) return bad_input(a + ": must be >= 0 (got '" + v + "')");
      else if (a == "--delta") delta = x;
      else if (a == "--alpha") alpha = x;
      else if (a == "--noise") spec.noise = x;
      else if (a == "--kappa") spec.kappa = x;
      else if (a == "--mu") spec.mu = x, mu_given = true;
      else if (a == "--occlusion") spec.occlusion = x;
      else if (a == "--seed") {
        if (!(x >= 0 && is_whole_number(x)))  // a double beyond 2^64 (or negative) cannot be cast
          return bad_input("--seed: needs a whole number from 0 to 2^53 (got '" + v + "')");
        spec.seed = static_cast<std::uint64_t>(x);
      } else if (a == "--amplitude") spec.amplitude = x;
      else if (a == "--frequency") spec.frequency = x;
      else if (a == "--decimals") {
        if (!parse_int(v, 0, 9, write.decimals)) return bad_input("--decimals: a whole number from 0 to 9 (got '" + v + "')");
      }
      else return bad_input("unknown option '" + a + "'; " + usage);
    } else if (scene.empty()) {
      scene = a;
    } else {
      return bad_input("unexpected argument '" + a + "'; " + usage);
    }
  }
  if (scene.size() < 4 || scene[2] != '-')
    return bad_input(scene.empty() ? usage : "unknown scene '" + scene + "'; " + usage);
  if (out_path.empty()) return bad_input("--out FILE is required; " + usage);
  if (write.units != "mm" && write.units != "m") return bad_input("--units: mm or m (got '" + write.units + "')");
  if (!(spec.rho > 0)) return bad_input("--rho: must be > 0");
  spec.size = scene.substr(0, 2);
  spec.motion = scene.substr(3);
  if (mu_given && spec.motion != "lay") return bad_input("--mu: only the lay scenes touch anything (got scene '" + scene + "')");
  if (delta) spec.delta_ratio = *delta / spec.rho;
  if (alpha) spec.alpha_ratio = *alpha / spec.rho;
  if (const std::string error = synthetic_spec_error(spec); !error.empty()) return bad_input(error);
  Result<Recording> rec = synthesize_recording(spec);
  if (!rec.ok()) {  // the spec is valid: the simulation failed
    std::printf("%s\n", json_text(nlohmann::json{{"error", rec.error}}).c_str());
    return kExitNumericalFailure;
  }
  write.take_name = "tela " + scene;
  std::string extension = out_path.size() >= 4 ? out_path.substr(out_path.size() - 4) : std::string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  C3dWriteOptions c3d;
  c3d.units = write.units;
  const std::string text = extension == ".c3d" ? write_c3d(*rec.value, c3d) : write_motive_csv(*rec.value, write);
  if (!write_file(out_path, text)) return bad_input("--out: cannot write '" + out_path + "'");
  nlohmann::json out = {{"out", out_path},       {"format", extension == ".c3d" ? "c3d" : "motive-csv"},
                        {"size", spec.size},
                        {"motion", spec.motion}, {"frames", rec.value->frame_count()},
                        {"markers", rec.value->point_count()}, {"missing_samples", missing_samples(*rec.value)},
                        {"rho", spec.rho},       {"delta", spec.delta_ratio * spec.rho},
                        {"alpha", spec.alpha_ratio * spec.rho}, {"noise", spec.noise}, {"kappa", spec.kappa},
                        {"mu", spec.motion == "lay" ? nlohmann::json(spec.mu) : nlohmann::json(nullptr)},
                        {"bytes", text.size()}};
  std::printf("%s\n", json_text(out).c_str());
  return 0;
}

}  // namespace tela::cli
