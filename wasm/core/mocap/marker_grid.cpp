#include "mocap/marker_grid.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace tela {
namespace {

using R = Result<MarkerGrid>;

// candidate cloth markers: the user's exclusions removed; markers before rigid bodies
std::vector<int> cloth_points(const Recording& rec, const MarkerGridOptions& options) {
  std::vector<int> markers, others;
  for (int p = 0; p < rec.point_count(); ++p) {
    if (std::find(options.exclude.begin(), options.exclude.end(), rec.names[p]) != options.exclude.end()) continue;
    const bool marker = rec.kinds[p] == PointKind::marker || rec.kinds[p] == PointKind::rigid_body_marker;
    (marker ? markers : others).push_back(p);
  }
  return markers.empty() ? others : markers;
}

// the names of `points`, comma-separated (at most 60, then how many more)
std::string names_of(const Recording& rec, const std::vector<int>& points) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(points.size(), 60);
  for (std::size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + rec.names[points[i]];
  if (points.size() > shown) out += ", ... (" + std::to_string(points.size() - shown) + " more)";
  return out;
}

// RMS misfit of positions uv (#markers by 2, row-major grid order) to o + j a + i b, in units
// of the lattice spacing
double lattice_misfit(const Eigen::MatrixXd& uv, int cols, int rows) {
  Eigen::MatrixXd design(cols * rows, 3);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) design.row(i * cols + j) << 1.0, j, i;
  const Eigen::MatrixXd coef = design.colPivHouseholderQr().solve(uv);  // 3 by 2
  const Eigen::Vector2d a = coef.row(1).transpose(), b = coef.row(2).transpose();
  const double residual = std::sqrt((design * coef - uv).squaredNorm() / (cols * rows));
  const double spacing = std::sqrt(std::max(a.norm() * b.norm(), 1e-300));
  return residual / spacing;
}

}  // namespace

