#include "dgli/cloth_coordinates.h"

#include <algorithm>
#include <cmath>

namespace tela {
namespace {

// arc-length parametrisation of a closed polyline: cumulative lengths, then the point at s
struct ArcLength {
  const Positions& points;
  std::vector<double> cumulative;  // cumulative[k] = length up to point k; back() = perimeter
  explicit ArcLength(const Positions& p) : points(p), cumulative(static_cast<std::size_t>(p.rows()) + 1, 0.0) {
    const Eigen::Index n = p.rows();
    for (Eigen::Index k = 0; k < n; ++k)
      cumulative[k + 1] = cumulative[k] + (p.row((k + 1) % n) - p.row(k)).norm();
  }
  Point3 at(double s) const {
    const double total = cumulative.back();
    s = std::fmod(s, total);
    if (s < 0) s += total;
    const Eigen::Index n = points.rows();
    // the edge k with cumulative[k] <= s <= cumulative[k + 1]
    const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), s);
    Eigen::Index k = std::clamp<Eigen::Index>(static_cast<Eigen::Index>(it - cumulative.begin()) - 1, 0, n - 1);
    const double length = cumulative[k + 1] - cumulative[k];
    const double w = length > 0 ? std::min((s - cumulative[k]) / length, 1.0) : 0.0;
    const Point3 p = points.row(k).transpose(), q = points.row((k + 1) % n).transpose();
    return p + w * (q - p);
  }
};

}  // namespace

const char* to_string(SegmentChoice choice) {
  switch (choice) {
    case SegmentChoice::all: return "all";
    case SegmentChoice::alternate: return "alternate";
    case SegmentChoice::per_side: return "per_side";
  }
  return "unknown";
}

bool parse_segment_choice(const std::string& text, SegmentChoice& out) {
  if (text == "all") out = SegmentChoice::all;
  else if (text == "alternate") out = SegmentChoice::alternate;
  else if (text == "per_side") out = SegmentChoice::per_side;
  else return false;
  return true;
}

const char* to_string(SideLayout layout) {
  return layout == SideLayout::first_half ? "first_half" : "spread";
}

bool parse_side_layout(const std::string& text, SideLayout& out) {
  if (text == "spread") out = SideLayout::spread;
  else if (text == "first_half") out = SideLayout::first_half;
  else return false;
  return true;
}

Result<std::vector<Segment>> choose_segments(const BoundaryCurve& curve, const CoordinateSettings& settings) {
  using R = Result<std::vector<Segment>>;
  const int n = static_cast<int>(curve.points.rows());
  if (n < 4) return R::failure("boundary: needs at least 4 points");
  const double perimeter = perimeter_length(curve.points);
  if (!std::isfinite(perimeter))
    return R::failure("boundary: its length overflows (coordinates near 1e300?): give the state in metres");
  if (!(perimeter > 0))
    return R::failure("boundary: all its points coincide (zero length): the dGLI coordinates are undefined");
  auto point = [&](int k) -> Point3 { return curve.points.row(((k % n) + n) % n).transpose(); };
  // m segments give m (m - 1) / 2 coordinates: beyond kMaxSegments (half a million values) the
  // request is refused before anything is allocated (per_side = 1e9 from the page aborted the
  // module, and a long boundary with "all" would)
  const long long planned = settings.choice == SegmentChoice::all         ? n
                            : settings.choice == SegmentChoice::alternate ? n / 2
                                                                          : static_cast<long long>(settings.per_side) * settings.sides;
  if (planned > kMaxSegments)
    return R::failure("segments: " + std::to_string(planned) + " requested, at most " + std::to_string(kMaxSegments) +
                      " (m segments give m (m - 1) / 2 coordinates): fewer per side, or per_side instead of all");
  std::vector<Segment> segments;
  if (settings.choice == SegmentChoice::all) {
    for (int k = 0; k < n; ++k) segments.push_back({point(k), point(k + 1)});
  } else if (settings.choice == SegmentChoice::alternate) {
    for (int k = 0; k + 1 < n; k += 2) segments.push_back({point(k), point(k + 1)});
  } else {
    if (settings.per_side < 1) return R::failure("per_side: must be >= 1 (got " + std::to_string(settings.per_side) + ")");
    if (settings.sides < 1) return R::failure("sides: must be >= 1");
    const ArcLength arc(curve.points);
    const double perimeter = arc.cumulative.back();
    std::vector<double> corners = curve.corners;
    if (static_cast<int>(corners.size()) != settings.sides) {
      corners.clear();
      for (int i = 0; i < settings.sides; ++i) corners.push_back(perimeter * i / settings.sides);
    }
    const int k = settings.per_side;
    for (int side = 0; side < settings.sides; ++side) {
      const double from = corners[side];
      const double to = side + 1 < settings.sides ? corners[side + 1] : corners[0] + perimeter;
      const double piece = (to - from) / (2 * k);
      for (int j = 0; j < k; ++j) {
        const double a = settings.layout == SideLayout::spread ? 2 * j : j + 0.1;
        const double b = settings.layout == SideLayout::spread ? 2 * j + 1 : j + 0.8;
        segments.push_back({arc.at(from + a * piece), arc.at(from + b * piece)});
      }
    }
  }
  return R::success(std::move(segments));
}

DgliCoordinates segment_coordinates(const std::vector<Segment>& segments, double scale) {
  DgliCoordinates out;
  out.segments = segments;
  const int m = static_cast<int>(segments.size());
  out.values.reserve(m > 1 ? m * (m - 1) / 2 : 0);
  for (int i = 0; i < m; ++i)
    for (int j = i + 1; j < m; ++j) {
      const SegmentDgli d = segment_dgli(segments[i][0], segments[i][1], segments[j][0], segments[j][1]);
      out.values.push_back(d.value * scale);
      out.status.push_back(d.status);
      if (d.status != PairStatus::ok) ++out.undefined;
    }
  return out;
}

Result<DgliCoordinates> cloth_coordinates(const BoundaryCurve& curve, const CoordinateSettings& settings) {
  Result<std::vector<Segment>> segments = choose_segments(curve, settings);
  if (!segments.ok()) return Result<DgliCoordinates>::failure(segments.error);
  const double perimeter = perimeter_length(curve.points);
  DgliCoordinates out = segment_coordinates(*segments.value, settings.normalize_by_perimeter ? perimeter : 1.0);
  out.perimeter = perimeter;
  return Result<DgliCoordinates>::success(std::move(out));
}

}  // namespace tela
