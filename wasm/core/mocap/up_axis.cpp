#include "mocap/up_axis.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tela {

Result<UpAxis> parse_up_axis(const std::string& text) {
  UpAxis up;
  up.source = "user";
  std::string t = text;
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) {
    up.sign = t[0] == '-' ? -1 : 1;
    t = t.substr(1);
  }
  if (t == "x" || t == "X") up.axis = 0;
  else if (t == "y" || t == "Y") up.axis = 1;
  else if (t == "z" || t == "Z") up.axis = 2;
  else return Result<UpAxis>::failure("up axis: '" + text + "' is not one of x, y, z, -x, -y, -z");
  return Result<UpAxis>::success(up);
}

UpAxis detect_up_axis(const Recording& rec) {
  Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity());
  Eigen::Vector3d hi = -lo;
  for (int p = 0; p < rec.point_count(); ++p)
    for (int f = 0; f < rec.frame_count(); ++f)
      if (rec.valid(f, p)) {
        const Eigen::Vector3d x = rec.position(f, p);
        lo = lo.cwiseMin(x);
        hi = hi.cwiseMax(x);
        break;
      }
  UpAxis up;
  up.source = "detected";
  if (!(hi[0] >= lo[0])) return up;
  const Eigen::Vector3d extent = hi - lo;
  up.axis = extent[0] > extent[1] ? (extent[0] > extent[2] ? 0 : 2) : (extent[1] > extent[2] ? 1 : 2);
  return up;
}

UpAxis default_up_axis(const Recording& rec) {
  if (rec.up_axis == 'x' || rec.up_axis == 'y' || rec.up_axis == 'z') {
    UpAxis up;
    up.axis = rec.up_axis - 'x';
    up.sign = rec.up_sign < 0 ? -1 : 1;
    up.source = "format";
    return up;
  }
  return detect_up_axis(rec);
}

void to_z_up(Recording& rec, const UpAxis& up) {
  const int a = up.axis, b = (up.axis + 1) % 3, c = (up.axis + 2) % 3;
  for (int p = 0; p < rec.point_count(); ++p)
    for (int f = 0; f < rec.frame_count(); ++f) {
      const Eigen::Vector3d x = rec.position(f, p);
      rec.positions(f, 3 * p + 0) = x[b];
      rec.positions(f, 3 * p + 1) = up.sign * x[c];
      rec.positions(f, 3 * p + 2) = up.sign * x[a];
    }
}

}  // namespace tela
