#include "cloth/metrics.h"

#include "base/integer_cast.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace tela {

double total_area(const Mesh& mesh, const Positions& positions) {
  double sum = 0;
  for (double a : face_areas(mesh, positions)) sum += a;
  return sum;
}

double shadow_area(const Mesh& mesh, const Positions& positions,
                   const Eigen::Vector3d& center, double table_radius, double extent,
                   int resolution) {
  const double half = extent;
  const double cell = 2 * half / resolution;
  std::vector<unsigned char> covered(static_cast<std::size_t>(resolution) * resolution, 0);
  auto mark_triangle = [&](const Eigen::Vector2d& a, const Eigen::Vector2d& b, const Eigen::Vector2d& c) {
    const double x0 = std::min({a.x(), b.x(), c.x()}), x1 = std::max({a.x(), b.x(), c.x()});
    const double y0 = std::min({a.y(), b.y(), c.y()}), y1 = std::max({a.y(), b.y(), c.y()});
    const int i0 = clamped_floor((x0 + half) / cell, 0, resolution);
    const int i1 = clamped_floor((x1 + half) / cell, -1, resolution - 1);
    const int j0 = clamped_floor((y0 + half) / cell, 0, resolution);
    const int j1 = clamped_floor((y1 + half) / cell, -1, resolution - 1);
    const double area = (b - a).x() * (c - a).y() - (b - a).y() * (c - a).x();
    if (area == 0) return;
    for (int j = j0; j <= j1; ++j)
      for (int i = i0; i <= i1; ++i) {
        const Eigen::Vector2d p(-half + (i + 0.5) * cell, -half + (j + 0.5) * cell);
        // barycentric signs relative to the triangle's orientation
        const double w0 = ((b - p).x() * (c - p).y() - (b - p).y() * (c - p).x()) / area;
        const double w1 = ((c - p).x() * (a - p).y() - (c - p).y() * (a - p).x()) / area;
        const double w2 = 1 - w0 - w1;
        if (w0 >= 0 && w1 >= 0 && w2 >= 0) covered[static_cast<std::size_t>(j) * resolution + i] = 1;
      }
  };
  auto xy = [&](int k) {
    return Eigen::Vector2d(positions(k, 0) - center.x(), positions(k, 1) - center.y());
  };
  for (const Face& f : mesh.faces) {
    mark_triangle(xy(f.v[0]), xy(f.v[1]), xy(f.v[2]));
    if (f.size() == 4) mark_triangle(xy(f.v[0]), xy(f.v[2]), xy(f.v[3]));
  }
  // the table disc is part of the shadow
  long count = 0;
  for (int j = 0; j < resolution; ++j)
    for (int i = 0; i < resolution; ++i) {
      const double px = -half + (i + 0.5) * cell, py = -half + (j + 0.5) * cell;
      if (covered[static_cast<std::size_t>(j) * resolution + i] ||
          px * px + py * py <= table_radius * table_radius)
        ++count;
    }
  return count * cell * cell;
}

double drape_coefficient(const Mesh& mesh, const Positions& positions,
                         const Eigen::Vector3d& center, double table_radius) {
  const Positions& rest = mesh.positions;
  // the grid covers the flat cloth (a draped shadow can only be smaller)
  double extent = 0;
  for (Eigen::Index k = 0; k < rest.rows(); ++k)
    extent = std::max(extent, std::hypot(rest(k, 0) - center.x(), rest(k, 1) - center.y()));
  extent *= 1.02;
  const double pi = 3.14159265358979323846;
  const double table = pi * table_radius * table_radius;
  const double flat = shadow_area(mesh, rest, center, table_radius, extent);
  const double now = shadow_area(mesh, positions, center, table_radius, extent);
  return 100.0 * (now - table) / (flat - table);
}

std::string positions_hash(const Positions& positions) {
  std::uint64_t h = 1469598103934665603ull;
  const double* data = positions.data();
  for (Eigen::Index i = 0; i < positions.size(); ++i) {
    unsigned char bytes[8];
    std::uint64_t bits;
    std::memcpy(&bits, data + i, 8);
    for (int b = 0; b < 8; ++b) bytes[b] = static_cast<unsigned char>(bits >> (8 * b));
    for (unsigned char byte : bytes) {
      h ^= byte;
      h *= 1099511628211ull;
    }
  }
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = digits[h & 15];
  return out;
}

}  // namespace tela
