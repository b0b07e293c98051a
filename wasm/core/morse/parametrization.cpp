#include "morse/parametrization.h"

#include "base/integer_cast.h"
#include "morse/reconstruction.h"

#include <Eigen/SparseCholesky>
#include <Eigen/Eigenvalues>
#include <Eigen/SparseCore>
#include <algorithm>
#include <cmath>
#include <functional>

namespace tela::morse {

Result<Points2> tutte_embedding(const NeighbourGraph& graph, const std::vector<int>& fixed,
                                const Points2& fixed_uv) {
  const int n = graph.size();
  std::vector<int> unknown(n, -1), fixed_row(n, -1);
  for (int i = 0; i < static_cast<int>(fixed.size()); ++i) fixed_row[fixed[i]] = i;
  int m = 0;
  for (int v = 0; v < n; ++v)
    if (fixed_row[v] < 0) unknown[v] = m++;
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::MatrixXd rhs = Eigen::MatrixXd::Zero(m, 2);
  for (int v = 0; v < n; ++v) {
    if (unknown[v] < 0) continue;
    const int row = unknown[v];
    if (graph.degree(v) == 0) return Result<Points2>::failure("point " + std::to_string(v) + " has no neighbours");
    triplets.emplace_back(row, row, static_cast<double>(graph.degree(v)));
    for (const int* w = graph.begin(v); w != graph.end(v); ++w) {
      if (unknown[*w] >= 0) triplets.emplace_back(row, unknown[*w], -1.0);
      else rhs.row(row) += fixed_uv.row(fixed_row[*w]);
    }
  }
  Eigen::SparseMatrix<double> laplacian(m, m);
  laplacian.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> solver(laplacian);
  if (solver.info() != Eigen::Success)
    return Result<Points2>::failure("Tutte embedding: the system is singular (a part of the cloud does not reach the boundary)");
  const Eigen::MatrixXd uv = solver.solve(rhs);
  if (solver.info() != Eigen::Success || !uv.allFinite())
    return Result<Points2>::failure("Tutte embedding: the solve failed");
  Points2 result(n, 2);
  for (int v = 0; v < n; ++v)
    result.row(v) = unknown[v] >= 0 ? Eigen::RowVector2d(uv.row(unknown[v])) : Eigen::RowVector2d(fixed_uv.row(fixed_row[v]));
  return Result<Points2>::success(std::move(result));
}

Result<Mesh> resample_disc(const Reconstruction& r, int nodes) {
  using R = Result<Mesh>;
  const Topology& t = r.topology;
  if (t.connected_components != 1 || t.boundary_components != 1 || t.euler != 1)
    return R::failure("the cloud is not disc-like (components " + std::to_string(t.connected_components) +
                      ", boundary curves " + std::to_string(t.boundary_components) + ", Euler characteristic " +
                      std::to_string(t.euler) + "); only discs are re-sampled");
  // the ordered boundary: the walk along the band when it came back to its start, else the
  // band's points by angle around the cloud's centre in its least-squares plane (a cloth that
  // is not folded over itself is star-shaped seen from above its mean plane)
  std::vector<int> line = r.boundary.polylines.front();
  bool closed = line.size() >= 8;
  if (closed) {
    double walked = 0;
    for (std::size_t i = 0; i + 1 < line.size(); ++i) walked += (r.points.row(line[i + 1]) - r.points.row(line[i])).norm();
    closed = (r.points.row(line.back()) - r.points.row(line.front())).norm() <= 4 * walked / (line.size() - 1);
  }
  if (!closed) {
    const Eigen::RowVector3d centre = r.points.colwise().mean();
    Eigen::Matrix3d scatter = Eigen::Matrix3d::Zero();
    for (Eigen::Index v = 0; v < r.points.rows(); ++v) {
      const Eigen::Vector3d d = (r.points.row(v) - centre).transpose();
      scatter.noalias() += d * d.transpose();
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(scatter);
    const Eigen::Vector3d e1 = solver.eigenvectors().col(2), e2 = solver.eigenvectors().col(1);
    std::vector<std::pair<double, int>> around;
    for (int v : r.boundary.members.front()) {
      const Eigen::Vector3d d = (r.points.row(v) - centre).transpose();
      const double x = d.dot(e1), y = d.dot(e2);
      const double sum = std::abs(x) + std::abs(y);
      const double pseudo = sum == 0 ? 0 : (y >= 0 ? 1 - x / sum : 3 + x / sum);  // monotone in the angle
      around.emplace_back(pseudo, v);
    }
    std::sort(around.begin(), around.end());
    line.clear();
    for (const auto& a : around) line.push_back(a.second);
  }
  const int m = static_cast<int>(line.size());
  if (m < 8) return R::failure("the boundary curve has fewer than 8 ordered points");

  // the walk zig-zags across the band of boundary points: measure it after a moving average
  // over 11 points, and arc length along that closed curve
  Positions curve(m, 3);
  for (int i = 0; i < m; ++i) {
    Eigen::RowVector3d sum = Eigen::RowVector3d::Zero();
    for (int j = -5; j <= 5; ++j) sum += r.points.row(line[((i + j) % m + m) % m]);
    curve.row(i) = sum / 11.0;
  }
  std::vector<double> s(m + 1, 0.0);
  for (int i = 0; i < m; ++i) s[i + 1] = s[i] + (curve.row((i + 1) % m) - curve.row(i)).norm();
  const double length = s[m];
  if (!(length > 0)) return R::failure("the boundary curve has zero length");
  // the walk that ordered the curve must have come back to its start

  // corners: the curve point farthest from the centre, the one farthest from it, and on each
  // side of the chord between them the one farthest from the chord (a rectangle's corners; any
  // four well-spread points for a rounder outline)
  const Eigen::RowVector3d middle = curve.colwise().mean();
  auto farthest = [&](const std::function<double(int)>& score, int from, int to) {
    int best = from;
    for (int i = from; i != to; i = (i + 1) % m)
      if (score(i) > score(best)) best = i;
    return best;
  };
  int c0 = 0;
  for (int i = 0; i < m; ++i)
    if ((curve.row(i) - middle).squaredNorm() > (curve.row(c0) - middle).squaredNorm()) c0 = i;
  int c2 = 0;
  for (int i = 0; i < m; ++i)
    if ((curve.row(i) - curve.row(c0)).squaredNorm() > (curve.row(c2) - curve.row(c0)).squaredNorm()) c2 = i;
  const Eigen::RowVector3d chord = (curve.row(c2) - curve.row(c0)).normalized();
  auto off_chord = [&](int i) {
    const Eigen::RowVector3d d = curve.row(i) - curve.row(c0);
    return (d - d.dot(chord) * chord).squaredNorm();
  };
  const int c1 = farthest(off_chord, (c0 + 1) % m, c2);
  const int c3 = farthest(off_chord, (c2 + 1) % m, c0);
  std::vector<int> corners = {c0, c1, c2, c3};
  std::sort(corners.begin(), corners.end());
  corners.erase(std::unique(corners.begin(), corners.end()), corners.end());
  if (corners.size() < 4) {
    corners.clear();
    for (int q = 0; q < 4; ++q) corners.push_back(static_cast<int>(std::lower_bound(s.begin(), s.end() - 1, q * length / 4) - s.begin()) % m);
  }
  std::sort(corners.begin(), corners.end());

  // rectangle with the mean lengths of opposite sides; each side mapped by arc length
  auto arc = [&](int from, int to) { return to >= from ? s[to] - s[from] : length - s[from] + s[to]; };
  const double side[4] = {arc(corners[0], corners[1]), arc(corners[1], corners[2]), arc(corners[2], corners[3]),
                          arc(corners[3], corners[0])};
  const double width = 0.5 * (side[0] + side[2]);
  const double height = 0.5 * (side[1] + side[3]);
  // four corners on a closed curve of positive length can still leave two opposite sides of
  // zero arc length (a curve folded onto itself): no rectangle to map it to
  if (!(width > 0 && height > 0)) return R::failure("the boundary curve does not enclose an area (a rectangle side has zero length)");
  const Eigen::RowVector2d rect[4] = {{0, 0}, {width, 0}, {width, height}, {0, height}};
  std::vector<int> fixed;
  Points2 fixed_uv(m, 2);
  for (int q = 0; q < 4; ++q) {
    const int from = corners[q], to = corners[(q + 1) % 4];
    const int count = (to - from + m) % m;
    for (int j = 0; j < count; ++j) {
      const int i = (from + j) % m;
      const double u = side[q] > 0 ? arc(from, i) / side[q] : 0;
      fixed_uv.row(static_cast<Eigen::Index>(fixed.size())) = (1 - u) * rect[q] + u * rect[(q + 1) % 4];
      fixed.push_back(line[i]);
    }
  }
  fixed_uv.conservativeResize(static_cast<Eigen::Index>(fixed.size()), 2);
  // the rectangle's sides must be exactly straight for the triangulation's hull
  for (Eigen::Index i = 0; i < fixed_uv.rows(); ++i) {
    if (std::abs(fixed_uv(i, 1)) < 1e-12 * height) fixed_uv(i, 1) = 0;
    if (std::abs(fixed_uv(i, 0) - width) < 1e-12 * width) fixed_uv(i, 0) = width;
  }

  Result<Points2> embedded = tutte_embedding(r.graph, fixed, fixed_uv);
  if (!embedded.ok()) return R::failure(embedded.error);
  const Points2& uv = *embedded.value;

  // triangulate a subset of the embedded points (the boundary and every k-th interior point)
  const int n = r.graph.size();
  std::vector<char> is_fixed(n, 0);
  for (int v : fixed) is_fixed[v] = 1;
  const int stride = std::max(1, n / 4000);
  std::vector<int> chosen;
  for (int v = 0; v < n; ++v)
    if (is_fixed[v] || v % stride == 0) chosen.push_back(v);
  Points2 plane(static_cast<Eigen::Index>(chosen.size()), 2);
  for (std::size_t i = 0; i < chosen.size(); ++i) plane.row(static_cast<Eigen::Index>(i)) = uv.row(chosen[i]);
  const std::vector<std::array<int, 3>> triangles = delaunay_triangulate(plane);
  if (triangles.empty()) return R::failure("the parametrization could not be triangulated");

  // regular grid: nx by ny nodes
  if (nodes <= 0) nodes = std::min(40, std::max(5, static_cast<int>(std::sqrt(static_cast<double>(n)) / 2)));
  const bool wide = width >= height;
  const int nx = wide ? nodes : std::max(2, static_cast<int>(std::lround(nodes * width / height)));
  const int ny = wide ? std::max(2, static_cast<int>(std::lround(nodes * height / width))) : nodes;
  Mesh mesh;
  mesh.positions.resize(static_cast<Eigen::Index>(nx) * ny, 3);
  // bucket the triangles by their bounding boxes
  const int buckets = std::max(1, static_cast<int>(std::sqrt(static_cast<double>(triangles.size()) / 4)));
  std::vector<std::vector<int>> bucket(static_cast<std::size_t>(buckets) * buckets);
  auto cell = [&](double x, double extent) { return clamped_floor(x / extent * buckets, 0, buckets - 1); };
  for (int k = 0; k < static_cast<int>(triangles.size()); ++k) {
    double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
    for (int c = 0; c < 3; ++c)
      for (int a = 0; a < 2; ++a) {
        lo[a] = std::min(lo[a], plane(triangles[k][c], a));
        hi[a] = std::max(hi[a], plane(triangles[k][c], a));
      }
    for (int by = cell(lo[1], height); by <= cell(hi[1], height); ++by)
      for (int bx = cell(lo[0], width); bx <= cell(hi[0], width); ++bx) bucket[by * buckets + bx].push_back(k);
  }
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const Eigen::Vector2d p(width * i / (nx - 1), height * j / (ny - 1));
      int best = -1;
      double best_score = -1e300;
      Eigen::Vector3d best_weights(1, 0, 0);
      for (int k : bucket[cell(p.y(), height) * buckets + cell(p.x(), width)]) {
        const Eigen::Vector2d a = plane.row(triangles[k][0]), b = plane.row(triangles[k][1]), c = plane.row(triangles[k][2]);
        const double area = (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
        if (area <= 0) continue;
        const double wa = ((b - p).x() * (c - p).y() - (b - p).y() * (c - p).x()) / area;
        const double wb = ((c - p).x() * (a - p).y() - (c - p).y() * (a - p).x()) / area;
        const double wc = 1 - wa - wb;
        const double score = std::min({wa, wb, wc});  // >= 0 inside
        if (score > best_score) {
          best_score = score;
          best = k;
          best_weights = {wa, wb, wc};
        }
      }
      if (best < 0) return R::failure("re-sampling: a grid node fell outside the parametrization");
      Eigen::RowVector3d q = Eigen::RowVector3d::Zero();
      for (int c = 0; c < 3; ++c) q += best_weights(c) * r.points.row(chosen[triangles[best][c]]);
      mesh.positions.row(static_cast<Eigen::Index>(j) * nx + i) = q;
    }
  }
  for (int j = 0; j + 1 < ny; ++j)
    for (int i = 0; i + 1 < nx; ++i) {
      Face face;
      face.v = {j * nx + i, j * nx + i + 1, (j + 1) * nx + i + 1, (j + 1) * nx + i};
      mesh.faces.push_back(face);
    }
  const int bl = 0, br = nx - 1, tl = (ny - 1) * nx, tr = ny * nx - 1;
  mesh.node_sets["corners"] = {bl, br, tl, tr};
  mesh.node_sets["top_corners"] = {tl, tr};
  std::vector<int> boundary;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if (i == 0 || j == 0 || i == nx - 1 || j == ny - 1) boundary.push_back(j * nx + i);
  mesh.node_sets["boundary"] = boundary;
  return R::success(std::move(mesh));
}

}  // namespace tela::morse
