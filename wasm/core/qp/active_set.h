// The active-set solver of thesis §3.5 for QpProblem (qp/qp_problem.h), working on the dual:
// for the working set W = {equalities} + {inequalities believed active} it solves
//
//   (G_W M^-1 G_W^T + sigma I_E) zeta = g_W - G_W M^-1 f,   x = M^-1 (f + G_W^T zeta)
//
// (g = e for equalities, b for working inequalities), then
//   - removes ALL working inequalities with a negative multiplier at once (Remark 3.5.4);
//   - otherwise brings in the most violated inequality (Remark 3.5.1), one at a time;
//   - stops when no multiplier is negative and nothing is violated.
// It may start from any working set, feasible or not (the warm start need not be right).
// An inequality is brought in by a dual step (Goldfarb-Idnani): its multiplier grows while
// the working multipliers follow, until it holds, or until a working multiplier reaches zero
// first, which then leaves and the step goes on. The multipliers stay >= 0, so the method
// terminates; the thesis' full step followed by "release all negatives" cycled on dense
// random QPs (tests/cpp/qp). With a dependent gradient the ratio test performs the exchange
// of Remark 3.5.2.
//
// Linear algebra (§3.5.1-3.5.2). The "base" rows (the equalities and the working
// inequalities at the last refactorization) are factorized by the sparse supernodal
// Cholesky. The matrix may also hold rows of an earlier base, decoupled (unit diagonal,
// stored zeros), so that a later base inside it reuses the symbolic analysis (see
// factor_base); a base of the equalities alone keeps one analysis for a whole run. A small warm start
// (ActiveSetSettings::max_bordered_start) and every row added later are appended as dense
// bordered rows, eq. 3.12: l = L^-1 Q G_B M^-1 a^T (one forward
// substitution) and a new row of a small dense Cholesky factor of the Schur complement. A
// pivot^2 <= dependence_tolerance * a M^-1 a^T means the new gradient depends on the working
// ones (Remark 3.5.3): alpha = A_W^-1 G_W M^-1 a^T (the coefficients of the combination, also
// the direction of the dual step) comes from one more backward solve; a working inequality
// with positive alpha leaves by the ratio test and the new one enters (Remark 3.5.2); if no
// alpha is positive the problem is infeasible, since a x cannot grow while the working rows
// hold. An appended row that leaves takes its column of the bordered rows and its row of the
// Schur factor with it (Givens rotations restore the triangle: O(#appended^2)). A base row that leaves
// stays in the sparse factor, masked (Schur-complement method of Gill, Murray, Saunders and
// Wright): its multiplier is held at zero by one more bordered row of the KKT system,
// [K_B E_R; E_R^T 0], whose block E_R^T K_B^-1 E_R = M_R^T M_R (m_r = L^-1 e_r, one forward
// solve per masked row) has its own small Cholesky factor N. With k(u) = N^-1 M_R^T L^-1 u,
// u^T P v = (L^-1 u)^T (L^-1 v) - k(u)^T k(v) for P the inverse of the base without the masked
// rows, so masking a row only appends an entry to every appended row's k and updates the
// Schur factor of the appended rows by rank one. More than max_masked masked rows, or more
// than max_appended appended ones, refactor the base (Remark 3.5.4's refactorization, now
// only when the bordered blocks have grown; releasing a napkin's self-contacts one by one
// refactorized the base thousands of times).
// A base whose rows, M^-1 weights and shift equal those of the last factorization (a chord
// iteration, cloth/contact_projection.h; a resting cloth) keeps its factor without being
// assembled again (stats.reused_factors); so does the block of bordered rows of a warm start
// equal to the last one (stats.reused_starts). Neither changes a bit of the solution.
#pragma once

#include "linalg/supernodal_cholesky.h"
#include "qp/qp_problem.h"

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <utility>
#include <vector>

