#include "mocap/marker_cloth.h"

#include "geometry/generators.h"

namespace tela {

Result<MarkerCloth> build_marker_cloth(const Recording& rec, const MarkerGrid& grid,
                                       const MarkerClothOptions& options) {
  using R = Result<MarkerCloth>;
  if (options.refine < 1 || options.refine > 16) return R::failure("refine: must be between 1 and 16");
  if (options.width < 0 || options.height < 0) return R::failure("cloth size: must be positive");
  MarkerCloth cloth;
  cloth.refine = options.refine;
  cloth.width = options.width > 0 ? options.width : grid.spacing_across * (grid.cols - 1);
  cloth.height = options.height > 0 ? options.height : grid.spacing_down * (grid.rows - 1);
  if (!(cloth.width > 1e-4) || !(cloth.height > 1e-4))
    return R::failure("the marker grid is degenerate (markers on top of each other)");
  const int nx = (grid.cols - 1) * cloth.refine + 1;
  const int ny = (grid.rows - 1) * cloth.refine + 1;

  RectangleSpec spec;
  spec.width = cloth.width;
  spec.height = cloth.height;
  spec.nx = nx;
  spec.ny = ny;
  spec.elements = ElementKind::quad;
  spec.plane = MeshPlane::xy;
  cloth.mesh = make_rectangle(spec);
  // place the flat rest sheet at the reference pose: top-left node on the top-left marker
  const Eigen::Vector3d top_left = grid.reference.row(0).transpose();
  const Eigen::Vector3d origin = top_left - cloth.height * grid.up;
  for (int k = 0; k < cloth.mesh.node_count(); ++k) {
    const double u = cloth.mesh.positions(k, 0), v = cloth.mesh.positions(k, 1);
    cloth.mesh.positions.row(k) = (origin + u * grid.across + v * grid.up).transpose();
  }

  const int markers = grid.cols * grid.rows;
  cloth.marker_nodes.resize(markers);
  for (int r = 0; r < grid.rows; ++r)
    for (int c = 0; c < grid.cols; ++c)
      cloth.marker_nodes[r * grid.cols + c] = (grid.rows - 1 - r) * cloth.refine * nx + c * cloth.refine;
  cloth.held_nodes = {cloth.marker_nodes[grid.held[0]], cloth.marker_nodes[grid.held[1]]};

  // initial state: the markers' reference positions (or frame 0, where visible),
  // the other nodes bilinear inside each marker cell
  Positions marker_x(markers, 3);
  for (int m = 0; m < markers; ++m)
    marker_x.row(m) = !options.initial_from_reference && rec.frame_count() > 0 && rec.valid(0, grid.points[m])
                          ? Eigen::RowVector3d(rec.position(0, grid.points[m]).transpose())
                          : Eigen::RowVector3d(grid.reference.row(m));
  cloth.initial_positions.resize(nx * ny, 3);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int ci = std::min(i / cloth.refine, grid.cols - 2);
      const int cj = std::min(j / cloth.refine, grid.rows - 2);  // cell rows counted from the bottom
      const double s = static_cast<double>(i - ci * cloth.refine) / cloth.refine;
      const double t = static_cast<double>(j - cj * cloth.refine) / cloth.refine;
      const int bottom = grid.rows - 1 - cj, top = bottom - 1;  // grid rows (from the top)
      const Eigen::RowVector3d p00 = marker_x.row(bottom * grid.cols + ci), p10 = marker_x.row(bottom * grid.cols + ci + 1);
      const Eigen::RowVector3d p01 = marker_x.row(top * grid.cols + ci), p11 = marker_x.row(top * grid.cols + ci + 1);
      cloth.initial_positions.row(j * nx + i) = (1 - s) * (1 - t) * p00 + s * (1 - t) * p10 + (1 - s) * t * p01 + s * t * p11;
    }
  return R::success(std::move(cloth));
}

}  // namespace tela
