// A motion (a control's, or an obstacle's translation): hold, sinusoid or keyframes.
#include "scenario/parse_sections.h"

#include "base/json_read.h"

#include <cmath>
#include <cstddef>
#include <utility>

namespace tela {
namespace {

using json = nlohmann::json;

bool parse_keyframes(const json& j, const std::string& path, std::vector<Keyframe>& out,
                     std::string& error) {
  if (!require_array(j, path, error)) return false;
  if (j.empty()) {
    error = path + ": must have at least one keyframe";
    return false;
  }
  std::vector<Keyframe> frames;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string p = element_path(path, i);
    Keyframe frame;
    if (!require_object(j[i], p, error) || !check_keys(j[i], p, {"time", "offset"}, error) ||
        !read_number(j[i], "time", p, kAnyNumber, frame.time, error) ||
        !read_vec3(j[i], "offset", p, frame.offset, error)) {
      return false;
    }
    if (!frames.empty() && frame.time <= frames.back().time) {
      error = member_path(p, "time") + ": keyframe times must be strictly increasing (got " +
              format_number(frame.time) + " after " + format_number(frames.back().time) + ")";
      return false;
    }
    frames.push_back(frame);
  }
  out = std::move(frames);
  return true;
}

}  // namespace

bool parse_motion(const json& j, const std::string& path, Motion& motion, std::string& error) {
  if (!require_object(j, path, error) ||
      !read_enum(j, "type", path, {"hold", "sinusoid", "keyframes"}, motion.type, error)) {
    return false;
  }
  if (motion.type == "hold") return check_keys(j, path, {"type"}, error);
  if (motion.type == "keyframes") {
    if (!check_keys(j, path, {"type", "keyframes"}, error)) return false;
    const json* frames = find_member(j, "keyframes");
    if (frames == nullptr) {
      error = member_path(path, "keyframes") + ": required for a keyframes motion";
      return false;
    }
    return parse_keyframes(*frames, member_path(path, "keyframes"), motion.keyframes, error);
  }
  if (!check_keys(j, path, {"type", "axis", "amplitude", "frequency", "phase", "start", "stop"},
                  error) ||
      !read_vec3(j, "axis", path, motion.axis, error) ||
      !read_number(j, "amplitude", path, kAnyNumber, motion.amplitude, error) ||
      !read_number(j, "frequency", path, kNonNegative, motion.frequency, error) ||
      !read_number(j, "phase", path, kAnyNumber, motion.phase, error) ||
      !read_number(j, "start", path, kAnyNumber, motion.start, error) ||
      !read_number(j, "stop", path, kAnyNumber, motion.stop, error)) {
    return false;
  }
  // kept as given; cloth/controls.cpp takes its direction with stableNorm ([1e155, 1e155, 0]
  // is a direction too: its squared norm overflows, and normalized() left it unnormalized)
  const double axis_length = motion.axis.stableNorm();
  if (!(axis_length > 0) || !std::isfinite(axis_length)) {
    error = member_path(path, "axis") + ": must be non-zero";
    return false;
  }
  if (motion.stop <= motion.start) {
    error = member_path(path, "stop") + ": must be > start (" + format_number(motion.start) + ") (got " +
            format_number(motion.stop) + ")";
    return false;
  }
  return true;
}

}  // namespace tela
