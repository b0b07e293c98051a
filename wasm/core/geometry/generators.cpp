#include "geometry/generators.h"

#include "geometry/delaunay.h"
#include "base/portable_math.h"
#include "base/portable_random.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <random>

namespace tela {
namespace {

// Node positions are origin + u e1 + v e2 with (u, v) the coordinates in the plane of the
// flat cloth. Faces are counter-clockwise in (u, v), i.e. seen from the side of the normal
// e1 x e2: +z for xy, -y for xz, +x for yz.
struct PlaneAxes {
  Eigen::Vector3d e1, e2, normal;
};

PlaneAxes plane_axes(MeshPlane plane) {
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), y = Eigen::Vector3d::UnitY(),
                        z = Eigen::Vector3d::UnitZ();
  switch (plane) {
    case MeshPlane::xz: return {x, z, -y};
    case MeshPlane::yz: return {y, z, x};
    default: return {x, y, z};
  }
}

// positions of the nodes from their (u, v) coordinates (#nodes by 2), #nodes by 3
Positions place_nodes(const Points2& uv, const Eigen::Vector3d& origin, MeshPlane plane) {
  const PlaneAxes axes = plane_axes(plane);
  Positions positions(uv.rows(), 3);
  for (Eigen::Index i = 0; i < uv.rows(); ++i)
    positions.row(i) = (origin + uv(i, 0) * axes.e1 + uv(i, 1) * axes.e2).transpose();
  return positions;
}

// displaces every node (in index order) along the plane normal by N(0, sd^2), metres
void add_normal_noise(Positions& positions, MeshPlane plane, double sd, std::mt19937_64& rng) {
  if (!(sd > 0)) return;
  const Eigen::Vector3d normal = plane_axes(plane).normal;
  for (Eigen::Index i = 0; i < positions.rows(); ++i)
    positions.row(i) += (sd * standard_normal(rng)) * normal.transpose();
}

Face triangle(int a, int b, int c) { return Face{{a, b, c, -1}}; }

// nx by ny grid of quads or of triangles (each quad split by one diagonal)
Mesh make_structured_rectangle(const RectangleSpec& spec, int nx, int ny) {
  Points2 uv(nx * ny, 2);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      // i / (nx - 1) is exactly 1 at the last node, so the far sides are exactly width, height
      uv(j * nx + i, 0) = spec.width * (static_cast<double>(i) / (nx - 1));
      uv(j * nx + i, 1) = spec.height * (static_cast<double>(j) / (ny - 1));
    }
  Mesh mesh;
  mesh.positions = place_nodes(uv, spec.origin, spec.plane);

  for (int j = 0; j + 1 < ny; ++j)
    for (int i = 0; i + 1 < nx; ++i) {
      const int a = j * nx + i;
      switch (spec.elements) {
        case ElementKind::tri_right:  // diagonal a -> a+nx+1
          mesh.faces.push_back(triangle(a, a + 1, a + nx + 1));
          mesh.faces.push_back(triangle(a, a + nx + 1, a + nx));
          break;
        case ElementKind::tri_left:  // diagonal a+1 -> a+nx
          mesh.faces.push_back(triangle(a, a + 1, a + nx));
          mesh.faces.push_back(triangle(a + 1, a + nx + 1, a + nx));
          break;
        default:
          mesh.faces.push_back(Face{{a, a + 1, a + nx + 1, a + nx}});
      }
    }

  // boundary counter-clockwise from the bottom-left corner: bottom, right, top, left side
  std::vector<int> boundary;
  for (int i = 0; i < nx; ++i) boundary.push_back(i);
  for (int j = 1; j < ny; ++j) boundary.push_back(j * nx + nx - 1);
  for (int i = nx - 2; i >= 0; --i) boundary.push_back((ny - 1) * nx + i);
  for (int j = ny - 2; j >= 1; --j) boundary.push_back(j * nx);
  const int bottom_left = 0, bottom_right = nx - 1, top_right = nx * ny - 1,
            top_left = (ny - 1) * nx;
  mesh.node_sets["corners"] = {bottom_left, bottom_right, top_right, top_left};
  mesh.node_sets["top_corners"] = {top_left, top_right};
  mesh.node_sets["boundary"] = boundary;
  return mesh;
}

