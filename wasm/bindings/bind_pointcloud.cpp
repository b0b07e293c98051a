// Embind layer over pointcloud/: reading a point-cloud file and cleaning a cloud, the Reconstruct
// panel's steps before morse reconstructCloud (bind_morse.cpp). Declarations and conversions
// only; nothing here throws or aborts: bad input comes back as { ok: false, error }. Bulk data
// leaves as copies (js_copy.h).
#include "base/integer_cast.h"
#include "pointcloud/cleaning.h"
#include "pointcloud/parse_point_cloud.h"
#include "pointcloud/planes.h"
#include "js_copy.h"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <string>
#include <vector>

namespace tela {
namespace {

using emscripten::val;

val failure(const std::string& message) {
  val out = val::object();
  out.set("ok", false);
  out.set("error", message);
  return out;
}

bool is_number(const val& v) { return v.typeOf().as<std::string>() == "number"; }

// options[key] as a finite number, or fallback when absent; false when present but not a number
bool number_option(const val& options, const char* key, double fallback, double& out) {
  out = fallback;
  if (options.isUndefined() || options.isNull()) return true;
  const val v = options[key];
  if (v.isUndefined() || v.isNull()) return true;
  if (!is_number(v)) return false;
  out = v.as<double>();
  return std::isfinite(out);
}

val cloud_positions(const PointCloud& cloud) {
  return copy_to_js(static_cast<std::size_t>(cloud.points.size()), cloud.points.data());
}

// parseCloud(bytes: Uint8Array, name: string) -> { ok, format, positions: Float64Array,
// count, droppedNonFinite, colors: Uint8Array | null, gridWidth, gridHeight } or { ok: false, error }
val parse_cloud(val bytes, const std::string& name) {
  std::string data;
  if (!bytes_from_js(bytes, data)) return failure("the file bytes must be a Uint8Array");
  CloudLimits limits;  // normals and faces are never shown: not keeping them lets larger clouds fit
  limits.normals = false;
  limits.faces = false;
  Result<PointCloud> parsed = parse_point_cloud(data, name, limits);
  if (!parsed.ok()) return failure(parsed.error);
  const PointCloud& cloud = *parsed.value;
  val out = val::object();
  out.set("ok", true);
  out.set("format", cloud.format);
  out.set("count", cloud.point_count());
  out.set("positions", cloud_positions(cloud));
  out.set("droppedNonFinite", static_cast<double>(cloud.dropped_non_finite));
  out.set("gridWidth", cloud.grid_width);
  out.set("gridHeight", cloud.grid_height);
  if (cloud.has_colors()) {
    std::vector<std::uint8_t> rgb;
    rgb.reserve(3 * cloud.colors.size());
    for (const auto& c : cloud.colors) rgb.insert(rgb.end(), c.begin(), c.end());
    out.set("colors", copy_to_js(rgb.size(), rgb.data()));
  } else {
    out.set("colors", val::null());
  }
  return out;
}

// cleanCloud(positions: Float64Array | Float32Array, options) -> { ok, positions, steps, planes }
// options: { voxel (m, 0 = off), outlierK (0 = off), outlierRatio, planes (count, 0 = off),
//            planeThreshold (m), seed, crop: { min: [x,y,z], max: [x,y,z] } | null }
// The steps run in this order: crop, voxel, outliers, planes; steps lists each with the point
// count after it.
val clean_cloud_js(val points, val options) {
  PointCloud cloud;
  std::string error;
  if (!positions_from_js(points, cloud.points, error)) return failure(error);

  double voxel = 0, outlier_k = 0, outlier_ratio = 2, planes = 0, threshold = 0.01, seed = 1;
  if (!number_option(options, "voxel", 0, voxel) || voxel < 0) return failure("voxel must be a number >= 0 (metres)");
  if (!number_option(options, "outlierK", 0, outlier_k) || outlier_k < 0 || outlier_k > 200)
    return failure("outlierK must be a number between 0 and 200");
  // (the ratio matters only when the outlier step runs)
  if (!number_option(options, "outlierRatio", 2, outlier_ratio) || (outlier_k >= 1 && !(outlier_ratio > 0)))
    return failure("outlierRatio must be a number > 0");
  if (!number_option(options, "planes", 0, planes) || planes < 0 || planes > 10)
    return failure("planes must be a number between 0 and 10");
  if (!number_option(options, "planeThreshold", 0.01, threshold) || threshold <= 0)
    return failure("planeThreshold must be a number > 0 (metres)");
  if (!number_option(options, "seed", 1, seed) || !(seed >= 0 && is_whole_number(seed)))
    return failure("seed must be a whole number from 0 to 2^53");
  CleaningOptions o;
  o.voxel = voxel;
  o.outlier_k = static_cast<int>(outlier_k);
  o.outlier_ratio = outlier_ratio;
  o.planes = static_cast<int>(planes);
  o.plane_distance = threshold;
  o.seed = static_cast<std::uint64_t>(seed);
  const val crop = (options.isUndefined() || options.isNull()) ? val::null() : options["crop"];
  if (!crop.isUndefined() && !crop.isNull()) {
    CropBox box;
    for (const char* key : {"min", "max"}) {
      const val corner = crop[key];
      if (!val::global("Array").call<bool>("isArray", corner) || corner["length"].as<int>() != 3)
        return failure(std::string("crop.") + key + " must be an array [x, y, z]");
      for (int a = 0; a < 3; ++a) {
        if (!is_number(corner[a])) return failure(std::string("crop.") + key + " must hold three numbers");
        (key[1] == 'i' ? box.min : box.max)(a) = corner[a].as<double>();
      }
    }
    o.crop = box;
  }
  Result<CleanedCloud> cleaned = tela::clean_cloud(std::move(cloud), o);
  if (!cleaned.ok()) return failure(cleaned.error);
  const CleanedCloud& c = *cleaned.value;
  val steps = val::array();
  for (const CleaningStep& step : c.steps) {
    val v = val::object();
    v.set("step", step.step);
    v.set("count", step.count);
    steps.call<void>("push", v);
  }
  val plane_list = val::array();
  for (const PlaneFit& p : c.planes) {
    val v = val::object();
    std::vector<double> normal{p.normal(0), p.normal(1), p.normal(2)};
    v.set("normal", copy_to_js(normal.size(), normal.data()));
    v.set("offset", p.offset);
    v.set("inliers", p.inliers);
    plane_list.call<void>("push", v);
  }
  const PointCloud& cloud_out = c.cloud;
  val out = val::object();
  out.set("ok", true);
  out.set("positions", cloud_positions(cloud_out));
  out.set("count", cloud_out.point_count());
  out.set("steps", steps);
  out.set("planes", plane_list);
  return out;
}

}  // namespace
}  // namespace tela

EMSCRIPTEN_BINDINGS(tela_pointcloud) {
  emscripten::function("parseCloud", &tela::parse_cloud);
  emscripten::function("cleanCloud", &tela::clean_cloud_js);
}
