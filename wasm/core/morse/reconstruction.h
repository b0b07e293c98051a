// The Morse-theory reconstruction of a point cloud (thesis ch. 5), end to end: neighbours,
// tangent planes, denoising along the normals, boundary points and curves, the flows of a
// height function, level sections, critical points, cells, attachment and topology, and for a
// disc-like cloud a re-sampled quad mesh (morse/parametrization.h).
#pragma once

#include "geometry/mesh.h"
#include "morse/attachment.h"
#include "morse/boundary.h"
#include "morse/cells.h"
#include "morse/critical_points.h"
#include "morse/flows.h"
#include "morse/level_sets.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"
#include "morse/topology.h"
#include "base/result.h"

#include <Eigen/Core>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tela::morse {

struct ReconstructOptions {
  std::optional<Eigen::Vector3d> direction;  // height direction (normalised); random when unset
  std::uint64_t seed = 1;                    // for the random direction
  int levels = 32;                           // requested number of level slabs (thesis n)
  int neighbours = 12;                       // k of the k nearest points (thesis k ~ 12)
  int smoothing_iterations = 2;              // normal-direction denoising passes
  double boundary_gap = 0.7 * 3.14159265358979323846;  // radians; see detect_boundary_points
  int min_boundary_points = 0;               // smaller boundary components are false detections (0: max(8, sqrt(#points) / 2))
  bool resample = true;                      // re-sampled quad mesh for disc-like clouds
  int resample_nodes = 0;                    // nodes along the longer side (0: automatic)
  int max_points = 2000000;                  // refuse larger clouds with a message
};

struct Reconstruction {
  Positions points;                      // #points by 3: the denoised cloud the flows ran on
  Eigen::Vector3d direction{0, 0, 1};
  std::vector<double> height;            // #points: f = p . direction, averaged over the boundary band
  NeighbourGraph graph;
  std::vector<TangentPlane> planes;      // oriented where possible
  std::vector<char> on_boundary;         // #points
  BoundaryCurves boundary;
  Flows flows;
  LevelSlicing slicing;
  LevelCurves level_curves;
  CriticalPoints critical;
  Cells cells;
  Attachment attachment;
  Topology topology;
  int normal_disagreements = 0;
  std::optional<Mesh> mesh;              // re-sampled quad mesh (disc-like clouds)
  std::string mesh_message;              // why there is no mesh, when there is none
  std::vector<std::string> warnings;
};

// Fails with a message on bad input: fewer than 10 points, non-finite coordinates, a zero
// direction, out-of-range options, or more than max_points points.
Result<Reconstruction> reconstruct(const Positions& points, const ReconstructOptions& options);

}  // namespace tela::morse
