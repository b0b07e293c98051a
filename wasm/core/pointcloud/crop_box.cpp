#include "pointcloud/crop_box.h"

namespace tela {

PointCloud crop_box(const PointCloud& cloud, const Eigen::Vector3d& min, const Eigen::Vector3d& max) {
  std::vector<int> inside;
  for (int i = 0; i < cloud.point_count(); ++i) {
    bool in = true;
    for (int d = 0; d < 3; ++d) {
      const double x = cloud.points(i, d);
      if (!(x >= min[d] && x <= max[d])) in = false;
    }
    if (in) inside.push_back(i);
  }
  return select_points(cloud, inside);
}

}  // namespace tela