namespace tela {

struct ActiveSetSettings {
  int max_iterations = 2000;             // working-set changes per solve
  // an inequality counts as violated when (b - A x)_k / |a_k|_W exceeds this (|a|_W^2 = a M^-1 a^T)
  double feasibility_tolerance = 1e-10;
  // a working multiplier counts as negative below -multiplier_tolerance * (1 + max |z_k| |a_k|_W)
  double multiplier_tolerance = 1e-12;
  double dependence_tolerance = 1e-9;
  int max_appended = 128;                // bordered rows kept before the base is refactorized
  // A warm start of at most this many rows is appended as bordered rows to the factor of the
  // equalities (whose factor is then usually the last one, kept), a larger one is factorized
  // with them (with 200 here and max_appended 256, napkin-fold's first 1.5 s took 73 s against
  // 65-81 s with 48 and 128 on the same machine).
  int max_bordered_start = 48;
  int max_masked = 32;                   // masked base rows kept before the base is refactorized
  // without a warm start, every row the equality-constrained minimizer violates enters at once
  bool crash_start = true;
};

// The planned rows S of the base factor (see factor_base in active_set.cpp): a set of
// inequality indices that carries over from one solve to the next while it holds the new base.
// S decides the pattern of the base system, hence its ordering and the round-off of every
// solution: it is part of the caller's state (cloth/state.h, ContactWarmStart), exported
// after a solve and imported before the next.
struct ActiveSetPlan {
  std::vector<int> rows;  // S, inequality indices
  int inequalities = 0;   // the inequality count of the problem S was made for
  bool operator==(const ActiveSetPlan& o) const { return rows == o.rows && inequalities == o.inequalities; }
};

struct ActiveSetStats {
  long solves = 0;           // QPs
  long iterations = 0;       // working-set changes
  long factorizations = 0;   // sparse numeric factorizations of the base
  long reused_factors = 0;   // bases made of the last factorization's rows (no assembly, no factorization)
  long reused_starts = 0;    // warm starts appended as the last one was (its bordered rows kept)
  long factored_rows = 0;    // rows of those factorizations, summed (equalities and planned inequalities)
  long analyses = 0;         // sparse symbolic analyses (pattern changed)
  long appended = 0;         // rows appended to the factor
  long removed = 0;          // inequalities released
  long masked = 0;           // base rows released by masking (no refactorization)
  long dependent_swaps = 0;  // Remark 3.5.2 exchanges
  long crash_starts = 0;     // solves without a warm start that began from their violated rows
};

class ActiveSetSolver {
 public:
  ActiveSetSettings settings;
  ActiveSetStats stats;

  // Solves `problem` from the working set `warm_start` (inequality indices; duplicates,
  // out-of-range indices and dependent rows are tolerated). The solution's `active` is the
  // final working set, to warm-start the next, similar problem.
  QpSolution solve(const QpProblem& problem, const std::vector<int>& warm_start);

  // The planned rows the next solve starts from, and setting them (a solver given the plan
  // another solver ended with solves as that one would: everything else it keeps between
  // solves is a cache of exactly equal inputs).
  ActiveSetPlan plan() const { return {planned_, static_cast<int>(slot_.size())}; }
  void set_plan(const ActiveSetPlan& plan);

 private:
  // One solve's progress, handed from step to step of solve().
  struct SolveState {
    std::vector<char> working;  // per inequality: in the working set W
    Eigen::VectorXd free_step;  // M^-1 f
    Eigen::VectorXd x;          // the iterate
    QpSolution solution;        // x and the multipliers as last solved or stepped
    int iteration = 0;
    // `current`: x and the multipliers belong to the working set. After a dual step that brought
    // its row in they do without a solve (updated along the step, as Goldfarb and Idnani do);
    // `solved`: they come from a solve of the KKT system, as the returned solution must;
    // `refine`: solves are refined (the last one with masked rows); `crash`: no warm start was
    // given and the crash start (ActiveSetSettings::crash_start) is still to come.
    bool current = false, solved = false, refine = false, crash = false;
    Eigen::VectorXd rhs_base, rhs_appended, zeta_base, zeta_appended;  // the KKT system's
    Eigen::VectorXd slack;                                              // A x - b
    Eigen::VectorXd u_base, u_appended, l, k_masked, t;                 // the entering row's
  };
  // The direction of a dual step for an entering row: its pivot^2 (eq. 3.12), whether its
  // gradient is independent of the working ones (Remark 3.5.3), and alpha = A_W^-1 G_W M^-1 a^T
  // on the base and the appended rows.
  struct DualDirection {
    double pivot2 = 0;
    bool independent = false;
    Eigen::VectorXd alpha_base, alpha_appended;
  };
  enum class CrashStart { not_taken, taken, singular };
  enum class DualStep { entered, exchanged, stopped };

