// Denoising before the flows (thesis Remark 5.4.1 and the arXiv version's smoothing filter):
// each point moves toward the average of its neighbours, along its normal only, so the
// sampling is not dragged tangentially and boundaries do not shrink.
#pragma once

#include "geometry/mesh.h"
#include "morse/neighbours.h"
#include "morse/tangent_planes.h"

#include <vector>

namespace tela::morse {

// `iterations` passes of p += 0.5 n n.(mean(neighbours) - p). #points by 3.
Positions smooth_along_normals(const Positions& points, const NeighbourGraph& graph,
                               const std::vector<TangentPlane>& planes, int iterations);

}  // namespace tela::morse
