// Length units as motion-capture files spell them (mm, Millimeters, m, Meters, cm, ...).
#pragma once

#include <string>

namespace tela {

// Canonical short name ("mm", "cm", "m") of a unit spelling, or "" when unknown.
std::string canonical_length_unit(const std::string& spelling);

// Metres per unit of a canonical name ("mm" -> 0.001); 0 when unknown.
double metres_per_unit(const std::string& canonical);

}  // namespace tela
