// tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--voxel S] [--remove-planes K]
//                        [--plane-distance D] [--seed N]:
// the Morse-theory reconstruction of a point cloud (thesis ch. 5). The cloud (PLY, PCD,
// XYZ/CSV/TXT, OBJ) is parsed by the pointcloud module; --voxel S averages it on a box grid of
// side S metres; --remove-planes K removes up to K dominant planes (RANSAC, points within D
// metres, by default twice the median nearest-neighbour spacing) and then the statistical
// outliers left behind (16 neighbours, 3 standard deviations).
#include "cli.h"

#include "morse/reconstruction.h"
#include "pointcloud/knn.h"
#include "pointcloud/outlier_removal.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/planes.h"
#include "pointcloud/voxel_downsample.h"
#include "scenario/json_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tela::cli {
namespace {

// median distance from a point to its nearest neighbour (0 for fewer than two points)
double median_spacing(const Positions& points) {
  if (points.rows() < 2) return 0;
  const KnnIndex index(points);
  const std::vector<int> nearest = k_nearest_neighbours(index, 1);
  std::vector<double> d(points.rows());
  for (Eigen::Index i = 0; i < points.rows(); ++i) d[i] = (points.row(nearest[i]) - points.row(i)).norm();
  std::nth_element(d.begin(), d.begin() + d.size() / 2, d.end());
  return d[d.size() / 2];
}

}  // namespace

int run_reconstruct(const std::vector<std::string>& args) {
  const std::string usage =
      "usage: tela reconstruct CLOUD [--direction x,y,z] [--levels N] [--voxel S] [--remove-planes K] "
      "[--plane-distance D] [--seed N]";
  std::string path;
  double voxel = 0, plane_distance = 0;
  int planes = 0;
  morse::ReconstructOptions options;
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
      double v = 0;
      if (!parse_real(args[++i], v) || v != std::floor(v) || v < 2 || v > 10000)
        return bad_input("--levels: needs a whole number between 2 and 10000");
      options.levels = static_cast<int>(v);
    } else if (a == "--seed" && has_value) {
      double v = 0;
      if (!parse_real(args[++i], v) || v != std::floor(v) || v < 0) return bad_input("--seed: needs a whole number >= 0");
      options.seed = static_cast<std::uint64_t>(v);
    } else if (a == "--voxel" && has_value) {
      if (!parse_real(args[++i], voxel) || voxel <= 0) return bad_input("--voxel: needs a box size > 0 (metres)");
    } else if (a == "--plane-distance" && has_value) {
      if (!parse_real(args[++i], plane_distance) || plane_distance <= 0)
        return bad_input("--plane-distance: needs a distance > 0 (metres)");
    } else if (a == "--remove-planes" && has_value) {
      double v = 0;
      if (!parse_real(args[++i], v) || v != std::floor(v) || v < 0 || v > 100)
        return bad_input("--remove-planes: needs a whole number between 0 and 100");
      planes = static_cast<int>(v);
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
  if (voxel > 0) {
    const std::string problem = voxel_size_problem(cloud, voxel);
    if (!problem.empty()) return bad_input("--" + problem);
    cloud = voxel_downsample(cloud, voxel);
  }
  int planes_removed = 0;
  if (planes > 0) {
    const double distance = plane_distance > 0 ? plane_distance : 2 * median_spacing(cloud.points);
    const std::vector<PlaneFit> found = detect_planes(cloud, planes, distance, options.seed);
    planes_removed = static_cast<int>(found.size());
    if (!found.empty()) {
      cloud = remove_planes(cloud, found, distance);
      cloud = remove_statistical_outliers(cloud, 16, 3.0);
    }
  }
  options.resample = true;
  Result<morse::Reconstruction> result = morse::reconstruct(cloud.points, options);
  if (!result.ok()) return bad_input(path + ": " + result.error);
  const morse::Reconstruction& r = *result.value;
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
