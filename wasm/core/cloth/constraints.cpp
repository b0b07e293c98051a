#include "cloth/constraints.h"

#include "geometry/reference_element.h"
#include "geometry/topology.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

namespace tela {
namespace {

struct Term {
  int row, i, j;  // global node indices i, j
  double value;
  bool operator<(const Term& o) const { return std::tie(row, i, j) < std::tie(o.row, o.i, o.j); }
};

// Packs the terms into the layout of ConstraintSet: sorted support and a dense coefficient
// table per row, duplicates (the same i, j from several elements) summed.
void pack_terms(std::vector<Term>& terms, ConstraintSet& set) {
  // stable: duplicates are summed in insertion order, identically in every standard library
  std::stable_sort(terms.begin(), terms.end());
  const int rows = set.rows();
  set.support_start.assign(rows + 1, 0);
  set.coeff_start.assign(rows + 1, 0);
  set.support.clear();
  set.coeff.clear();
  std::size_t t = 0;
  for (int r = 0; r < rows; ++r) {
    const std::size_t begin = t;
    while (t < terms.size() && terms[t].row == r) ++t;
    // support: the distinct i of this row (t is symmetric, so the j are the same set)
    const int first = static_cast<int>(set.support.size());
    for (std::size_t e = begin; e < t; ++e)
      if (e == begin || terms[e].i != terms[e - 1].i) set.support.push_back(terms[e].i);
    const int size = static_cast<int>(set.support.size()) - first;
    auto slot_of = [&](int node) {
      return static_cast<int>(std::lower_bound(set.support.begin() + first, set.support.end(), node) -
                              (set.support.begin() + first));
    };
    const std::size_t table = set.coeff.size();
    set.coeff.resize(table + static_cast<std::size_t>(size) * size, 0.0);
    for (std::size_t e = begin; e < t; ++e)
      set.coeff[table + slot_of(terms[e].i) * size + slot_of(terms[e].j)] += terms[e].value;
    set.support_start[r + 1] = static_cast<int>(set.support.size());
    set.coeff_start[r + 1] = static_cast<int>(set.coeff.size());
  }
}

// The non-zero entries of every row's dense table (see ConstraintSet::nz_start).
void index_nonzeros(ConstraintSet& set) {
  set.nz_start.assign(1, 0);
  set.nz_slot.clear();
  set.nz_coeff.clear();
  set.nz_upper.clear();
  for (int r = 0; r < set.rows(); ++r) {
    const int size = set.support_size(r);
    const double* t = set.coeff.data() + set.coeff_start[r];
    for (int a = 0; a < size; ++a, t += size) {
      set.nz_upper.push_back(-1);
      for (int b = 0; b < size; ++b)
        if (t[b] != 0) {
          if (b >= a && set.nz_upper.back() < 0) set.nz_upper.back() = static_cast<int>(set.nz_slot.size());
          set.nz_slot.push_back(b);
          set.nz_coeff.push_back(t[b]);
        }
      set.nz_start.push_back(static_cast<int>(set.nz_slot.size()));
      if (set.nz_upper.back() < 0) set.nz_upper.back() = set.nz_start.back();
    }
  }
}

}  // namespace

ConstraintSet build_constraints(const Mesh& mesh, const std::vector<double>& lumped_area,
                                const ConstraintOptions& options) {
  const int n = mesh.node_count();
  std::vector<char> on_boundary(n, 0);
  const std::vector<Edge> bedges = boundary_edges(mesh);
  for (const Edge& e : bedges) on_boundary[e[0]] = on_boundary[e[1]] = 1;
  std::vector<char> is_corner(n, 0);
  for (int c : corner_nodes(mesh)) is_corner[c] = 1;

  // rows of the nodal metric constraints: row_of[type][node] (type 0 = E, 1 = F, 2 = G)
  ConstraintSet set;
  std::array<std::vector<int>, 3> row_of;
  for (auto& r : row_of) r.assign(n, -1);
  const ConstraintKind kinds[3] = {ConstraintKind::metric_e, ConstraintKind::metric_f,
                                   ConstraintKind::metric_g};
  for (int k = 0; k < n; ++k) {
    for (int type = 0; type < 3; ++type) {
      bool wanted;
      if (type == 1)
        wanted = options.all_nodes_f ||
                 (options.metric_f && (!on_boundary[k] || is_corner[k]));
      else
        wanted = options.metric_eg && !on_boundary[k];
      if (!wanted) continue;
      row_of[type][k] = set.rows();
      set.kind.push_back(kinds[type]);
      set.node.push_back(k);
      set.rest.push_back(0);
      set.scale.push_back(0);
    }
  }

  // thesis Algorithm 1: local tensors t^{kij} per element and Gauss point, scaled by 1/m_k.
  // The nodal rest metric (E_k^0, F_k^0, G_k^0) is accumulated on the way for the scales.
  std::vector<Term> terms;
  std::vector<std::array<double, 3>> rest_metric(n, {0, 0, 0});
  for (const Face& face : mesh.faces) {
    const int m = face.size();
    const ReferenceElement& ref = reference_element(m);
    for (int l = 0; l < ref.point_count; ++l) {
      const QuadraturePoint& q = ref.points[l];
      Eigen::Vector3d dxi = Eigen::Vector3d::Zero(), deta = Eigen::Vector3d::Zero();
      for (int a = 0; a < m; ++a) {
        dxi += q.dxi[a] * mesh.positions.row(face.v[a]).transpose();
        deta += q.deta[a] * mesh.positions.row(face.v[a]).transpose();
      }
      const double E = dxi.dot(dxi), F = dxi.dot(deta), G = deta.dot(deta);
      const double dA = std::sqrt(std::abs(E * G - F * F)) * q.weight;
      for (int k = 0; k < m; ++k) {
        const int gk = face.v[k];
        const double w = q.N[k] * dA / lumped_area[gk];
        rest_metric[gk][0] += w * E;
        rest_metric[gk][1] += w * F;
        rest_metric[gk][2] += w * G;
        for (int type = 0; type < 3; ++type) {
          const int row = row_of[type][gk];
          if (row < 0) continue;
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < m; ++j) {
              double t;
              if (type == 0) t = q.dxi[i] * q.dxi[j];
              else if (type == 1) t = 0.5 * (q.dxi[i] * q.deta[j] + q.deta[i] * q.dxi[j]);
              else t = q.deta[i] * q.deta[j];
              terms.push_back({row, face.v[i], face.v[j], w * t});
            }
        }
      }
    }
  }
  for (int r = 0; r < set.rows(); ++r) {
    const auto& g = rest_metric[set.node[r]];
    switch (set.kind[r]) {
      case ConstraintKind::metric_e: set.scale[r] = g[0]; break;
      case ConstraintKind::metric_g: set.scale[r] = g[2]; break;
      default: set.scale[r] = std::sqrt(g[0] * g[2]); break;
    }
  }