// `total` nodes: boundary nodes evenly spaced on the four sides, interior nodes on a
// jittered grid with random ones left out, Delaunay triangulated. Node order: the boundary
// counter-clockwise from the bottom-left corner, then the interior row by row.
Mesh make_irregular_rectangle(const RectangleSpec& spec, int total, std::mt19937_64& rng) {
  const double w = spec.width, h = spec.height;
  // mx by my cells of spacing 1/t whose (mx+1)(my+1) grid nodes are about `total`:
  // (w t + 1)(h t + 1) = total, i.e. w h t^2 + (w + h) t + 1 - total = 0
  const double t = (-(w + h) + std::sqrt((w + h) * (w + h) + 4.0 * w * h * (total - 1))) /
                   (2.0 * w * h);
  // round up so that the grid has enough interior candidates...
  int mx = std::max(1, static_cast<int>(std::ceil(w * t - 1e-9)));
  int my = std::max(1, static_cast<int>(std::ceil(h * t - 1e-9)));
  // ...but never more boundary nodes than wanted (only bites for a handful of nodes)
  while (2 * (mx + my) > total) {
    if (mx >= my && mx > 1)
      --mx;
    else
      --my;
  }
  const double dx = w / mx, dy = h / my;
  std::vector<Eigen::Vector2d> points;

  // boundary: bottom, right, top, left; corners at 0, mx, mx+my, 2mx+my
  for (int i = 0; i < mx; ++i) points.emplace_back(w * (static_cast<double>(i) / mx), 0.0);
  for (int j = 0; j < my; ++j) points.emplace_back(w, h * (static_cast<double>(j) / my));
  for (int i = mx; i > 0; --i) points.emplace_back(w * (static_cast<double>(i) / mx), h);
  for (int j = my; j > 0; --j) points.emplace_back(0.0, h * (static_cast<double>(j) / my));
  const int boundary_count = static_cast<int>(points.size());
  const int interior_count = total - boundary_count;

  // interior candidates: grid nodes moved by up to 0.3 spacing in each direction
  std::vector<Eigen::Vector2d> candidates;
  for (int j = 1; j < my; ++j)
    for (int i = 1; i < mx; ++i) {
      const double jx = uniform_real(rng, -0.3, 0.3), jy = uniform_real(rng, -0.3, 0.3);
      candidates.emplace_back((i + jx) * dx, (j + jy) * dy);
    }
  const int candidate_count = static_cast<int>(candidates.size());
  if (candidate_count >= interior_count) {
    // keep a random subset (partial Fisher-Yates), in grid order
    std::vector<int> pick(candidate_count);
    for (int k = 0; k < candidate_count; ++k) pick[k] = k;
    for (int k = 0; k < interior_count; ++k)
      std::swap(pick[k], pick[k + uniform_index(rng, candidate_count - k)]);
    std::sort(pick.begin(), pick.begin() + interior_count);
    for (int k = 0; k < interior_count; ++k) points.push_back(candidates[pick[k]]);
  } else {
    // too few candidates (at most one short, for very small meshes): add cell centres
    for (const Eigen::Vector2d& c : candidates) points.push_back(c);
    std::vector<int> cells(mx * my);
    for (int k = 0; k < mx * my; ++k) cells[k] = k;
    const int extra = std::min(interior_count - candidate_count, mx * my);
    for (int k = 0; k < extra; ++k) {
      std::swap(cells[k], cells[k + uniform_index(rng, mx * my - k)]);
      const double jx = uniform_real(rng, -0.15, 0.15), jy = uniform_real(rng, -0.15, 0.15);
      points.emplace_back((cells[k] % mx + 0.5 + jx) * dx, (cells[k] / mx + 0.5 + jy) * dy);
    }
  }

  Points2 uv(points.size(), 2);
  for (std::size_t k = 0; k < points.size(); ++k) uv.row(k) = points[k].transpose();
  Mesh mesh;
  mesh.positions = place_nodes(uv, spec.origin, spec.plane);
  for (const std::array<int, 3>& tri : delaunay_triangulate(uv))
    mesh.faces.push_back(triangle(tri[0], tri[1], tri[2]));

  const int bottom_left = 0, bottom_right = mx, top_right = mx + my, top_left = 2 * mx + my;
  mesh.node_sets["corners"] = {bottom_left, bottom_right, top_right, top_left};
  mesh.node_sets["top_corners"] = {top_left, top_right};
  std::vector<int> boundary(boundary_count);
  for (int k = 0; k < boundary_count; ++k) boundary[k] = k;
  mesh.node_sets["boundary"] = boundary;
  return mesh;
}

}  // namespace

