// The figures of the validation suite (ctest label `validation`): each criterion prints one
// line `VALIDATE<TAB>criterion<TAB>measured<TAB>target<TAB>holds|unmet`, and `npm run validate`
// (scripts/validate.sh) collects the lines into its table. A criterion that holds is also
// asserted by its test case; one that does not hold yet is printed as unmet beside the bound
// its test case asserts instead.
#pragma once

#include <cstdio>
#include <string>

namespace tela::validation {

// x with the given number of decimals
inline std::string fixed(double x, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  return text;
}

inline void report(const std::string& criterion, const std::string& measured, const std::string& target, bool holds) {
  std::printf("VALIDATE\t%s\t%s\t%s\t%s\n", criterion.c_str(), measured.c_str(), target.c_str(),
              holds ? "holds" : "unmet");
  std::fflush(stdout);
}

}  // namespace tela::validation