  // boundary edge lengths (thesis eq. 2.7), as |x_a - x_b|^2 - L0^2
  if (options.boundary_edges) {
    for (const Edge& e : bedges) {
      const int row = set.rows();
      const double l2 = (mesh.positions.row(e[0]) - mesh.positions.row(e[1])).squaredNorm();
      set.kind.push_back(ConstraintKind::boundary_edge);
      set.node.push_back(e[0]);
      set.rest.push_back(0);
      set.scale.push_back(l2);
      terms.push_back({row, e[0], e[0], 1.0});
      terms.push_back({row, e[1], e[1], 1.0});
      terms.push_back({row, e[0], e[1], -1.0});
      terms.push_back({row, e[1], e[0], -1.0});
    }
  }

  pack_terms(terms, set);
  index_nonzeros(set);

  // rest values C0 = T (x) P(0)
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> gradient;
  constraint_gradients(set, mesh.positions, gradient);
  Eigen::VectorXd values;
  constraint_values(set, mesh.positions, gradient, values);
  for (int r = 0; r < set.rows(); ++r) set.rest[r] = values[r];
  return set;
}

ConstraintSet select_rows(const ConstraintSet& set, const std::vector<char>& keep) {
  ConstraintSet out;
  out.support_start.push_back(0);
  out.coeff_start.push_back(0);
  for (int r = 0; r < set.rows(); ++r) {
    if (!keep[r]) continue;
    out.kind.push_back(set.kind[r]);
    out.node.push_back(set.node[r]);
    out.rest.push_back(set.rest[r]);
    out.scale.push_back(set.scale[r]);
    out.support.insert(out.support.end(), set.support.begin() + set.support_start[r],
                       set.support.begin() + set.support_start[r + 1]);
    out.support_start.push_back(static_cast<int>(out.support.size()));
    out.coeff.insert(out.coeff.end(), set.coeff.begin() + set.coeff_start[r],
                     set.coeff.begin() + set.coeff_start[r + 1]);
    out.coeff_start.push_back(static_cast<int>(out.coeff.size()));
  }
  index_nonzeros(out);
  return out;
}

namespace {

using RowGradients = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;

int largest_support(const ConstraintSet& set) {
  int largest = 0;
  for (int r = 0; r < set.rows(); ++r) largest = std::max(largest, set.support_size(r));
  return largest;
}

// The positions of row r's support nodes, packed into `gathered` (room for 3 * support size).
inline void gather_support(const ConstraintSet& set, int r, const Positions& positions, double* gathered) {
  const int base = set.support_start[r];
  for (int a = 0, size = set.support_size(r); a < size; ++a) {
    const double* p = positions.data() + 3 * set.support[base + a];
    gathered[3 * a] = p[0];
    gathered[3 * a + 1] = p[1];
    gathered[3 * a + 2] = p[2];
  }
}

// thesis eq. 2.16: grad C_r = 2 [T x, T y, T z]; `gathered` holds room for 3 * support size.
// The table's zeros are skipped: the sums are those of the dense table, term by term.
inline void row_gradient(const ConstraintSet& set, int r, const Positions& positions, double* gathered,
                         RowGradients& gradient) {
  const int base = set.support_start[r];
  const int size = set.support_size(r);
  gather_support(set, r, positions, gathered);
  const double* x = gathered;
  const int* slot = set.nz_slot.data();
  const double* t = set.nz_coeff.data();
  for (int a = 0; a < size; ++a) {
    double gx = 0, gy = 0, gz = 0;
    for (int i = set.nz_start[base + a], end = set.nz_start[base + a + 1]; i < end; ++i) {
      const double* xb = x + 3 * slot[i];
      gx += t[i] * xb[0];
      gy += t[i] * xb[1];
      gz += t[i] * xb[2];
    }
    double* g = gradient.data() + 3 * (base + a);
    g[0] = 2 * gx;
    g[1] = 2 * gy;
    g[2] = 2 * gz;
  }
}

// C_r = 1/2 grad C_r . x - C0_r
inline double row_value(const ConstraintSet& set, int r, const Positions& positions, const RowGradients& gradient) {
  double sum = 0;
  for (int s = set.support_start[r]; s < set.support_start[r + 1]; ++s)
    sum += gradient.row(s).dot(positions.row(set.support[s]));
  return 0.5 * sum - set.rest[r];
}

}  // namespace

