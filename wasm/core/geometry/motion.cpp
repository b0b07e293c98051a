#include "geometry/motion.h"

#include <algorithm>
#include <cmath>

namespace tela {

Eigen::Vector3d motion_displacement(const PrescribedMotion& motion, double t) {
  switch (motion.kind) {
    case MotionKind::hold:
      return Eigen::Vector3d::Zero();
    case MotionKind::sinusoid: {
      const double tau = std::clamp(t, motion.start, motion.stop) - motion.start;
      const double two_pi = 2.0 * 3.14159265358979323846;
      const double s = std::sin(two_pi * motion.frequency * tau + motion.phase) - std::sin(motion.phase);
      return motion.axis / motion.axis.stableNorm() * (motion.amplitude * s);
    }
    case MotionKind::keyframes: {
      const auto& keys = motion.keyframes;
      if (keys.empty()) return Eigen::Vector3d::Zero();
      if (t >= keys.back().time) return keys.back().offset;
      if (t <= keys.front().time) {
        if (keys.front().time <= 0) return keys.front().offset;
        return keys.front().offset * (std::max(t, 0.0) / keys.front().time);
      }
      const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                         [](double time, const MotionKey& k) { return time < k.time; });
      const auto prev = next - 1;
      const double w = (t - prev->time) / (next->time - prev->time);
      return (1 - w) * prev->offset + w * next->offset;
    }
  }
  return Eigen::Vector3d::Zero();
}

}  // namespace tela
