// tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--seed N] [--mesh-nodes N]
//                        [--crop x0,y0,z0,x1,y1,z1] [--voxel S] [--outliers K[,RATIO]]
//                        [--remove-planes K] [--plane-distance D]
//                        [--cleaned-out FILE.ply] [--mesh-out FILE.obj]:
// the Morse-theory reconstruction of a point cloud (thesis ch. 5). The cloud (PLY, PCD,
// XYZ/CSV/TXT, OBJ) is parsed by the pointcloud module and cleaned as the page does
// (pointcloud/cleaning.h, in this order): --crop keeps the points in a box; --voxel S averages
// them on a box grid of side S metres; --outliers K[,RATIO] removes the statistical outliers
// (K neighbours, RATIO standard deviations, default 2); --remove-planes K removes up to K
// dominant planes (RANSAC, points within D metres, by default twice the median spacing).
// --cleaned-out writes the cleaned cloud (ASCII PLY), --mesh-out the re-sampled quad mesh
// (OBJ), as the page's exports do.
#include "cli.h"

#include "base/integer_cast.h"
#include "geometry/obj_text.h"
#include "pointcloud/ply.h"
#include "morse/reconstruction.h"
#include "pointcloud/cleaning.h"
#include "pointcloud/parse_point_cloud.h"
#include "base/json_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tela::cli {
namespace {

// "a,b,c" -> exactly `count` finite numbers
bool parse_numbers(const std::string& text, std::size_t count, std::vector<double>& out) {
  const std::vector<std::string> items = split_list(text);
  out.assign(items.size(), 0.0);
  for (std::size_t i = 0; i < items.size(); ++i)
    if (!parse_real(items[i], out[i])) return false;
  return out.size() == count;
}

}  // namespace