Mesh make_rectangle(const RectangleSpec& spec) {
  assert(spec.width > 0 && spec.height > 0 && spec.nx >= 2 && spec.ny >= 2);
  const int nx = std::max(2, spec.nx), ny = std::max(2, spec.ny);
  std::mt19937_64 rng(spec.seed);
  Mesh mesh;
  if (spec.elements == ElementKind::tri_irregular) {
    assert(spec.irregular_nodes == 0 || spec.irregular_nodes >= 4);
    const int total = std::max(4, spec.irregular_nodes > 0 ? spec.irregular_nodes : nx * ny);
    mesh = make_irregular_rectangle(spec, total, rng);
  } else {
    mesh = make_structured_rectangle(spec, nx, ny);
  }
  add_normal_noise(mesh.positions, spec.plane, spec.noise, rng);
  return mesh;
}

Mesh make_disc(const DiscSpec& spec) {
  const bool ring = spec.inner_radius > 0;
  assert(spec.radius > spec.inner_radius && spec.sectors >= 3 && spec.rings >= (ring ? 2 : 1));
  const int sectors = std::max(3, spec.sectors);
  const int rings = std::max(ring ? 2 : 1, spec.rings);

  // nodes: (a disc's centre, then) circle k = 0..rings-1 from the inside out, node s of a
  // circle at the angle 2 pi s / sectors
  const int first = ring ? 0 : 1;
  auto node = [&](int k, int s) { return first + k * sectors + s % sectors; };
  Points2 uv(first + rings * sectors, 2);
  if (!ring) uv.row(0) << 0.0, 0.0;
  for (int k = 0; k < rings; ++k) {
    const double r = ring ? spec.inner_radius + (spec.radius - spec.inner_radius) *
                                                    (static_cast<double>(k) / (rings - 1))
                          : spec.radius * (static_cast<double>(k + 1) / rings);
    for (int s = 0; s < sectors; ++s) {
      double sine = 0, cosine = 0;
      portable_sin_cos_turns(static_cast<double>(s) / sectors, &sine, &cosine);
      uv.row(node(k, s)) << r * cosine, r * sine;
    }
  }

  Mesh mesh;
  mesh.positions = place_nodes(uv, spec.center, spec.plane);
  // the disc's centre fan, then quads (xi radial outwards, eta along the angle)
  if (!ring)
    for (int s = 0; s < sectors; ++s) mesh.faces.push_back(triangle(0, node(0, s), node(0, s + 1)));
  for (int k = 0; k + 1 < rings; ++k)
    for (int s = 0; s < sectors; ++s)
      mesh.faces.push_back(Face{{node(k, s), node(k + 1, s), node(k + 1, s + 1), node(k, s + 1)}});

  // node sets in boundary-loop order (cloth on the left): the outer circle counter-clockwise,
  // the inner circle clockwise, both starting at angle 0
  std::vector<int> outer, inner;
  for (int s = 0; s < sectors; ++s) outer.push_back(node(rings - 1, s));
  mesh.node_sets["boundary"] = outer;
  if (ring) {
    for (int s = 0; s < sectors; ++s) inner.push_back(node(0, (sectors - s) % sectors));
    mesh.node_sets["inner_boundary"] = inner;
  }

  std::mt19937_64 rng(spec.seed);
  add_normal_noise(mesh.positions, spec.plane, spec.noise, rng);
  return mesh;
}

}  // namespace tela
