// The only file that sees nanoflann. nanoflann throws on misuse (queries before a build, a
// bounding box of no points); the wrappers below never let that happen: empty sets are
// answered without touching the tree, and the points are finite by precondition.
#include "pointcloud/knn.h"

#include <nanoflann.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tela {

namespace {

struct PointsAdaptor {
  const Positions* points = nullptr;
  std::size_t kdtree_get_point_count() const { return static_cast<std::size_t>(points->rows()); }
  double kdtree_get_pt(std::size_t i, std::size_t d) const {
    return (*points)(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(d));
  }
  template <class Box>
  bool kdtree_get_bbox(Box&) const { return false; }
};

using Tree = nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, PointsAdaptor>,
                                                 PointsAdaptor, 3, std::uint32_t>;

// sort (index, squared distance) pairs by distance, ties by index
void sort_and_split(std::vector<std::pair<std::uint32_t, double>>& found, std::vector<int>& indices,
                    std::vector<double>& squared_distances) {
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.second < b.second || (a.second == b.second && a.first < b.first);
  });
  indices.resize(found.size());
  squared_distances.resize(found.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    indices[i] = static_cast<int>(found[i].first);
    squared_distances[i] = found[i].second;
  }
}

}  // namespace

struct KnnIndex::Impl {
  Positions points;
  PointsAdaptor adaptor;
  std::unique_ptr<Tree> tree;
  // scratch for queries is local to each call so that a const index can be shared
};

KnnIndex::KnnIndex(const Positions& points) : impl_(std::make_unique<Impl>()) {
  impl_->points = points;
  impl_->adaptor.points = &impl_->points;
  if (impl_->points.rows() > 0) {
    impl_->tree = std::make_unique<Tree>(3, impl_->adaptor, nanoflann::KDTreeSingleIndexAdaptorParams(10));
    impl_->tree->buildIndex();
  }
}

KnnIndex::~KnnIndex() = default;
KnnIndex::KnnIndex(KnnIndex&&) noexcept = default;
KnnIndex& KnnIndex::operator=(KnnIndex&&) noexcept = default;

int KnnIndex::size() const { return static_cast<int>(impl_->points.rows()); }

void KnnIndex::nearest(const Eigen::Vector3d& query, int k, std::vector<int>& indices,
                       std::vector<double>& squared_distances) const {
  indices.clear();
  squared_distances.clear();
  const int n = size();
  const int count = std::min(k, n);
  if (count <= 0) return;
  // one extra candidate to detect a tie at the k-th distance
  const int wanted = std::min(count + 1, n);
  std::vector<std::uint32_t> ids(wanted);
  std::vector<double> dists(wanted);
  const double q[3] = {query[0], query[1], query[2]};
  const std::size_t found = impl_->tree->knnSearch(q, static_cast<std::size_t>(wanted), ids.data(), dists.data());
  std::vector<std::pair<std::uint32_t, double>> pairs(found);
  for (std::size_t i = 0; i < found; ++i) pairs[i] = {ids[i], dists[i]};
  if (static_cast<int>(found) > count && dists[count] == dists[count - 1]) {
    // a tie at the k-th distance (regular grids): take every point at that distance, so that
    // the lowest indices win whatever order the tree visits them in. The radius is widened and
    // the points beyond `tied` filtered out exactly: the tree's bound on a subtree's distance
    // is summed incrementally and can exceed the exact distance of a point on the sphere by
    // more than an ulp (one ulp missed 7 of 30 tied points on a cloud at 1e-17 m)
    const double tied = dists[count - 1];
    pairs.clear();
    impl_->tree->radiusSearch(q, tied * (1 + 1e-9) + 1e-300, pairs, nanoflann::SearchParams(32, 0, false));
    pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [&](const auto& p) { return p.second > tied; }), pairs.end());
  }
  // every point is finite, so there are `count` answers; should the tree still come back
  // short, all points are scanned, exactly (short rows would be -1 indices in the Morse graph)
  if (static_cast<int>(pairs.size()) < count) {
    pairs.clear();
    for (int j = 0; j < n; ++j) pairs.emplace_back(static_cast<std::uint32_t>(j), (impl_->points.row(j) - query.transpose()).squaredNorm());
  }
  sort_and_split(pairs, indices, squared_distances);
  indices.resize(std::min<std::size_t>(count, indices.size()));
  squared_distances.resize(indices.size());
}

void KnnIndex::nearest_to_point(int i, int k, std::vector<int>& indices,
                                std::vector<double>& squared_distances) const {
  indices.clear();
  squared_distances.clear();
  if (i < 0 || i >= size() || k <= 0) return;
  const Eigen::Vector3d query = impl_->points.row(i).transpose();
  std::vector<int> ids;
  std::vector<double> dists;
  nearest(query, k + 1, ids, dists);
  // drop i itself (duplicates of point i at distance 0 are kept as neighbours)
  for (std::size_t j = 0; j < ids.size() && static_cast<int>(indices.size()) < k; ++j) {
    if (ids[j] == i) continue;
    indices.push_back(ids[j]);
    squared_distances.push_back(dists[j]);
  }
}

void KnnIndex::within_radius(const Eigen::Vector3d& query, double radius, std::vector<int>& indices,
                             std::vector<double>& squared_distances) const {
  indices.clear();
  squared_distances.clear();
  if (size() == 0 || !(radius >= 0)) return;
  const double q[3] = {query[0], query[1], query[2]};
  std::vector<std::pair<std::uint32_t, double>> found;
  // nanoflann's L2 radius is a squared distance and exclusive; widen by one ulp-ish factor and
  // filter exactly below
  impl_->tree->radiusSearch(q, radius * radius * (1 + 1e-12) + 1e-300, found, nanoflann::SearchParams(32, 0, false));
  std::vector<std::pair<std::uint32_t, double>> kept;
  for (const auto& f : found)
    if (f.second <= radius * radius) kept.push_back(f);
  sort_and_split(kept, indices, squared_distances);
}

std::vector<int> k_nearest_neighbours(const KnnIndex& index, int k) {
  const int n = index.size();
  if (k <= 0) return {};
  std::vector<int> table(static_cast<std::size_t>(n) * k, -1);
  std::vector<int> ids;
  std::vector<double> dists;
  for (int i = 0; i < n; ++i) {
    index.nearest_to_point(i, k, ids, dists);
    std::copy(ids.begin(), ids.end(), table.begin() + static_cast<std::size_t>(i) * k);
  }
  return table;
}

}  // namespace tela
