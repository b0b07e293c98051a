// The obstacles section (thesis ch. 3): planes, boxes, spheres, cylinders, sticks and needle
// beds, each with a friction coefficient and an optional rigid motion.
#include "scenario/parse_sections.h"

#include "base/json_read.h"
#include "scenario/obstacle_overlap.h"

#include <cmath>
#include <cstddef>
#include <utility>

namespace tela {
namespace {

using json = nlohmann::json;

constexpr int max_obstacles = 64;
constexpr int max_stick_pieces = 10000;
constexpr int max_needles_per_side = 100;

bool read_unit_vec3(const json& object, const char* key, const std::string& path,
                    Eigen::Vector3d& out, std::string& error) {
  const json* j = find_member(object, key);
  if (j == nullptr) return true;
  Eigen::Vector3d v;
  if (!vec3_value(*j, member_path(path, key), v, error)) return false;
  const double norm = v.norm();
  if (!(norm > 1e-12) || !std::isfinite(norm)) {
    error = member_path(path, key) + ": must be a non-zero vector";
    return false;
  }
  out = v / norm;
  return true;
}

bool parse_obstacle_motion(const json& j, const std::string& path, ObstacleMotion& m,
                           std::string& error) {
  if (!require_object(j, path, error) || !check_keys(j, path, {"translation", "rotation"}, error)) {
    return false;
  }
  if (const json* t = find_member(j, "translation")) {
    if (!parse_motion(*t, member_path(path, "translation"), m.translation, error)) return false;
  }
  if (const json* r = find_member(j, "rotation")) {
    const std::string p = member_path(path, "rotation");
    if (!require_object(*r, p, error) ||
        !check_keys(*r, p, {"axis", "pivot", "angular_velocity", "start", "stop"}, error) ||
        !read_unit_vec3(*r, "axis", p, m.rotation_axis, error) ||
        !read_number(*r, "angular_velocity", p, kAnyNumber, m.angular_velocity, error) ||
        !read_number(*r, "start", p, kAnyNumber, m.rotation_start, error) ||
        !read_number(*r, "stop", p, kAnyNumber, m.rotation_stop, error)) {
      return false;
    }
    if (find_member(*r, "pivot") != nullptr) {
      if (!read_vec3(*r, "pivot", p, m.pivot, error)) return false;
      m.pivot_given = true;
    }
    if (m.rotation_stop <= m.rotation_start) {
      error = member_path(p, "stop") + ": must be > start (" + format_number(m.rotation_start) +
              ") (got " + format_number(m.rotation_stop) + ")";
      return false;
    }
  }
  return true;
}

bool parse_obstacle(const json& j, const std::string& p, ObstacleDesc& o, std::string& error) {
  if (!require_object(j, p, error)) return false;
  const json* type = find_member(j, "type");
  if (type == nullptr) {
    error = member_path(p, "type") + ": required (plane, box, sphere, cylinder, stick or needles)";
    return false;
  }
  if (!enum_value(*type, member_path(p, "type"), {"plane", "box", "sphere", "cylinder", "stick", "needles"},
                  o.type, error)) {
    return false;
  }
  bool ok = false;
  if (o.type == "plane") {
    ok = check_keys(j, p, {"type", "mu", "motion", "point", "normal"}, error) &&
         read_vec3(j, "point", p, o.point, error) && read_unit_vec3(j, "normal", p, o.normal, error);
  } else if (o.type == "box") {
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "size"}, error) &&
         read_vec3(j, "center", p, o.center, error) && read_vec3(j, "size", p, o.size, error);
    if (ok && !(o.size.minCoeff() > 0)) {
      error = member_path(p, "size") + ": every edge length must be > 0 (got [" + format_number(o.size.x()) +
              ", " + format_number(o.size.y()) + ", " + format_number(o.size.z()) + "])";
      ok = false;
    }
  } else if (o.type == "sphere") {
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "radius"}, error) &&
         read_vec3(j, "center", p, o.center, error) &&
         read_number(j, "radius", p, kPositive, o.radius, error);
  } else if (o.type == "cylinder") {
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "axis", "radius", "length"}, error) &&
         read_vec3(j, "center", p, o.center, error) && read_unit_vec3(j, "axis", p, o.axis, error) &&
         read_number(j, "radius", p, kPositive, o.radius, error) &&
         read_number(j, "length", p, kNonNegative, o.length, error);
  } else if (o.type == "stick") {
    ok = check_keys(j, p, {"type", "mu", "motion", "points", "radius", "segment"}, error) &&
         read_number(j, "radius", p, kPositive, o.radius, error) &&
         read_number(j, "segment", p, kPositive, o.segment, error);
    if (ok) {
      const json* points = find_member(j, "points");
      const std::string pp = member_path(p, "points");
      if (points == nullptr) {
        error = pp + ": required (the stick's polyline, at least 2 points)";
        return false;
      }
      if (!require_array(*points, pp, error)) return false;
      if (points->size() < 2) {
        error = pp + ": must have at least 2 points (got " + std::to_string(points->size()) + ")";
        return false;
      }
      o.points.clear();
      double pieces = 0;
      for (std::size_t i = 0; i < points->size(); ++i) {
        Eigen::Vector3d v;
        if (!vec3_value((*points)[i], element_path(pp, i), v, error)) return false;
        if (!o.points.empty()) {
          const double length = (v - o.points.back()).norm();
          if (!(length > 0)) {
            error = element_path(pp, i) + ": repeats the previous point (a stick edge of zero length)";
            return false;
          }
          pieces += std::ceil(length / o.segment);
        }
        o.points.push_back(v);
      }
      if (pieces > max_stick_pieces) {
        error = member_path(p, "segment") + ": the stick would have " + format_number(pieces) +
                " edges (at most " + std::to_string(max_stick_pieces) + "); use a longer segment";
        return false;
      }
    }
  } else {  // needles
    std::vector<int> count{o.count_x, o.count_y};
    ok = check_keys(j, p, {"type", "mu", "motion", "center", "spacing", "count", "c1", "c2"}, error) &&
         read_vec3(j, "center", p, o.center, error) &&
         read_number(j, "spacing", p, kPositive, o.spacing, error) &&
         read_number(j, "c1", p, kPositive, o.c1, error) &&
         read_number(j, "c2", p, kPositive, o.c2, error);
    if (ok) {
      if (const json* c = find_member(j, "count")) {
        const std::string cp = member_path(p, "count");
        if (!c->is_array() || c->size() != 2) {
          error = cp + ": must be an array of 2 integers [nx, ny]";
          return false;
        }
        if (!int_value((*c)[0], element_path(cp, 0), 1, max_needles_per_side, o.count_x, error) ||
            !int_value((*c)[1], element_path(cp, 1), 1, max_needles_per_side, o.count_y, error)) {
          return false;
        }
      }
      if (o.spacing * o.c1 < 2) {
        error = member_path(p, "spacing") + ": needles of base radius 1/c1 = " + format_number(1 / o.c1) +
                " m overlap; spacing must be >= 2/c1 = " + format_number(2 / o.c1) + " (got " +
                format_number(o.spacing) + ")";
        return false;
      }
    }
  }
  if (!ok || !read_number(j, "mu", p, kNonNegative, o.mu, error)) return false;
  if (const json* m = find_member(j, "motion")) {
    if (!parse_obstacle_motion(*m, member_path(p, "motion"), o.motion, error)) return false;
  }
  if (!o.motion.pivot_given) {
    o.motion.pivot = o.type == "plane" ? o.point
                     : o.type == "stick" ? 0.5 * (o.points.front() + o.points.back())
                                         : o.center;
  }
  return true;
}

}  // namespace

bool parse_obstacles(const json& j, std::vector<ObstacleDesc>& out, std::string& error) {
  if (!require_array(j, "obstacles", error)) return false;
  if (j.size() > static_cast<std::size_t>(max_obstacles)) {
    error = "obstacles: at most " + std::to_string(max_obstacles) + " obstacles (got " +
            std::to_string(j.size()) + ")";
    return false;
  }
  std::vector<ObstacleDesc> obstacles;
  for (std::size_t i = 0; i < j.size(); ++i) {
    ObstacleDesc o;
    if (!parse_obstacle(j[i], element_path("obstacles", i), o, error)) return false;
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
      const std::string why = obstacle_overlap(obstacles[k], o);
      if (!why.empty()) {
        error = element_path("obstacles", i) + ": " + why + " obstacles[" + std::to_string(k) +
                "]; remove one of them";
        return false;
      }
    }
    obstacles.push_back(std::move(o));
  }
  out = std::move(obstacles);
  return true;
}

}  // namespace tela
