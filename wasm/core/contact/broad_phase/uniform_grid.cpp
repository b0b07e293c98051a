#include "contact/broad_phase/uniform_grid.h"

#include "base/integer_cast.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tela {
namespace {

struct Entry {
  std::uint64_t key;
  int id;
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
  // (clamped: a box far from the others would overflow the cast; keys wrap at 2^21 anyway)
  auto index = [&](double x, int axis) {
    return clamped_floor<std::int64_t>((x - origin[axis]) / h, -(std::int64_t{1} << 62), std::int64_t{1} << 62);
  };
  auto key = [](std::int64_t i, std::int64_t j, std::int64_t k) {
    // 21 bits per axis; boxes beyond 2^21 cells wrap onto shared keys: only extra candidates
    const std::uint64_t m = (1u << 21) - 1;
    return (static_cast<std::uint64_t>(i) & m) | ((static_cast<std::uint64_t>(j) & m) << 21) |
           ((static_cast<std::uint64_t>(k) & m) << 42);
  };

  // b's (cell, box) entries, then bucketed by a hash of the cell with a counting sort (linear
  // time; a bucket may hold several cells, told apart by their keys)
  auto cells_of = [&](const Aabb& box, auto&& visit) {
    if (!box.lo.allFinite() || !box.hi.allFinite()) return;  // a diverged position pairs with nothing
    for (std::int64_t x = index(box.lo.x(), 0); x <= index(box.hi.x(), 0); ++x)
      for (std::int64_t y = index(box.lo.y(), 1); y <= index(box.hi.y(), 1); ++y)
        for (std::int64_t z = index(box.lo.z(), 2); z <= index(box.hi.z(), 2); ++z) visit(key(x, y, z));
  };
  std::vector<Entry> raw;
  raw.reserve(2 * b.size());
  for (int j = 0; j < static_cast<int>(b.size()); ++j) cells_of(b[j], [&](std::uint64_t k) { raw.push_back(Entry{k, j}); });
  std::size_t buckets = 64;
  while (buckets < 2 * raw.size()) buckets *= 2;
  auto bucket_of = [&](std::uint64_t k) {
    k ^= k >> 33;  // the finalizer of MurmurHash3: neighbouring cells land in unrelated buckets
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return static_cast<std::size_t>(k & (buckets - 1));
  };
  std::vector<std::uint32_t> bucket_start(buckets + 1, 0);
  for (const Entry& e : raw) ++bucket_start[bucket_of(e.key) + 1];
  for (std::size_t i = 0; i < buckets; ++i) bucket_start[i + 1] += bucket_start[i];
  std::vector<Entry> entries(raw.size());
  {
    std::vector<std::uint32_t> fill(bucket_start.begin(), bucket_start.end() - 1);
    for (const Entry& e : raw) entries[fill[bucket_of(e.key)]++] = e;
  }

  // the pairs of each i in increasing j, each once (a box met in several cells is tested once)
  std::vector<int> seen(b.size(), -1), found;
  for (int i = 0; i < static_cast<int>(a.size()); ++i) {
    const Aabb& box = a[i];
    found.clear();
    cells_of(box, [&](std::uint64_t k) {
      const std::size_t bucket = bucket_of(k);
      for (std::uint32_t e = bucket_start[bucket]; e < bucket_start[bucket + 1]; ++e) {
        const int j = entries[e].id;
        if (entries[e].key != k || (same_set && j <= i) || seen[j] == i) continue;
        seen[j] = i;
        if (box.overlaps(b[j])) found.push_back(j);
      }
    });
    std::sort(found.begin(), found.end());
    for (int j : found) pairs.emplace_back(i, j);
  }
  return pairs;
}

}  // namespace tela
