// Broad phase: pairs of overlapping boxes found with a uniform grid (b's (cell, box) entries
// bucketed by a hash of the cell with a counting sort; the output is every overlapping pair,
// sorted, so it does not depend on the hashing or on any iteration order). Cost ~ n_a + n_b
// for boxes about one cell in size, instead of the n_a n_b of all pairs.
#pragma once

#include "contact/broad_phase/aabb.h"

#include <utility>
#include <vector>

namespace tela {

// Pairs (i, j), i indexing `a`, j indexing `b`, whose boxes overlap, sorted and unique. With
// same_set (a and b the same list) only i < j is reported. `cell` (metres, > 0) is the
// suggested grid spacing (about the size of a box); it grows when a box would span too many
// cells.
std::vector<std::pair<int, int>> overlapping_pairs(const std::vector<Aabb>& a,
                                                   const std::vector<Aabb>& b, bool same_set,
                                                   double cell);

}  // namespace tela
