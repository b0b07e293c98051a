// Strain limit (our addition, off by default; scenario solver.strain_limit = epsilon > 0):
// no two nodes of an element get farther apart than (1 + epsilon) times their rest distance.
//
// Why. The thesis' constraints (§2.4) hold averages of the metric over the elements around
// each node, and those averages have a spurious in-plane mode: neighbouring elements can
// stretch and shrink in turn (element columns alternating wide and narrow, or sheared one way
// and the other) while every node's averages of E, F, G keep their rest values. Hanging
// cloth does not excite it; cloth pressed onto an obstacle and held there by friction does:
// the tablecloth loses 4.5 % of its area, with elements at 0.2 and 1.45 of their rest area
// (docs/validation.md, "Area in contact"). Averages of squares allow a net shortening, so the
// mode always stretches some element pair beyond its rest length.
//
// Why this limit is consistent with inextensible cloth. An isometry maps the straight segment
// between two material points to a curve of the same length, so their distance in space never
// exceeds their rest distance: a one-sided bound on pair distances never resists a fold,
// however sharp (chords across it shorten). Which pairs: the edges of every element and the
// diagonals of quads (the alternating-shear form of the mode stretches a diagonal). The bound
// is (1 + epsilon), not 1, because the thesis' node-averaged constraints themselves let
// element pairs stretch a few per cent where nothing is wrong (hang-7x9: at most 3.4 %,
// wam-fast 2.7 %, hang-20x33 2.2 %): with epsilon above that the limit leaves such states
// alone and only stops the collapse.
//
// How. Each limited pair is a unilateral row for the contact solver (cloth/contact_projection.h),
// linearized at the current iterate like a contact with a frozen normal n = (x_a - x_b)/|x_a - x_b|:
//   gap = n . (x_b - x_a) + (1 + epsilon) l0 >= 0
// with no friction (ContactConstraint::source kStrainLimitSource). Rows are made for pairs
// already beyond (1 + kStrainLimitNear epsilon) l0, so that nothing is asked of the solver
// while every pair is well inside the limit: the step is then the plain one.
#pragma once

#include "contact/contact_constraint.h"
#include "geometry/mesh.h"

#include <array>
#include <vector>

namespace tela {

// ContactConstraint::source of strain-limit rows (contact sources are >= 0)
constexpr int kStrainLimitSource = -1;
// rows are made for pairs longer than (1 + kStrainLimitNear epsilon) times their rest distance
constexpr double kStrainLimitNear = 0.8;

class StrainLimit {
 public:
  StrainLimit() = default;
  // `mesh` at rest; epsilon > 0 (0 leaves the limit off)
  StrainLimit(const Mesh& mesh, double epsilon);

  bool enabled() const { return epsilon_ > 0 && !pairs_.empty(); }
  double epsilon() const { return epsilon_; }
  int pair_count() const { return static_cast<int>(pairs_.size()); }

  // Appends a row for every limited pair near or beyond its limit at `current`, except pairs
  // whose two nodes are both `controlled` (nothing can move them).
  void rows(const Positions& current, const std::vector<char>& controlled, std::vector<ContactConstraint>& out) const;

  // Largest pair stretch |x_a - x_b| / l0 - 1 at `positions` (a diagnostic; 0 without pairs).
  double max_stretch(const Positions& positions) const;

 private:
  double epsilon_ = 0;
  std::vector<std::array<int, 2>> pairs_;  // unique, a < b
  std::vector<double> rest_;               // rest distance of each pair, metres
};

}  // namespace tela
