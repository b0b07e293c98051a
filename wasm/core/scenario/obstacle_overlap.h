// Two static obstacles of which one duplicates or hides inside the other: almost always a
// mistake in a scenario file (and a concave crease of two solids is better given as one), so
// parse_scenario reports it.
#pragma once

#include "scenario/scenario.h"

#include <string>

namespace tela {

// "" when a and b may stand together; else how b relates to a, to be followed by a's name:
// "is the same plane as", "lies inside (or is the same sphere as)", "lies entirely inside the
// solid below the plane of", ...
std::string obstacle_overlap(const ObstacleDesc& a, const ObstacleDesc& b);

}  // namespace tela