int run_reconstruct(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--seed N] [--mesh-nodes N] "
      "[--crop x0,y0,z0,x1,y1,z1] [--voxel S] [--outliers K[,RATIO]] [--remove-planes K] [--plane-distance D] "
      "[--cleaned-out FILE.ply] [--mesh-out FILE.obj]";
  if (wants_help(args)) return print_usage(usage);
  std::string path, cleaned_out, mesh_out;
  CleaningOptions cleaning;
  morse::ReconstructOptions options;
  options.resample = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--direction" && has_value) {
      std::string text = args[++i];
      for (char& c : text)
        if (c == ',') c = ' ';
      std::istringstream in(text);
      std::string part;
      std::vector<double> d;
      while (in >> part) {
        double v = 0;
        if (!parse_real(part, v)) return bad_input("--direction: '" + part + "' is not a number");
        d.push_back(v);
      }
      if (d.size() != 3) return bad_input("--direction: needs three numbers x,y,z");
      options.direction = Eigen::Vector3d(d[0], d[1], d[2]);
    } else if (a == "--levels" && has_value) {
      if (!parse_int(args[++i], 2, 10000, options.levels))
        return bad_input("--levels: needs a whole number between 2 and 10000");
    } else if (a == "--seed" && has_value) {
      double v = 0;
      if (!parse_real(args[++i], v) || !(v >= 0 && is_whole_number(v)))
        return bad_input("--seed: needs a whole number from 0 to 2^53");
      options.seed = static_cast<std::uint64_t>(v);
    } else if (a == "--mesh-nodes" && has_value) {
      if (!parse_int(args[++i], 0, 200, options.resample_nodes))
        return bad_input("--mesh-nodes: needs a whole number of mesh nodes per side between 0 (automatic) and 200");
    } else if (a == "--crop" && has_value) {
      std::vector<double> c;
      if (!parse_numbers(args[++i], 6, c))
        return bad_input("--crop: needs the box's corners as six numbers x0,y0,z0,x1,y1,z1 (metres)");
      cleaning.crop = CropBox{Eigen::Vector3d(c[0], c[1], c[2]), Eigen::Vector3d(c[3], c[4], c[5])};
    } else if (a == "--voxel" && has_value) {
      if (!parse_real(args[++i], cleaning.voxel) || cleaning.voxel <= 0)
        return bad_input("--voxel: needs a box size > 0 (metres)");
    } else if (a == "--outliers" && has_value) {
      const std::vector<std::string> items = split_list(args[++i]);
      if (items.empty() || items.size() > 2 || !parse_int(items[0], 1, 200, cleaning.outlier_k) ||
          (items.size() == 2 && !(parse_real(items[1], cleaning.outlier_ratio) && cleaning.outlier_ratio > 0)))
        return bad_input("--outliers: needs K[,RATIO]: K neighbours from 1 to 200, RATIO standard deviations > 0 (default 2)");
    } else if (a == "--plane-distance" && has_value) {
      if (!parse_real(args[++i], cleaning.plane_distance) || cleaning.plane_distance <= 0)
        return bad_input("--plane-distance: needs a distance > 0 (metres)");
    } else if (a == "--remove-planes" && has_value) {
      if (!parse_int(args[++i], 0, 10, cleaning.planes))
        return bad_input("--remove-planes: needs a whole number between 0 and 10");
    } else if (a == "--cleaned-out" && has_value) {
      cleaned_out = args[++i];
    } else if (a == "--mesh-out" && has_value) {
      mesh_out = args[++i];
    } else if (a.rfind("--", 0) == 0) {
      return bad_input("unknown or incomplete option '" + a + "'; " + usage);
    } else if (path.empty()) {
      path = a;
    } else {
      return bad_input("unexpected argument '" + a + "'; " + usage);
    }
  }
  if (path.empty()) return bad_input(usage);
  Result<std::string> text = read_file(path);
  if (!text.ok()) return bad_input(text.error);
  Result<PointCloud> parsed = parse_point_cloud(*text.value, path);
  if (!parsed.ok()) return bad_input(path + ": " + parsed.error);
  PointCloud cloud = std::move(*parsed.value);
  const int points_read = cloud.point_count();
  cleaning.seed = options.seed;
  Result<CleanedCloud> cleaned = clean_cloud(std::move(cloud), cleaning);
  // the core names the step ("voxel: ..."); here it becomes the option ("--voxel: ...")
  if (!cleaned.ok())
    return bad_input("--" + (cleaned.error.rfind("planes:", 0) == 0 ? "remove-" + cleaned.error : cleaned.error));
  const int planes_removed = static_cast<int>(cleaned.value->planes.size());
  nlohmann::json cleaning_steps = nlohmann::json::array();
  for (const CleaningStep& step : cleaned.value->steps) cleaning_steps.push_back({{"step", step.step}, {"count", step.count}});
  cloud = std::move(cleaned.value->cloud);
  if (!cleaned_out.empty() && !write_file(cleaned_out, write_ply(cloud, PlyEncoding::ascii)))
    return bad_input("--cleaned-out: cannot write '" + cleaned_out + "'");
  Result<morse::Reconstruction> result = morse::reconstruct(cloud.points, options);
  if (!result.ok()) {
    // what the cleaning left is what was refused: say how it got there
    std::string steps;
    for (const CleaningStep& step : cleaned.value->steps)
      steps += (steps.empty() ? "" : " → ") + step.step + " " + std::to_string(step.count);
    const bool cleaned_some = cleaned.value->steps.size() > 1;
    return bad_input(path + ": " + (cleaned_some ? "after cleaning (points: " + steps + "): " : "") + result.error);
  }
  const morse::Reconstruction& r = *result.value;
  if (!mesh_out.empty()) {
    if (!r.mesh) return bad_input("--mesh-out: " + path + " gives no re-sampled mesh: " + r.mesh_message);
    if (!write_file(mesh_out, obj_text(r.mesh->positions, r.mesh->faces, "tela re-sampled mesh of " + path)))
      return bad_input("--mesh-out: cannot write '" + mesh_out + "'");
  }
  nlohmann::json critical = nlohmann::json::object();
  for (int t = 0; t < morse::kCriticalTypeCount; ++t)
    critical[morse::to_string(static_cast<morse::CriticalType>(t))] = r.critical.count(static_cast<morse::CriticalType>(t));
  const morse::Topology& topology = r.topology;
  // attaching words: per 2-cell, [1-cell, sign] letters in the cyclic order of the walk round it
  nlohmann::json words = nlohmann::json::array();
  for (const std::vector<morse::AttachingEdge>& word : r.attachment.words) {
    nlohmann::json letters = nlohmann::json::array();
    for (const morse::AttachingEdge& e : word) letters.push_back({e.cell, e.sign});
    words.push_back(letters);
  }
  nlohmann::json ends = nlohmann::json::array();
  for (const std::array<int, 2>& e : r.attachment.ends) ends.push_back({e[0], e[1]});
  nlohmann::json attachment = {
      {"one_cell_ends", ends},
      {"words", words},
      {"collapses_to", r.attachment.collapses_to},
      {"complete", r.attachment.complete},
      {"problems", r.attachment.problems},
      {"corner_mismatches", r.attachment.corner_mismatches},
      {"orientable", r.attachment.orientable},
  };
  nlohmann::json out = {
      {"points_read", points_read},
      {"points_used", r.points.rows()},
      {"planes_removed", planes_removed},
      {"cleaning", cleaning_steps},
      {"direction", {r.direction(0), r.direction(1), r.direction(2)}},
      {"levels", r.slicing.slab_count},
      {"critical_points", critical},
      {"cells", {topology.cells[0], topology.cells[1], topology.cells[2]}},
      {"euler", topology.euler},
      {"morse_sum", topology.morse_sum},
      {"boundary_components", topology.boundary_components},
      {"connected_components", topology.connected_components},
      {"genus", topology.genus >= 0 ? nlohmann::json(topology.genus) : nlohmann::json(nullptr)},  // null: undefined
      {"orientable", topology.orientable},
      {"orientable_from", r.attachment.orientable >= 0 ? "attaching_words" : "normals"},
      {"attachment", attachment},
      {"mesh_nodes", r.mesh ? r.mesh->node_count() : 0},
      {"warnings", r.warnings},
  };
  std::printf("%s\n", json_text(out).c_str());
  return 0;
}

}  // namespace tela::cli
