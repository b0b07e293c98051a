#include "mocap/recording.h"

namespace tela {

const char* to_string(PointKind kind) {
  switch (kind) {
    case PointKind::marker: return "marker";
    case PointKind::rigid_body: return "rigid_body";
    case PointKind::rigid_body_marker: return "rigid_body_marker";
    case PointKind::bone: return "bone";
    case PointKind::bone_marker: return "bone_marker";
  }
  return "marker";
}

long missing_samples(const Recording& recording, int point) {
  long missing = 0;
  for (int f = 0; f < recording.frame_count(); ++f)
    if (!recording.valid(f, point)) ++missing;
  return missing;
}

long missing_samples(const Recording& recording) {
  long missing = 0;
  for (int p = 0; p < recording.point_count(); ++p) missing += missing_samples(recording, p);
  return missing;
}

int point_index(const Recording& recording, const std::string& name) {
  for (int p = 0; p < recording.point_count(); ++p)
    if (recording.names[p] == name) return p;
  return -1;
}

}  // namespace tela
