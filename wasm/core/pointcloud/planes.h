// Dominant planes (a table or floor under the cloth) by RANSAC: repeatedly fit a plane through
// three random points (every other time the second and third are drawn among the first's 16
// nearest neighbours, so that planes holding few of the points are found too), keep the one
// with most points within distance_threshold, refine it by least squares on its inliers,
// remove them, and look for the next plane in the rest.
#pragma once

#include "pointcloud/point_cloud.h"

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace tela {

// The plane {p : normal . p = offset}, normal of unit length; inliers = points within the
// detection threshold when it was found (of the points left at that stage).
struct PlaneFit {
  Eigen::Vector3d normal = Eigen::Vector3d::UnitZ();
  double offset = 0;  // metres
  int inliers = 0;
};

struct PlaneDetectionOptions {
  int iterations = 1000;            // RANSAC hypotheses per plane (fewer when the plane is dominant; at most 100,000)
  double min_inlier_fraction = 0.05;  // stop when a plane would hold less than this of the cloud
  int min_inliers = 50;             // ... or fewer points than this
};

// Signed distance of p from the plane, metres.
double plane_distance(const PlaneFit& plane, const Eigen::Vector3d& p);

// Up to max_planes planes, dominant (most inliers) first. Deterministic for a given seed
// (portable RNG). distance_threshold in metres.
std::vector<PlaneFit> detect_planes(const PointCloud& cloud, int max_planes, double distance_threshold,
                                    std::uint64_t seed, const PlaneDetectionOptions& options = {});

// The cloud without the points within distance_threshold of any of the planes.
PointCloud remove_planes(const PointCloud& cloud, const std::vector<PlaneFit>& planes,
                         double distance_threshold);

}  // namespace tela