void constraint_gradients(const ConstraintSet& set, const Positions& positions, RowGradients& gradient) {
  gradient.resize(static_cast<Eigen::Index>(set.support.size()), 3);
  std::vector<double> gathered(3 * static_cast<std::size_t>(largest_support(set)));  // one row's support positions
  for (int r = 0; r < set.rows(); ++r) row_gradient(set, r, positions, gathered.data(), gradient);
}

void constraint_values(const ConstraintSet& set, const Positions& positions, const RowGradients& gradient,
                       Eigen::VectorXd& values) {
  const int rows = set.rows();
  values.resize(rows);
  for (int r = 0; r < rows; ++r) values[r] = row_value(set, r, positions, gradient);
}

double constraint_gradients_values(const ConstraintSet& set, const Positions& positions, RowGradients& gradient,
                                   Eigen::VectorXd& values, std::vector<double>& work, double stop_above,
                                   int* first_row) {
  const int rows = set.rows();
  gradient.resize(static_cast<Eigen::Index>(set.support.size()), 3);
  values.resize(rows);
  if (rows == 0) return 0;
  const std::size_t room = 3 * static_cast<std::size_t>(largest_support(set));
  if (work.size() < room) work.resize(room);
  const int begin = first_row && *first_row >= 0 && *first_row < rows ? *first_row : 0;
  double worst = 0;
  for (int i = 0; i < rows; ++i) {
    const int r = begin + i < rows ? begin + i : begin + i - rows;
    row_gradient(set, r, positions, work.data(), gradient);
    values[r] = row_value(set, r, positions, gradient);
    const double error = std::abs(values[r]) / set.scale[r];
    worst = std::max(worst, error);
    if (error > stop_above) {
      if (first_row) *first_row = r;
      return worst;
    }
  }
  return worst;
}

double constraint_error(const ConstraintSet& set, const Positions& positions, std::vector<double>& work,
                        double stop_above, int* first_row) {
  const int rows = set.rows();
  if (rows == 0) return 0;
  const std::size_t room = 3 * static_cast<std::size_t>(largest_support(set));
  if (work.size() < room) work.resize(room);
  double* x = work.data();
  const int* slot = set.nz_slot.data();
  const double* t = set.nz_coeff.data();
  const int begin = first_row && *first_row >= 0 && *first_row < rows ? *first_row : 0;
  double worst = 0;
  for (int i = 0; i < rows; ++i) {
    const int r = begin + i < rows ? begin + i : begin + i - rows;
    const int base = set.support_start[r];
    const int size = set.support_size(r);
    gather_support(set, r, positions, x);
    // t is symmetric: t_aa |x_a|^2 + 2 sum_{b > a} t_ab <x_a, x_b>
    double sum = 0;
    for (int a = 0; a < size; ++a) {
      const double* xa = x + 3 * a;
      int k = set.nz_upper[base + a];
      const int end = set.nz_start[base + a + 1];
      if (k < end && slot[k] == a) sum += t[k++] * (xa[0] * xa[0] + xa[1] * xa[1] + xa[2] * xa[2]);
      double ox = 0, oy = 0, oz = 0;  // sum_{b > a} t_ab x_b
      for (; k < end; ++k) {
        const double* xb = x + 3 * slot[k];
        ox += t[k] * xb[0];
        oy += t[k] * xb[1];
        oz += t[k] * xb[2];
      }
      sum += 2 * (xa[0] * ox + xa[1] * oy + xa[2] * oz);
    }
    const double error = std::abs(sum - set.rest[r]) / set.scale[r];
    if (!(error <= stop_above)) {
      if (first_row) *first_row = r;
      return std::isfinite(error) ? error : std::numeric_limits<double>::infinity();
    }
    worst = std::max(worst, error);
  }
  return worst;
}

double relative_error(const ConstraintSet& set, const Eigen::VectorXd& values) {
  double worst = 0;
  for (int r = 0; r < set.rows(); ++r) worst = std::max(worst, std::abs(values[r]) / set.scale[r]);
  return worst;
}

}  // namespace tela
