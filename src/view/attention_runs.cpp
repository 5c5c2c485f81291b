// See attention_runs.h.
#include "view/attention_runs.h"

#include <algorithm>
#include <cmath>

namespace bw::view {

const engine::BackwardResult* AttentionRuns::Backward() const {
  if (run.algorithm == engine::Algorithm::kReference) return bwd_reference ? &*bwd_reference : nullptr;
  return bwd_recompute ? &*bwd_recompute : nullptr;
}

const std::optional<engine::CounterFormula>& AttentionRuns::BackwardFormula() const {
  return run.algorithm == engine::Algorithm::kReference ? bwd_reference_formula : bwd_recompute_formula;
}

HeatmapReducer::HeatmapReducer(std::int64_t rows, std::int64_t cols, int max_side) {
  out_.rows = static_cast<int>(rows);
  out_.cols = static_cast<int>(cols);
  if (rows <= 0 || cols <= 0) return;
  int k = 0;
  while ((std::max(rows, cols) >> k) > max_side) ++k;
  out_.value_rows = static_cast<int>(std::max<std::int64_t>(1, rows >> k));
  out_.value_cols = static_cast<int>(std::max<std::int64_t>(1, cols >> k));
  out_.values.reserve(static_cast<size_t>(out_.value_rows) * static_cast<size_t>(out_.value_cols));
  sum_.assign(static_cast<size_t>(out_.value_cols), 0.0);
  col_cell_.resize(static_cast<size_t>(cols));
  for (int b = 0; b < out_.value_cols; ++b)
    for (std::int64_t c = b * cols / out_.value_cols; c < (b + 1) * cols / out_.value_cols; ++c) col_cell_[static_cast<size_t>(c)] = b;
  for (int a = 0; a < out_.value_rows; ++a) row_end_.push_back((a + 1) * rows / out_.value_rows);
}

void HeatmapReducer::FlushCell() {
  const std::int64_t r0 = static_cast<std::int64_t>(row_cell_) * out_.rows / out_.value_rows;
  const std::int64_t n_rows = row_end_[static_cast<size_t>(row_cell_)] - r0;
  for (int b = 0; b < out_.value_cols; ++b) {
    const std::int64_t c0 = static_cast<std::int64_t>(b) * out_.cols / out_.value_cols;
    const std::int64_t c1 = static_cast<std::int64_t>(b + 1) * out_.cols / out_.value_cols;
    out_.values.push_back(static_cast<float>(sum_[static_cast<size_t>(b)] / static_cast<double>(n_rows * (c1 - c0))));
  }
  std::fill(sum_.begin(), sum_.end(), 0.0);
  ++row_cell_;
}

void HeatmapReducer::AddRows(std::int64_t first_row, const float* p, std::int64_t count) {
  for (std::int64_t a = 0; a < count; ++a) {
    const std::int64_t r = first_row + a;
    while (row_cell_ < out_.value_rows && r >= row_end_[static_cast<size_t>(row_cell_)]) FlushCell();
    const float* row = p + a * out_.cols;
    for (std::int64_t c = 0; c < out_.cols; ++c) {
      if (!std::isfinite(row[c])) out_.finite = false;
      sum_[static_cast<size_t>(col_cell_[static_cast<size_t>(c)])] += row[c];
    }
  }
}

ReducedHeatmap HeatmapReducer::Finish() {
  while (row_cell_ < out_.value_rows) FlushCell();
  return std::move(out_);
}

AttentionRuns RunAttentionOwn(const data::AttentionScenario& sc, const AttentionRunChoice& choice) {
  AttentionRuns r;
  const auto& p = sc.problem;
  engine::RunOptions opt = sc.options;
  opt.record_trace = choice.record_trace;
  opt.workers = choice.workers;
  switch (sc.order) {
    case engine::Algorithm::kFlash1: r.run = engine::RunFlash1(p, opt); break;
    case engine::Algorithm::kFlash2: r.run = engine::RunFlash2(p, opt); break;
    default: r.run = engine::RunReference(p, opt); break;
  }
  if (sc.options.tiles.B_r > 0 && sc.options.tiles.B_c > 0) {
    r.t_r = std::max<std::int64_t>(1, engine::CeilDiv(p.n_q(), sc.options.tiles.B_r));
    r.t_c = std::max<std::int64_t>(1, engine::CeilDiv(p.n_k(), sc.options.tiles.B_c));
  }
  r.formula = engine::FormulaFor(r.run.algorithm, engine::AttentionShape::Of(p), r.run.tiles, p.mask, r.run.precision);
  // The property test's tolerances: |a − b| ≤ tol·(1 + |b|), tol = 1e-12 (double) or 1e-5 (float),
  // always against the reference in double.
  r.tolerance = r.run.precision == engine::Precision::kFloat ? 1e-5 : 1e-12;
  return r;
}

namespace {

engine::RunOptions PlainOptions(const data::AttentionScenario& sc, const AttentionRunChoice& choice) {
  engine::RunOptions plain = sc.options;
  plain.record_trace = false;
  plain.workers = choice.workers;
  plain.merge = engine::MergeVariant::kCorrect;
  return plain;
}

}  // namespace

AttentionRuns RunAttentionComparison(const data::AttentionScenario& sc, const AttentionRunChoice& choice,
                                     const engine::AttentionResult& own_run, double tolerance) {
  AttentionRuns r;
  const auto& p = sc.problem;
  const engine::RunOptions plain = PlainOptions(sc, choice);
  engine::RunOptions ref_opt = plain;
  std::optional<HeatmapReducer> heat;
  if (choice.side_runs && p.n_q() * p.n_k() <= kMaxHeatmapElements) {
    heat.emplace(p.n_q(), p.n_k());
    ref_opt.probability_rows = [&heat](std::int64_t first, const float* rows, std::int64_t count) { heat->AddRows(first, rows, count); };
  }
  r.reference = engine::RunReference(p, ref_opt);
  if (heat) {
    r.heatmap = heat->Finish();
    r.reference_P_finite = r.heatmap.finite;   // once per load: a 4096² scan per frame cost 200 ms
  }
  if (plain.tiles.B_r > 0 && plain.tiles.B_c > 0 && choice.side_runs) {
    r.flash2 = engine::RunFlash2(p, plain);
    r.flash1 = engine::RunFlash1(p, plain);
  }
  if (r.flash2 && p.n_q() * p.n_k() <= kMaxWrongMergeElements)
    for (engine::MergeVariant v : engine::kAllMergeVariants) {
      if (v == engine::MergeVariant::kCorrect) continue;
      engine::RunOptions wo = plain;
      wo.merge = v;
      engine::AttentionResult w = engine::RunFlash2(p, wo);
      r.wrong.push_back({v, std::move(w.O), std::move(w.numerics)});
    }
  if (r.reference.precision == engine::Precision::kDouble) {
    r.check = engine::Compare(own_run.O, r.reference.O, tolerance, tolerance);
  } else {
    engine::RunOptions d = plain;
    d.precision = engine::Precision::kDouble;
    r.check = engine::Compare(own_run.O, engine::RunReference(p, d).O, tolerance, tolerance);
  }
  return r;
}

void MergeComparison(AttentionRuns& own, AttentionRuns&& c) {
  own.reference = std::move(c.reference);
  own.reference_P_finite = c.reference_P_finite;
  own.heatmap = std::move(c.heatmap);
  own.flash2 = std::move(c.flash2);
  own.flash1 = std::move(c.flash1);
  own.wrong = std::move(c.wrong);
  own.check = std::move(c.check);
}

std::optional<SramBudget> SramBudgetOf(const data::AttentionScenario& sc, const engine::AttentionResult& run) {
  if (!sc.derivation || run.algorithm == engine::Algorithm::kReference || run.counters.element_bytes <= 0) return std::nullopt;
  const engine::AttentionProblem& p = sc.problem;
  const std::int64_t rows = std::min(run.tiles.B_r, p.n_q()), cols = std::min(run.tiles.B_c, p.n_k());
  const std::int64_t dq = p.logits_given ? 0 : p.d();   // given logits: no Q_i, no K_j
  SramBudget b;
  b.M = sc.derivation->M;
  b.blocks = rows * (dq + p.d_v()) + cols * (dq + p.d_v());
  b.peak = run.counters.sram_peak_bytes / run.counters.element_bytes;
  return b;
}

AttentionRuns RunAttentionScenario(const data::AttentionScenario& sc, const AttentionRunChoice& choice) {
  AttentionRuns r = RunAttentionOwn(sc, choice);
  MergeComparison(r, RunAttentionComparison(sc, choice, r.run, r.tolerance));
  const auto& p = sc.problem;
  const engine::RunOptions plain = PlainOptions(sc, choice);
  const bool tiles_known = plain.tiles.B_r > 0 && plain.tiles.B_c > 0;
  const auto shape = engine::AttentionShape::Of(p);
  if (sc.backward) {
    engine::RunOptions bo = plain;
    bo.record_trace = choice.record_trace;
    const bool reference_order = sc.order == engine::Algorithm::kReference;
    if (choice.side_runs || reference_order) {
      r.bwd_reference = engine::RunBackwardReference(p, sc.dO, bo);
      r.bwd_reference_formula =
          engine::FormulaFor(engine::Algorithm::kBackwardReference, shape, bo.tiles, p.mask, bo.precision);
    }
    if (tiles_known && (choice.side_runs || !reference_order)) {
      // Algorithm 2 needs the forward's O and L: the FA-2 run (the scenario's own when it is one).
      const engine::AttentionResult* fwd = r.flash2 ? &*r.flash2 : nullptr;
      engine::AttentionResult own;
      if (!fwd && sc.order == engine::Algorithm::kFlash2 && r.run.merge == engine::MergeVariant::kCorrect) fwd = &r.run;
      if (!fwd) {
        own = engine::RunFlash2(p, plain);
        fwd = &own;
      }
      r.bwd_recompute = engine::RunBackwardRecompute(p, *fwd, sc.dO, bo);
      r.bwd_recompute_formula =
          engine::FormulaFor(engine::Algorithm::kBackwardRecompute, shape, bo.tiles, p.mask, bo.precision);
    }
  }
  return r;
}

}  // namespace bw::view