Result<MarkerGrid> detect_marker_grid(const Recording& rec, const MarkerGridOptions& options) {
  MarkerGrid grid;
  std::vector<int> candidates;
  if (!options.order.empty()) {
    if (options.cols < 2 || options.rows < 2 || options.cols * options.rows != static_cast<int>(options.order.size()))
      return R::failure("grid order: give cols and rows (>= 2) with cols x rows marker names");
    for (const std::string& name : options.order) {
      const int p = point_index(rec, name);
      if (p < 0) return R::failure("grid order: the recording has no marker '" + name + "'");
      if (std::find(candidates.begin(), candidates.end(), p) != candidates.end())
        return R::failure("grid order: marker '" + name + "' is named twice");
      candidates.push_back(p);
    }
    grid.source = "user";
  } else {
    for (const std::string& name : options.exclude)
      if (point_index(rec, name) < 0) return R::failure("exclude: the recording has no marker '" + name + "'");
    candidates = cloth_points(rec, options);
    grid.source = "detected";
  }
  const int n = static_cast<int>(candidates.size());
  if (n < 4) return R::failure("a marker grid needs at least 4 markers; the recording has " + std::to_string(n));

  // reference positions: mean of the valid samples in the first frames (or the first valid one)
  Positions reference(n, 3);
  for (int m = 0; m < n; ++m) {
    const int p = candidates[m];
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    int count = 0;
    for (int f = 0; f < rec.frame_count() && f < options.reference_frames; ++f)
      if (rec.valid(f, p)) {
        sum += rec.position(f, p);
        ++count;
      }
    for (int f = options.reference_frames; count == 0 && f < rec.frame_count(); ++f)
      if (rec.valid(f, p)) {
        sum = rec.position(f, p);
        count = 1;
      }
    if (count == 0) return R::failure("marker '" + rec.names[p] + "' is never visible");
    reference.row(m) = (sum / count).transpose();
  }

  // the cloth's plane and its in-plane up direction
  const Eigen::RowVector3d centroid = reference.colwise().mean();
  const Eigen::MatrixXd centered = reference.rowwise() - centroid;
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(centered.transpose() * centered);
  const Eigen::Vector3d normal = eig.eigenvectors().col(0);
  Eigen::Vector3d up = Eigen::Vector3d::UnitZ() - normal.z() * normal;
  if (up.norm() < 0.3) up = eig.eigenvectors().col(2);  // a nearly horizontal sheet: its long axis
  up.normalize();
  const Eigen::Vector3d across = up.cross(normal).normalized();
  Eigen::MatrixXd uv(n, 2);
  for (int m = 0; m < n; ++m) {
    const Eigen::Vector3d d = (reference.row(m) - centroid).transpose();
    uv(m, 0) = d.dot(across);
    uv(m, 1) = d.dot(up);
  }

  // grid shape: the factorization cols x rows whose top-down, left-right order fits a
  // regular lattice best (or the user's shape)
  auto order_for = [&](int cols, int rows) {
    std::vector<int> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return uv(a, 1) > uv(b, 1); });
    for (int i = 0; i < rows; ++i)
      std::stable_sort(idx.begin() + i * cols, idx.begin() + (i + 1) * cols,
                       [&](int a, int b) { return uv(a, 0) < uv(b, 0); });
    return idx;
  };
  std::vector<int> best_order;
  double best = 1e300;
  if (!options.order.empty()) {
    grid.cols = options.cols;
    grid.rows = options.rows;
    best_order.resize(n);
    std::iota(best_order.begin(), best_order.end(), 0);
    Eigen::MatrixXd ordered(n, 2);
    for (int m = 0; m < n; ++m) ordered.row(m) = uv.row(best_order[m]);
    best = lattice_misfit(ordered, grid.cols, grid.rows);
  } else {
    if (options.cols * options.rows != 0 && options.cols * options.rows != n)
      return R::failure("grid: " + std::to_string(options.cols) + " x " + std::to_string(options.rows) +
                        " does not match the " + std::to_string(n) + " cloth markers");
    for (int rows = 2; rows <= n / 2; ++rows) {
      if (n % rows) continue;
      const int cols = n / rows;
      if (options.rows && rows != options.rows) continue;
      const std::vector<int> order = order_for(cols, rows);
      Eigen::MatrixXd ordered(n, 2);
      for (int m = 0; m < n; ++m) ordered.row(m) = uv.row(order[m]);
      const double misfit = lattice_misfit(ordered, cols, rows);
      if (misfit < best - 1e-12) {
        best = misfit;
        best_order = order;
        grid.cols = cols;
        grid.rows = rows;
      }
    }
    if (best_order.empty())
      return R::failure("no rectangular marker grid fits " + std::to_string(n) + " markers (a prime count?)");
  }
  grid.residual = best;
  if (options.order.empty() && best > options.max_residual)
    return R::failure("the " + std::to_string(n) + " markers do not form a regular grid (best " + std::to_string(grid.cols) +
                      " x " + std::to_string(grid.rows) + " misfit: " + std::to_string(best) +
                      " marker spacings); exclude the markers that are not on the cloth or give the grid order. "
                      "The markers: " + names_of(rec, candidates));
  grid.reference.resize(n, 3);
  for (int m = 0; m < n; ++m) {
    grid.points.push_back(candidates[best_order[m]]);
    grid.reference.row(m) = reference.row(best_order[m]);
  }

  // spacings and directions from the ordered reference positions
  double across_sum = 0, down_sum = 0;
  Eigen::Vector3d across_dir = Eigen::Vector3d::Zero(), up_dir = Eigen::Vector3d::Zero();
  for (int i = 0; i < grid.rows; ++i)
    for (int j = 0; j + 1 < grid.cols; ++j) {
      const Eigen::Vector3d d = (grid.reference.row(i * grid.cols + j + 1) - grid.reference.row(i * grid.cols + j)).transpose();
      across_sum += d.norm();
      across_dir += d;
    }
  for (int i = 0; i + 1 < grid.rows; ++i)
    for (int j = 0; j < grid.cols; ++j) {
      const Eigen::Vector3d d = (grid.reference.row(i * grid.cols + j) - grid.reference.row((i + 1) * grid.cols + j)).transpose();
      down_sum += d.norm();
      up_dir += d;
    }
  grid.spacing_across = across_sum / (grid.rows * (grid.cols - 1));
  grid.spacing_down = down_sum / (grid.cols * (grid.rows - 1));
  grid.across = across_dir.normalized();
  grid.up = (up_dir - up_dir.dot(grid.across) * grid.across).normalized();

  // held corners
  grid.held = {0, grid.cols - 1};
  if (!options.held.empty()) {
    if (options.held.size() != 2) return R::failure("held: name exactly two markers");
    for (int h = 0; h < 2; ++h) {
      const int p = point_index(rec, options.held[h]);
      const auto it = std::find(grid.points.begin(), grid.points.end(), p);
      if (p < 0 || it == grid.points.end())
        return R::failure("held: '" + options.held[h] + "' is not one of the grid's markers");
      grid.held[h] = static_cast<int>(it - grid.points.begin());
    }
    if (grid.held[0] == grid.held[1]) return R::failure("held: the two held markers must differ");
  }
  return R::success(std::move(grid));
}

}  // namespace tela
