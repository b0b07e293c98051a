#include "morse/reconstruction.h"

#include "morse/nearest_neighbours.h"
#include "morse/parametrization.h"
#include "morse/simplification.h"
#include "morse/smoothing.h"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tela::morse {
namespace {

// the smallest ratio of a cloud's second principal spread to its first that is read as a
// surface (a 1 m strip of cloth 1 cm wide has 0.01)
constexpr double kMinFlatness = 1e-3;

int connected_components(const NeighbourGraph& graph) {
  std::vector<char> seen(graph.size(), 0);
  std::vector<int> stack;
  int components = 0;
  for (int s = 0; s < graph.size(); ++s) {
    if (seen[s]) continue;
    ++components;
    seen[s] = 1;
    stack.assign(1, s);
    while (!stack.empty()) {
      const int v = stack.back();
      stack.pop_back();
      for (const int* w = graph.begin(v); w != graph.end(v); ++w)
        if (!seen[*w]) {
          seen[*w] = 1;
          stack.push_back(*w);
        }
    }
  }
  return components;
}

}  // namespace

Result<Reconstruction> reconstruct(const Positions& points, const ReconstructOptions& options) {
  using R = Result<Reconstruction>;
  const Eigen::Index n = points.rows();
  if (n < 10) return R::failure("the cloud has " + std::to_string(n) + " points; at least 10 are needed");
  if (n > options.max_points)
    return R::failure("the cloud has " + std::to_string(n) + " points, more than the limit of " +
                      std::to_string(options.max_points) + " (down-sample it first, e.g. --voxel)");
  // beyond 1e9 (1000 km in millimetres) a point is an outlier, and one at 1e300 overflowed the
  // spread below into "all points coincide"
  for (Eigen::Index v = 0; v < n; ++v)
    if (!points.row(v).allFinite()) return R::failure("point " + std::to_string(v) + " has a non-finite coordinate");
    else if (points.row(v).cwiseAbs().maxCoeff() > 1e9)
      return R::failure("point " + std::to_string(v) + " has a coordinate beyond 1e9: remove the outliers first "
                        "(outlier removal or a crop box)");
  {
    // a surface needs points spread in two directions: a cloud along a line (or on one point)
    // would still get neighbours and a Morse function, and come out as a thin disc
    const Eigen::RowVector3d mean = points.colwise().mean();
    const Eigen::Matrix3d spread = (points.rowwise() - mean).transpose() * (points.rowwise() - mean) / n;
    const Eigen::Vector3d extent = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(spread).eigenvalues().cwiseMax(0).cwiseSqrt();
    // (rounding leaves a spread of about 1e-16 of the coordinates on coinciding points)
    if (!(extent[2] > 1e-12 * (1 + mean.cwiseAbs().maxCoeff()))) return R::failure("all " + std::to_string(n) + " points coincide: there is no surface to reconstruct");
    if (extent[1] < kMinFlatness * extent[2]) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.2g", extent[1] / extent[2]);
      return R::failure(std::string("the points lie along a line (their spread across it is ") + ratio +
                        " of their spread along it): a surface needs points spread in two directions");
    }
  }
  {
    // exact repeats have no neighbourhood of their own (their k nearest are copies at distance
    // 0), and a cloud mostly made of them falls apart into one piece per repeated point
    std::vector<int> order(n);
    for (int v = 0; v < static_cast<int>(n); ++v) order[v] = v;
    const auto less = [&](int a, int b) {
      for (int c = 0; c < 3; ++c)
        if (points(a, c) != points(b, c)) return points(a, c) < points(b, c);
      return a < b;
    };
    std::sort(order.begin(), order.end(), less);
    Eigen::Index distinct = 1;  // (n >= 10 here)
    for (Eigen::Index i = 1; i < n; ++i)
      if (points.row(order[i]) != points.row(order[i - 1])) ++distinct;
    if (2 * distinct < n)
      return R::failure("only " + std::to_string(distinct) + " of the " + std::to_string(n) +
                        " points are distinct (the others repeat them exactly): remove the repeats first, e.g. by "
                        "voxel down-sampling (--voxel, or Cleaning in the page)");
  }
  if (options.levels < 2 || options.levels > 10000) return R::failure("levels must be between 2 and 10000");
  if (options.neighbours < 4 || options.neighbours > 64) return R::failure("neighbours (k) must be between 4 and 64");
  if (options.smoothing_iterations < 0 || options.smoothing_iterations > 100)
    return R::failure("smoothing iterations must be between 0 and 100");
  if (!(options.boundary_gap > 0.5 && options.boundary_gap <= 3.14159265358979323846))
    return R::failure("boundary gap must be in (0.5, pi] radians");

  Reconstruction r;
  if (options.direction) {
    const double length = options.direction->norm();
    if (!(length > 0) || !std::isfinite(length)) return R::failure("the height direction must be a non-zero finite vector");
    r.direction = *options.direction / length;
  } else {
    r.direction = random_direction(options.seed);
  }

  // neighbours and tangent planes on the raw cloud, then denoise and refit the planes
  const NearestNeighbours nearest = k_nearest_neighbours(points, 2 * options.neighbours);
  r.graph = build_neighbour_graph(points, nearest, options.neighbours);
  r.planes = tangent_planes(points, r.graph);
  if (options.smoothing_iterations > 0) {
    r.points = smooth_along_normals(points, r.graph, r.planes, options.smoothing_iterations);
    r.planes = tangent_planes(r.points, r.graph);
  } else {
    r.points = points;
  }

  r.on_boundary = detect_boundary_points(r.points, r.graph, nearest, options.neighbours, r.planes, options.boundary_gap);
  const int min_boundary = options.min_boundary_points > 0
                                 ? options.min_boundary_points
                                 : std::max(8, static_cast<int>(std::sqrt(static_cast<double>(n)) / 2));
  r.boundary = find_boundary_curves(r.points, r.graph, r.planes, r.on_boundary, min_boundary);
  r.normal_disagreements = orient_normals(r.graph, r.planes);

  r.height = heights(r.points, r.direction);
  // the boundary band is a few points wide: across it f varies by noise, which near an extremum
  // of f on the boundary splits the band's run through a slab into pieces (the inner row in one
  // slab, the outer in the next). Averaging f over the band (passes over each band point and
  // its band neighbours on the same curve) leaves f along the curve and removes that variation.
  {
    const int passes = 2;
    for (int pass = 0; pass < passes; ++pass) {
      std::vector<double> next = r.height;
      for (int v = 0; v < static_cast<int>(n); ++v) {
        const int curve = r.boundary.curve_of[v];
        if (curve < 0) continue;
        double sum = r.height[v];
        int count = 1;
        for (const int* w = r.graph.begin(v); w != r.graph.end(v); ++w)
          if (r.boundary.curve_of[*w] == curve) {
            sum += r.height[*w];
            ++count;
          }
        next[v] = sum / count;
      }
      r.height.swap(next);
    }
  }
  r.flows = gradient_flows(r.points, r.graph, r.height);
  // the extreme heights of each boundary curve: levels keep away from them
  std::vector<double> avoid;
  for (const std::vector<int>& curve : r.boundary.members) {
    double low = r.height[curve.front()], high = low;
    for (int v : curve) {
      low = std::min(low, r.height[v]);
      high = std::max(high, r.height[v]);
    }
    avoid.push_back(low);
    avoid.push_back(high);
  }
  // a slab piece is read as planar, chi = 2 - its boundary cycles, an upper bound of its true
  // 2 - 2 genus - cycles: a handle whose critical values lie closer than h can hide in one
  // piece (chi 2 too high). A second slicing, shifted by h / 2, separates them; of the two,
  // the one with the lower Euler characteristic is kept (the first on ties).
  for (const double extra_shift : {0.0, 0.5}) {
    LevelSlicing slicing = slice_levels(r.points, r.graph, r.height, options.levels, avoid, extra_shift);
    LevelCurves curves = level_curves(r.graph, slicing, r.on_boundary);
    CriticalPoints critical = find_critical_points(r.points, r.graph, r.height, r.on_boundary, slicing, curves);
    if (extra_shift == 0 || critical.euler_from_pieces < r.critical.euler_from_pieces) {
      r.slicing = std::move(slicing);
      r.level_curves = std::move(curves);
      r.critical = std::move(critical);
    }
  }
  cancel_noise_critical_points(r.points, r.graph, r.height, r.slicing, r.boundary, r.critical);
  r.warnings = r.critical.warnings;
  r.cells = build_cells(r.points, r.graph, r.height, r.flows, r.on_boundary, r.boundary, r.planes, r.critical);
  r.attachment = attach_cells(r.points, r.graph, r.height, r.boundary, r.planes, r.cells);

  int morse_sum = 0;
  for (const CriticalPoint& c : r.critical.points) morse_sum += euler_contribution(c.type);
  const int edges = static_cast<int>(r.graph.indices.size() / 2);
  const bool normals_orientable = r.normal_disagreements <= 2 + edges / 2000;
  // the attaching words decide when they are complete (each 1-cell used as often as it must be);
  // otherwise the normals along the neighbour graph do
  const bool orientable = r.attachment.orientable >= 0 ? r.attachment.orientable == 1 : normals_orientable;
  if (r.attachment.orientable >= 0 && orientable != normals_orientable)
    r.warnings.push_back(std::string("the attaching words find the surface ") + (orientable ? "" : "not ") +
                         "orientable, the normals " + (normals_orientable ? "" : "not ") + "orientable");
  if (!r.attachment.complete) {
    std::string why;
    const std::size_t shown = std::min<std::size_t>(3, r.attachment.problems.size());
    for (std::size_t i = 0; i < shown; ++i) why += (i ? "; " : "") + r.attachment.problems[i];
    if (r.attachment.problems.size() > shown) why += "; ...";
    if (r.attachment.corner_mismatches > 0)
      why += (why.empty() ? "" : "; ") + std::to_string(r.attachment.corner_mismatches) + " corners off";
    r.warnings.push_back("attaching words incomplete (" + why + "); orientability from the normals");
  }
  r.topology = surface_topology(r.cells.counts, morse_sum, r.boundary.count(), connected_components(r.graph), orientable);
  if (r.topology.genus < 0)
    r.warnings.push_back("no " + std::string(orientable ? "orientable" : "non-orientable") + " surface has chi = " +
                         std::to_string(r.topology.euler) + " with " + std::to_string(r.topology.boundary_components) +
                         " boundary curves on " + std::to_string(r.topology.connected_components) +
                         " components, so the genus is undefined: the cells do not describe the cloud as one "
                         "surface (try more level slabs, another height direction, or clean the cloud)");
  if (r.topology.euler != r.critical.euler_from_pieces)
    r.warnings.push_back("Euler characteristic of the cells (" + std::to_string(r.topology.euler) +
                         ") differs from that of the level pieces (" + std::to_string(r.critical.euler_from_pieces) + ")");

  if (options.resample) {
    Result<Mesh> mesh = resample_disc(r, options.resample_nodes);
    if (mesh.ok()) r.mesh = std::move(*mesh.value);
    else r.mesh_message = mesh.error;
  }
  return R::success(std::move(r));
}

}  // namespace tela::morse
