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

// P is kept for the heatmap up to this many elements (4096² floats = 64 MiB).
inline constexpr long long kMaxHeatmapElements = 4096LL * 4096;
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
  bool reference_P_finite = true;      // reference.P holds no NaN or ±∞ (checked once, at load)
  std::optional<engine::AttentionResult> flash2, flash1;   // untraced, when tiles are known (side runs)
  // "backward": true. The materialising backward (FlashAttention Algorithm 3) and FA-2 Algorithm 2
  // (recompute P per tile, when tiles are known); without side runs only the one the scenario's
  // order stands for. Traced when the choice says so.
  std::optional<engine::BackwardResult> bwd_recompute, bwd_reference;
  std::optional<engine::CounterFormula> formula, bwd_recompute_formula, bwd_reference_formula;
  // run.O against the reference computed in double: |a − b| ≤ tol·(1 + |b|), tol = Tolerance().
  engine::CompareReport check;
  double tolerance = 1e-12;
  // The wrong merges as the engine runs them (FA-2 order), for small problems: variant → O.
  std::vector<std::pair<engine::MergeVariant, engine::AttentionMatrix>> wrong;
  std::int64_t t_r = 1, t_c = 1;       // tile counts (1 × 1 for the reference)

  bool Tiled() const { return run.algorithm != engine::Algorithm::kReference; }
  // The backward the scenario's order stands for: the materialising one for the reference order,
  // Algorithm 2 for the tiled orders; nullptr without "backward".
  const engine::BackwardResult* Backward() const;
  const std::optional<engine::CounterFormula>& BackwardFormula() const;
};

// Throws engine::ValidationError as the engine does.
AttentionRuns RunAttentionScenario(const data::AttentionScenario& sc, const AttentionRunChoice& choice);

}  // namespace bw::view