  // the steps of solve(), in the order it takes them
  // M^-1, M^-1 f and |a_k|_W; false (status set) when they are not finite or a row without
  // variables can never hold
  bool prepare(const QpProblem& problem, SolveState& s);
  // the working set from the warm start; false (status singular) when not even the equalities
  // factorize
  bool start_working_set(const QpProblem& problem, const std::vector<int>& warm_start, SolveState& s);
  // x and the multipliers of the working set from the KKT system (refined once when s.refine
  // and rows are masked); false (status non_finite) when they are not finite
  bool solve_working_set(const QpProblem& problem, SolveState& s);
  // g_W - G_W v, g_W = (equality_values, b_W); zero on the decoupled rows
  void working_rhs(const QpProblem& problem, const Eigen::VectorXd& equality_values, const Eigen::VectorXd& v,
                   Eigen::VectorXd& on_base, Eigen::VectorXd& on_appended) const;
  // s.x = M^-1 (f + G_W^T zeta)
  void primal(const QpProblem& problem, SolveState& s) const;
  // the working inequalities whose multiplier is negative (Remark 3.5.4)
  std::vector<int> negative_multipliers(const SolveState& s) const;
  // drops `leaving` from the working set: bordered rows leave the dense blocks, base rows are
  // masked (or the base is refactored); false when that refactorization fails
  bool drop_rows(const QpProblem& problem, const std::vector<int>& leaving, std::vector<char>& working);
  // the working inequalities go into a fresh base factorization; should it fail, into the
  // bordered rows one at a time; false when not even the equalities factorize
  bool refactor(const QpProblem& problem, std::vector<char>& working);
  // the most violated inequality outside the working set (Remark 3.5.1), -1 when none is;
  // sets s.slack
  int most_violated(const QpProblem& problem, SolveState& s) const;
  // every inequality the iterate violates enters at once (when more than one does)
  CrashStart crash_start(const QpProblem& problem, SolveState& s);
  // converged, or singular when the equality residual gives dependent equality rows away
  QpStatus final_status(const QpProblem& problem, const SolveState& s) const;
  // brings `entering` into the working set by dual steps; false (status set) when it cannot
  bool bring_in(const QpProblem& problem, int entering, SolveState& s);
  // one dual step: the direction, the blocking row, the step, then the entering row is added
  // (entered) or the blocking row dropped (exchanged: step again)
  DualStep dual_step(const QpProblem& problem, int entering, SolveState& s);
  void dual_direction(const QpProblem& problem, int entering, SolveState& s, DualDirection& d);
  // the ratio test: the working inequality whose multiplier reaches zero first along the step,
  // and the step length `partial` at which it does; -1 (partial infinite) when none does
  int blocking_row(int entering, const DualDirection& d, const Eigen::VectorXd& z, double& partial) const;
  // x += step M^-1 (a^T - G_W^T alpha), working multipliers -= step alpha, entering's += step
  void take_step(const QpProblem& problem, int entering, const DualDirection& d, double step, SolveState& s) const;

  void stack_rows(const QpProblem& problem);
  void make_plan();
  bool factor_base(const QpProblem& problem, const std::vector<int>& base);
  void solve_kkt(const Eigen::VectorXd& rhs_base, const Eigen::VectorXd& rhs_appended,
                 Eigen::VectorXd& zeta_base, Eigen::VectorXd& zeta_appended) const;
  void row_products(const QpProblem& problem, int k, Eigen::VectorXd& base_part, Eigen::VectorXd& appended_part);
  bool append(const QpProblem& problem, int k);
  // for a row with l = L^-1 u_B and products u_appended with the appended rows: its masked
  // coordinates k and t, its row of the Schur factor (eq. 3.12)
  void bordered_row(const Eigen::VectorXd& l, const Eigen::VectorXd& u_appended, Eigen::VectorXd& k_masked,
                    Eigen::VectorXd& t) const;
  bool mask(int k);
  // k = N^-1 M_R^T l
  void mask_coordinates(const Eigen::VectorXd& l, Eigen::VectorXd& k) const;
  // y -= M_R G^-1 M_R^T y, G = N N^T: y = L^-1 r becomes L^T P r
  void project_out_masked(Eigen::VectorXd& y) const;
  void push_appended(int k, const Eigen::VectorXd& l, const Eigen::VectorXd& k_masked, const Eigen::VectorXd& t,
                     double pivot2);

