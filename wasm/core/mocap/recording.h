// Recording: marker trajectories read from a motion-capture export, in metres, with the
// file's own axes until to_z_up() (mocap/up_axis.h) turns them into the core's z-up frame.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

namespace tela {

// What a tracked point is in the exporting software (Motive's Type row; other formats: marker).
enum class PointKind { marker, rigid_body, rigid_body_marker, bone, bone_marker };

const char* to_string(PointKind kind);

struct Recording {
  std::string format;          // motive-csv | vicon-csv | qualisys-tsv | c3d | csv-long | csv-wide
  std::string format_version;  // e.g. "1.23" (Motive), "Intel float" (C3D: processor, data type); may be empty
  std::string units;           // length units of the file: m | cm | mm (values here are metres)
  bool units_declared = true;  // false when guessed from the magnitudes (plain CSV)
  double rate = 0;             // frames per second: from the header, or 1 / median step of the time column
  char up_axis = 0;            // the format's or file's up axis: 'y' (Motive), 'z', 'x', or 0 (unknown)
  int up_sign = 1;             // -1 when that axis points down (a C3D file's POINT:Y_SCREEN '-Y')

  std::vector<std::string> names;   // #points
  std::vector<PointKind> kinds;     // #points
  std::vector<long> frame_numbers;  // #frames, as written in the file
  std::vector<double> times;        // #frames, s since the first frame (frame index / rate)
  // #frames by 3 #points, metres: x, y, z of point p in columns 3p .. 3p+2; a missing
  // (occluded) sample has all three NaN
  Eigen::MatrixXd positions;
  std::vector<std::string> warnings;  // things a user should know that are not errors

  int frame_count() const { return static_cast<int>(times.size()); }
  int point_count() const { return static_cast<int>(names.size()); }
  bool valid(int frame, int point) const { return positions(frame, 3 * point) == positions(frame, 3 * point); }
  Eigen::Vector3d position(int frame, int point) const {
    return positions.block<1, 3>(frame, 3 * point).transpose();
  }
  double duration() const { return times.empty() ? 0.0 : times.back() - times.front(); }
};

// Missing (occluded) samples, counted per point-frame.
long missing_samples(const Recording& recording);
long missing_samples(const Recording& recording, int point);

// Index of the point named `name`, or -1.
int point_index(const Recording& recording, const std::string& name);

}  // namespace tela
