#include "mocap/length_units.h"

#include "mocap/delimited_text.h"

namespace tela {

std::string canonical_length_unit(const std::string& spelling) {
  const std::string s = lower_case(spelling);
  if (s == "mm" || s == "millimeters" || s == "millimetres" || s == "millimeter" || s == "millimetre") return "mm";
  if (s == "cm" || s == "centimeters" || s == "centimetres" || s == "centimeter" || s == "centimetre") return "cm";
  if (s == "m" || s == "meters" || s == "metres" || s == "meter" || s == "metre") return "m";
  return "";
}

double metres_per_unit(const std::string& canonical) {
  if (canonical == "mm") return 0.001;
  if (canonical == "cm") return 0.01;
  if (canonical == "m") return 1.0;
  return 0.0;
}

}  // namespace tela
