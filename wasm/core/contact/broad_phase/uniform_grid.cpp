#include "contact/broad_phase/uniform_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tela {
namespace {

struct Entry {
  std::uint64_t key;
  int id;
  bool operator<(const Entry& o) const { return key != o.key ? key < o.key : id < o.id; }
};

}  // namespace

std::vector<std::pair<int, int>> overlapping_pairs(const std::vector<Aabb>& a,
                                                   const std::vector<Aabb>& b, bool same_set,
                                                   double cell) {
  std::vector<std::pair<int, int>> pairs;
  if (a.empty() || b.empty()) return pairs;
  Eigen::Vector3d origin = b.front().lo;
  double largest = 0;
  for (const Aabb& box : b) {
    origin = origin.cwiseMin(box.lo);
    largest = std::max(largest, (box.hi - box.lo).maxCoeff());
  }
  for (const Aabb& box : a) {
    origin = origin.cwiseMin(box.lo);
    largest = std::max(largest, (box.hi - box.lo).maxCoeff());
  }
  // at most 16 cells per axis for the largest box; at least 2^20 cells per axis for the scene
  double h = std::max(cell, largest / 16.0);
  if (!(h > 0) || !std::isfinite(h)) h = 1.0;
  auto index = [&](double x, int axis) {
    return static_cast<std::int64_t>(std::floor((x - origin[axis]) / h));
  };
  auto key = [](std::int64_t i, std::int64_t j, std::int64_t k) {
    // 21 bits per axis; boxes beyond 2^21 cells wrap onto shared keys: only extra candidates
    const std::uint64_t m = (1u << 21) - 1;
    return (static_cast<std::uint64_t>(i) & m) | ((static_cast<std::uint64_t>(j) & m) << 21) |
           ((static_cast<std::uint64_t>(k) & m) << 42);
  };

  std::vector<Entry> entries;
  entries.reserve(b.size() * 2);
  for (int j = 0; j < static_cast<int>(b.size()); ++j) {
    const Aabb& box = b[j];
    for (std::int64_t x = index(box.lo.x(), 0); x <= index(box.hi.x(), 0); ++x)
      for (std::int64_t y = index(box.lo.y(), 1); y <= index(box.hi.y(), 1); ++y)
        for (std::int64_t z = index(box.lo.z(), 2); z <= index(box.hi.z(), 2); ++z)
          entries.push_back(Entry{key(x, y, z), j});
  }
  std::sort(entries.begin(), entries.end());

  // the pairs of each i in increasing j, each once (a box met in several cells is tested once)
  std::vector<int> seen(b.size(), -1), found;
  for (int i = 0; i < static_cast<int>(a.size()); ++i) {
    const Aabb& box = a[i];
    found.clear();
    for (std::int64_t x = index(box.lo.x(), 0); x <= index(box.hi.x(), 0); ++x)
      for (std::int64_t y = index(box.lo.y(), 1); y <= index(box.hi.y(), 1); ++y)
        for (std::int64_t z = index(box.lo.z(), 2); z <= index(box.hi.z(), 2); ++z) {
          const std::uint64_t k = key(x, y, z);
          auto it = std::lower_bound(entries.begin(), entries.end(), Entry{k, -1});
          for (; it != entries.end() && it->key == k; ++it) {
            const int j = it->id;
            if ((same_set && j <= i) || seen[j] == i) continue;
            seen[j] = i;
            if (box.overlaps(b[j])) found.push_back(j);
          }
        }
    std::sort(found.begin(), found.end());
    for (int j : found) pairs.emplace_back(i, j);
  }
  return pairs;
}

}  // namespace tela
