#include "pointcloud/planes.h"

#include "base/portable_math.h"
#include "base/portable_random.h"
#include "pointcloud/knn.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <random>

namespace tela {

namespace {

// hypotheses are scored on at most this many points (a random sample of what is left); the
// winner is then refined and counted on all of them
constexpr int kScoringSampleSize = 20000;
// a cap on options.iterations, so that absurd input ends (each costs up to 20,000 distances)
constexpr int kMaxIterations = 100000;
// neighbourhood of the locally drawn hypotheses
constexpr int kLocalNeighbours = 16;

int count_within(const PlaneFit& plane, const Positions& points, const std::vector<int>& ids,
                 double threshold) {
  int count = 0;
  for (int i : ids)
    if (std::abs(plane_distance(plane, points.row(i).transpose())) <= threshold) ++count;
  return count;
}

// least-squares plane through the given points: centroid and the covariance's weakest direction
bool fit_plane(const Positions& points, const std::vector<int>& ids, PlaneFit& plane) {
  if (ids.size() < 3) return false;
  Eigen::Vector3d centroid = Eigen::Vector3d::Zero();
  for (int i : ids) centroid += points.row(i).transpose();
  centroid /= static_cast<double>(ids.size());
  Eigen::Matrix3d covariance = Eigen::Matrix3d::Zero();
  for (int i : ids) {
    const Eigen::Vector3d d = points.row(i).transpose() - centroid;
    covariance += d * d.transpose();
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(covariance);
  if (solver.info() != Eigen::Success) return false;
  const Eigen::Vector3d normal = solver.eigenvectors().col(0);  // smallest eigenvalue first
  if (!normal.allFinite() || normal.norm() < 0.5) return false;
  plane.normal = normal.normalized();
  plane.offset = plane.normal.dot(centroid);
  return true;
}

// the axis of the largest normal component (first on ties)
int dominant_axis(const Eigen::Vector3d& normal) {
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (std::abs(normal[d]) > std::abs(normal[axis])) axis = d;
  return axis;
}

}  // namespace

double plane_distance(const PlaneFit& plane, const Eigen::Vector3d& p) {
  return plane.normal.dot(p) - plane.offset;
}

std::vector<PlaneFit> detect_planes(const PointCloud& cloud, int max_planes, double distance_threshold,
                                    std::uint64_t seed, const PlaneDetectionOptions& options) {
  std::vector<PlaneFit> planes;
  const Positions& points = cloud.points;
  const int total = cloud.point_count();
  if (max_planes <= 0 || !(distance_threshold > 0) || total < 3) return planes;
  const double fraction = options.min_inlier_fraction > 0 ? std::min(options.min_inlier_fraction, 1.0) : 0.0;  // NaN: 0
  const int min_inliers = std::max({3, options.min_inliers, static_cast<int>(std::ceil(fraction * total))});
  std::mt19937_64 rng(seed);

  std::vector<int> remaining(total);
  for (int i = 0; i < total; ++i) remaining[i] = i;

  while (static_cast<int>(planes.size()) < max_planes && static_cast<int>(remaining.size()) >= min_inliers) {
    const int m = static_cast<int>(remaining.size());
    // the points hypotheses are scored on
    std::vector<int> scoring;
    if (m <= kScoringSampleSize) {
      scoring = remaining;
    } else {
      scoring.resize(kScoringSampleSize);
      for (int& s : scoring) s = remaining[uniform_index(rng, m)];
    }
    const double scale = static_cast<double>(m) / static_cast<double>(scoring.size());

    // every other hypothesis draws its second and third points among the first one's nearest
    // neighbours (in the scoring sample): a plane holding a small fraction w of the points is
    // then hit with probability ~w per draw instead of w^3
    Positions sample_points(static_cast<Eigen::Index>(scoring.size()), 3);
    for (std::size_t k = 0; k < scoring.size(); ++k) sample_points.row(k) = points.row(scoring[k]);
    const KnnIndex sample_index(sample_points);
    const int sample_size = static_cast<int>(scoring.size());
    std::vector<int> local;
    std::vector<double> local_distances;

    PlaneFit best;
    int best_score = -1;
    int needed = std::min(options.iterations, kMaxIterations);
    for (int it = 0; it < needed; ++it) {
      int a = 0, b = 0, c = 0;
      if (it % 2 == 0) {
        a = remaining[uniform_index(rng, m)];
        b = remaining[uniform_index(rng, m)];
        c = remaining[uniform_index(rng, m)];
      } else {
        const int first = uniform_index(rng, sample_size);
        sample_index.nearest_to_point(first, kLocalNeighbours, local, local_distances);
        if (local.size() < 2) continue;
        const int count = static_cast<int>(local.size());
        a = scoring[first];
        b = scoring[local[uniform_index(rng, count)]];
        c = scoring[local[uniform_index(rng, count)]];
      }
      if (a == b || b == c || a == c) continue;
      const Eigen::Vector3d pa = points.row(a).transpose();
      const Eigen::Vector3d cross = (points.row(b).transpose() - pa).cross(points.row(c).transpose() - pa);
      const double length = cross.norm();
      if (!(length > 0)) continue;
      PlaneFit hypothesis;
      hypothesis.normal = cross / length;
      hypothesis.offset = hypothesis.normal.dot(pa);
      const int raw_score = count_within(hypothesis, points, scoring, distance_threshold);
      if (2 * raw_score <= best_score) continue;
      // local optimization (LO-RANSAC) of every hypothesis within a factor 2 of the best: refit on the support within 3, 2 and 1 thresholds, so that a rough plane from a small
      // neighbourhood (tilted by the noise) reaches the whole plane
      int score = raw_score;
      for (double widening : {3.0, 2.0, 1.0}) {
        std::vector<int> support;
        for (int i : scoring)
          if (std::abs(plane_distance(hypothesis, points.row(i).transpose())) <= widening * distance_threshold)
            support.push_back(i);
        PlaneFit refit;
        if (!fit_plane(points, support, refit)) continue;
        const int refit_score = count_within(refit, points, scoring, distance_threshold);
        if (refit_score > score) {
          hypothesis = refit;
          score = refit_score;
        }
      }
      if (score > best_score) {
        best_score = score;
        best = hypothesis;
        // standard adaptive stop: enough hypotheses for 99.9 % confidence of one all-inlier draw
        const double w = static_cast<double>(score) / static_cast<double>(scoring.size());
        const double miss = 1.0 - w * w * w;
        if (miss <= 0) {
          needed = std::min(needed, it + 1);
        } else if (miss < 1) {
          const double required = portable_log(1e-3) / portable_log(miss);
          if (required < needed) needed = std::max(it + 1, static_cast<int>(std::ceil(required)));
        }
      }
    }
    if (best_score < 0 || best_score * scale < 0.5 * min_inliers) break;  // refinement below gains little

    // refine by least squares on the inliers (twice: the inlier set moves with the plane)
    std::vector<int> inliers;
    auto collect = [&](const PlaneFit& plane) {
      inliers.clear();
      for (int i : remaining)
        if (std::abs(plane_distance(plane, points.row(i).transpose())) <= distance_threshold) inliers.push_back(i);
    };
    collect(best);
    for (int pass = 0; pass < 2; ++pass) {
      PlaneFit refined = best;
      if (!fit_plane(points, inliers, refined)) break;
      const std::vector<int> previous = inliers;
      collect(refined);
      if (inliers.size() < previous.size()) {  // keep the better of the two
        inliers = previous;
        break;
      }
      best = refined;
    }
    if (static_cast<int>(inliers.size()) < min_inliers) break;

    // orient the normal towards the rest of the cloud (the cloth above the table)
    std::vector<bool> is_inlier(total, false);
    for (int i : inliers) is_inlier[i] = true;
    std::vector<int> rest;
    double side = 0;
    for (int i : remaining)
      if (!is_inlier[i]) {
        rest.push_back(i);
        side += plane_distance(best, points.row(i).transpose());
      }
    if (side < 0 || (side == 0 && best.normal[dominant_axis(best.normal)] < 0)) {
      best.normal = -best.normal;
      best.offset = -best.offset;
    }
    best.inliers = static_cast<int>(inliers.size());
    planes.push_back(best);
    remaining = rest;
  }
  return planes;
}

PointCloud remove_planes(const PointCloud& cloud, const std::vector<PlaneFit>& planes,
                         double distance_threshold) {
  std::vector<int> kept;
  for (int i = 0; i < cloud.point_count(); ++i) {
    const Eigen::Vector3d p = cloud.points.row(i).transpose();
    bool on_plane = false;
    for (const PlaneFit& plane : planes)
      if (std::abs(plane_distance(plane, p)) <= distance_threshold) on_plane = true;
    if (!on_plane) kept.push_back(i);
  }
  return select_points(cloud, kept);
}

}  // namespace tela
