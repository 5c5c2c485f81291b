// The engine runs behind one full-attention scenario (file v2), shared by the app's AttentionModel
// and `blockwise-cli attention`: the scenario's order (reference, FlashAttention-2 or -1), the
// reference it is checked against, the other orders for the counter comparison, the backward passes
// and the closed-form counter formulas. One place decides which runs exist and with which tolerance.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "data/attention_scenario.h"
#include "engine/attention.h"
#include "engine/attention_formulas.h"
#include "engine/compare.h"

namespace bw::view {

// P is shown as a heatmap up to this many elements (4096² scores) …
inline constexpr long long kMaxHeatmapElements = 4096LL * 4096;
// … from a copy at most this many cells a side: P averaged over 2^k × 2^k cells, the smallest k
// that fits (the panel is a few hundred pixels wide; the full 4096² floats were 64 MiB to keep and
// 0.75 s to upload with their mip chain). Up to 1024 a side the copy is P itself.
inline constexpr int kHeatmapMaxSide = 512;

// P reduced for the heatmap, built from P's rows as the reference forms them (RunOptions::
// probability_rows), so all of P is never held. Cell (a, b) of the copy is the mean of P's rows
// [a·rows/R, (a+1)·rows/R) and columns [b·cols/C, (b+1)·cols/C) (R = max(1, rows / 2^k), the same
// for C), summed in double; a NaN or ±∞ in its cells makes it NaN or ±∞, as a mip level does.
struct ReducedHeatmap {
  int rows = 0, cols = 0;             // P's size
  int value_rows = 0, value_cols = 0;  // the copy's size
  std::vector<float> values;          // value_rows × value_cols, row-major
  bool finite = true;                 // P holds no NaN or ±∞
};
class HeatmapReducer {
 public:
  HeatmapReducer(std::int64_t rows, std::int64_t cols, int max_side = kHeatmapMaxSide);
  void AddRows(std::int64_t first_row, const float* p, std::int64_t count);   // in row order
  ReducedHeatmap Finish();

 private:
  void FlushCell();
  ReducedHeatmap out_;
  std::vector<double> sum_;          // the copy's row being summed
  std::vector<int> col_cell_;        // P's column → the copy's column
  std::vector<std::int64_t> row_end_;  // the copy's row a → P's rows end there
  int row_cell_ = 0;
};
// The five wrong merges are run beside the right one up to this many score elements.
inline constexpr long long kMaxWrongMergeElements = 256LL * 256;

struct AttentionRunChoice {
  bool record_trace = true;   // trace the scenario's order (and the backward passes)
  bool side_runs = true;      // FA-2 and FA-1 untraced beside it, the wrong merges, P for the heatmap
  int workers = 0;            // FA-2 runs: engine::RunOptions::workers (0 = every hardware thread; same results)
};

struct AttentionRuns {
  engine::AttentionResult run;         // the scenario's order, traced when asked
  engine::AttentionResult reference;   // Algorithm 0 in the scenario's precision (counters; P when small)
  bool reference_P_finite = true;      // the reference's P holds no NaN or ±∞ (checked once, at load)
  ReducedHeatmap heatmap;              // the reference's P for the heatmap (side runs, up to kMaxHeatmapElements)
  std::optional<engine::AttentionResult> flash2, flash1;   // untraced, when tiles are known (side runs)
  // "backward": true. The materialising backward (FlashAttention Algorithm 3) and FA-2 Algorithm 2
  // (recompute P per tile, when tiles are known); without side runs only the one the scenario's
  // order stands for. Traced when the choice says so.
  std::optional<engine::BackwardResult> bwd_recompute, bwd_reference;
  std::optional<engine::CounterFormula> formula, bwd_recompute_formula, bwd_reference_formula;
  // run.O against the reference computed in double: |a − b| ≤ tol·(1 + |b|), tol = Tolerance().
  engine::CompareReport check;
  double tolerance = 1e-12;
  // The wrong merges as the engine runs them (FA-2 order), for small problems: each variant's O and
  // its own numerics report (a wrong merge can overflow where the right one does not: the inverted
  // factor e^(m'−m) grows with every new max; the panel names the first event beside its NaN or ∞).
  struct WrongMerge {
    engine::MergeVariant variant;
    engine::AttentionMatrix O;
    engine::NumericsReport numerics;
  };
  std::vector<WrongMerge> wrong;
  std::int64_t t_r = 1, t_c = 1;       // tile counts (1 × 1 for the reference)

  bool Tiled() const { return run.algorithm != engine::Algorithm::kReference; }
  // The backward the scenario's order stands for: the materialising one for the reference order,
  // Algorithm 2 for the tiled orders; nullptr without "backward".
  const engine::BackwardResult* Backward() const;
  const std::optional<engine::CounterFormula>& BackwardFormula() const;
};

// The SRAM account of a scenario whose tiles came from its SRAM size M ("sram_elements"), in elements:
// what FlashAttention Algorithm 1, line 1 budgets against M (the blocks Q_i, K_j, V_j, O_i: B_c = ⌈M/4d⌉
// and B_r ≤ that give each about M/4; given logits, V_j and O_i) and what the engine counts on chip at
// its peak (those blocks with the S_ij tile and m, l beside them, which the rule leaves out: the
// paper's bound is O(M)). Only `blocks` above M breaks the rule; the peak above M is the rule's own
// tile choice (N23/c2: 24 of M = 32 in the blocks, 36 at the peak).
struct SramBudget {
  std::int64_t M = 0;
  std::int64_t blocks = 0;   // Q_i, K_j, V_j, O_i at the largest tile, elements
  std::int64_t peak = 0;     // the engine's SRAM peak, elements
  bool BlocksOverM() const { return blocks > M; }
};
// nullopt unless the tiles were derived from M and the run is tiled.
std::optional<SramBudget> SramBudgetOf(const data::AttentionScenario& sc, const engine::AttentionResult& run);

// Throws engine::ValidationError as the engine does.
AttentionRuns RunAttentionScenario(const data::AttentionScenario& sc, const AttentionRunChoice& choice);

// RunAttentionScenario in two parts, for a caller that shows the scenario's own run first and the
// comparison when it is ready (the app runs the second part in the background for large problems):
// RunAttentionOwn fills run, t_r, t_c, formula and tolerance; RunAttentionComparison (which only
// reads `sc` and `own.run`) fills reference, reference_P_finite, heatmap, flash2, flash1, wrong and
// check into a fresh AttentionRuns; MergeComparison moves those fields into `own`. Without
// "backward", RunAttentionOwn + MergeComparison(RunAttentionComparison) equals RunAttentionScenario.
AttentionRuns RunAttentionOwn(const data::AttentionScenario& sc, const AttentionRunChoice& choice);
AttentionRuns RunAttentionComparison(const data::AttentionScenario& sc, const AttentionRunChoice& choice,
                                     const engine::AttentionResult& own_run, double tolerance);
void MergeComparison(AttentionRuns& own, AttentionRuns&& comparison);

}  // namespace bw::view
