// Disjoint sets with path halving and union by index (the smaller root wins, so results do
// not depend on the order of unions).
#pragma once

#include <vector>

namespace tela::morse {

class UnionFind {
 public:
  explicit UnionFind(int count) : parent_(count) {
    for (int i = 0; i < count; ++i) parent_[i] = i;
  }
  int find(int x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }
  // returns true when a and b were in different sets
  bool unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (a < b) parent_[b] = a;
    else parent_[a] = b;
    return true;
  }
  int size() const { return static_cast<int>(parent_.size()); }

 private:
  std::vector<int> parent_;
};

}  // namespace tela::morse
