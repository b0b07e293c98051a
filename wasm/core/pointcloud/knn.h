// Nearest-neighbour queries on a fixed set of 3-D points: a kd-tree (nanoflann, hidden in
// knn.cpp) built once and queried many times. Results are the k smallest by (distance, index)
// exactly, ties at the k-th distance included, so they do not depend on the tree's internal
// order: native and WebAssembly builds return the same neighbours.
#pragma once

#include "geometry/mesh.h"

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace tela {

class KnnIndex {
 public:
  // Copies the points (#points by 3, all finite — the parsers guarantee that) and builds the
  // tree. An empty set is allowed (every query then returns nothing).
  explicit KnnIndex(const Positions& points);
  ~KnnIndex();
  KnnIndex(KnnIndex&&) noexcept;
  KnnIndex& operator=(KnnIndex&&) noexcept;
  KnnIndex(const KnnIndex&) = delete;
  KnnIndex& operator=(const KnnIndex&) = delete;

  int size() const;

  // The min(k, #points) points nearest to `query` (indices and squared distances, nearest
  // first). Outputs are resized.
  void nearest(const Eigen::Vector3d& query, int k, std::vector<int>& indices,
               std::vector<double>& squared_distances) const;

  // The min(k, #points - 1) points nearest to point i of the set, excluding i itself.
  void nearest_to_point(int i, int k, std::vector<int>& indices,
                        std::vector<double>& squared_distances) const;

  // All points within `radius` (metres, inclusive) of `query`, nearest first.
  void within_radius(const Eigen::Vector3d& query, double radius, std::vector<int>& indices,
                     std::vector<double>& squared_distances) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// For every point, its k nearest other points: a flat #points * k index array (row i holds
// point i's neighbours, nearest first; rows are padded with -1 when #points - 1 < k).
std::vector<int> k_nearest_neighbours(const KnnIndex& index, int k);

}  // namespace tela