  Eigen::VectorXd inverse_mass_;
  Eigen::VectorXd row_norm_;           // |a_k|_W per inequality
  std::vector<int> base_;              // working inequalities inside the sparse factor
  std::vector<int> appended_;          // working inequalities appended as bordered rows
  std::vector<char> in_base_;          // per inequality: inside the sparse factor (working or masked)
  std::vector<int> masked_;            // base rows released without refactorization
  std::vector<char> is_masked_;        // per inequality: masked
  // The sparse factor holds the equalities and the planned inequalities S, a superset of the
  // base (the rest decoupled): the base, or an earlier base that holds it (factor_base).
  std::vector<int> planned_;           // S, ascending
  std::vector<int> slot_;              // per inequality: its row in [E; A_S], or -1
  bool stacked_ = false;               // base_rows_ hold this problem's [E; A_S]
  SparseRows base_rows_;               // [E; A_S]
  SparseRows base_rows_weighted_;      // [E; A_S] M^-1
  // The plan of the base system for one pattern of [E; A] (pattern_outer_, pattern_inner_):
  // the lower triangle of [E; A] M^-1 [E; A]^T plus the diagonal (base_system_'s pattern,
  // analyzed once per plan), and for each of its stored entries (r, c), r >= c, the
  // positions in [E; A] of the products (r, k) and (c, k) over the shared variables k in
  // increasing order (terms_ from term_start_). Also the rows of [E; A] by variable.
  std::vector<int> pattern_outer_, pattern_inner_;
  std::vector<int> term_start_;
  std::vector<std::pair<int, int>> terms_;
  std::vector<int> variable_start_, variable_rows_;
  bool has_plan_ = false;
  // The plan's columns c of the equality rows restricted to equality rows r (c itself and the
  // rows r > c, with their terms), kept while the equalities' pattern is the same: a new
  // plan (new inequality rows) then only adds the inequality rows' entries.
  struct EqualityPlan {
    std::vector<int> outer, inner;  // the pattern of E
    std::vector<int> column_start, rows, term_start;
    std::vector<std::pair<int, int>> terms;
  };
  EqualityPlan equality_plan_;
  void plan_equality_columns(int me);
  // appends to `rows` the rows r in [first, end) of [E; A_S] that share a variable with row c
  // and are not marked c (marking them)
  void rows_sharing_variables(int c, int first, int end, std::vector<int>& mark, std::vector<int>& rows) const;
  Eigen::SparseMatrix<double> base_system_;  // lower triangle of the base system
  SupernodalCholesky base_factor_;
  // base_factor_ holds the factor of the system assembled from the remembered inputs below:
  // [E; A_S] and [E; A_S] M^-1 values, which rows were inside the base, the shift
  bool factor_kept_ = false;
  void remember_inputs(double shift);
  // The bordered rows of the last appended warm start, kept while the base factor keeps its
  // inputs (base_generation_): a warm start of the same rows, equal value for value with the
  // same masses, appended to that factor gives these same rows again
  // (a chord iteration's QPs, a resting cloth).
  struct StartBlock {
    long generation = -1;
    std::vector<int> start;
    std::vector<double> signature;  // start_signature() of the rows
    std::vector<int> appended;
    Eigen::MatrixXd bordered, schur;
    std::vector<std::vector<std::pair<int, int>>> bordered_ranges;
  };
  void start_signature(const QpProblem& problem, const std::vector<int>& start,
                       std::vector<double>& signature) const;
  void keep_start(const QpProblem& problem, const std::vector<int>& start);
  bool restore_start(const QpProblem& problem, const std::vector<int>& start, std::vector<char>& working);
  long base_generation_ = 0;
  StartBlock kept_start_;
  std::vector<double> signature_;
  std::vector<double> factored_values_, factored_weighted_;
  std::vector<char> factored_inside_, factored_inside_now_;
  double factored_shift_ = 0;
  Eigen::VectorXd weighted_;           // work vector of row_products, zero between calls
  std::vector<int> touched_;           // rows of [E; A] met by row_products
  std::vector<char> touched_mark_;
  Eigen::MatrixXd bordered_;           // base size by #appended: the l vectors of eq. 3.12
  Eigen::MatrixXd schur_factor_;       // lower Cholesky factor of the Schur complement
  Eigen::MatrixXd mask_columns_;       // base size by #masked: m_r = L^-1 e_r
  // per column of bordered_ and of mask_columns_: the row ranges [begin, end) outside which
  // it is zero (a forward solve of a sparse right-hand side only fills the supernodes the
  // right-hand side reaches); their products skip the rest, which only adds zeros
  std::vector<std::vector<std::pair<int, int>>> bordered_ranges_, mask_ranges_;
  Eigen::MatrixXd mask_factor_;        // #masked square: N, N N^T = M_R^T M_R
  Eigen::MatrixXd bordered_masked_;    // #masked by #appended: k of each appended row
};

}  // namespace tela
