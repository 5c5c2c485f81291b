// See attention_runs.h.
#include "view/attention_runs.h"

#include <algorithm>

namespace bw::view {

const engine::BackwardResult* AttentionRuns::Backward() const {
  if (run.algorithm == engine::Algorithm::kReference) return bwd_reference ? &*bwd_reference : nullptr;
  return bwd_recompute ? &*bwd_recompute : nullptr;
}

const std::optional<engine::CounterFormula>& AttentionRuns::BackwardFormula() const {
  return run.algorithm == engine::Algorithm::kReference ? bwd_reference_formula : bwd_recompute_formula;
}

AttentionRuns RunAttentionScenario(const data::AttentionScenario& sc, const AttentionRunChoice& choice) {
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
  engine::RunOptions plain = sc.options;
  plain.record_trace = false;
  plain.workers = choice.workers;
  plain.merge = engine::MergeVariant::kCorrect;
  engine::RunOptions ref_opt = plain;
  ref_opt.keep_probabilities = choice.side_runs && p.n_q() * p.n_k() <= kMaxHeatmapElements;
  r.reference = engine::RunReference(p, ref_opt);
  r.reference_P_finite = r.reference.P.allFinite();  // once per load: a 4096² scan per frame cost 200 ms
  const bool tiles_known = plain.tiles.B_r > 0 && plain.tiles.B_c > 0;
  if (tiles_known) {
    r.t_r = std::max<std::int64_t>(1, engine::CeilDiv(p.n_q(), plain.tiles.B_r));
    r.t_c = std::max<std::int64_t>(1, engine::CeilDiv(p.n_k(), plain.tiles.B_c));
    if (choice.side_runs) {
      r.flash2 = engine::RunFlash2(p, plain);
      r.flash1 = engine::RunFlash1(p, plain);
    }
  }
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
  if (r.flash2 && p.n_q() * p.n_k() <= kMaxWrongMergeElements)
    for (engine::MergeVariant v : engine::kAllMergeVariants) {
      if (v == engine::MergeVariant::kCorrect) continue;
      engine::RunOptions wo = plain;
      wo.merge = v;
      r.wrong.emplace_back(v, engine::RunFlash2(p, wo).O);
    }
  r.formula = engine::FormulaFor(r.run.algorithm, shape, r.run.tiles, p.mask, r.run.precision);
  // The property test's tolerances: |a − b| ≤ tol·(1 + |b|), tol = 1e-12 (double) or 1e-5 (float),
  // always against the reference in double.
  r.tolerance = r.run.precision == engine::Precision::kFloat ? 1e-5 : 1e-12;
  if (r.reference.precision == engine::Precision::kDouble) {
    r.check = engine::Compare(r.run.O, r.reference.O, r.tolerance, r.tolerance);
  } else {
    engine::RunOptions d = plain;
    d.precision = engine::Precision::kDouble;
    r.check = engine::Compare(r.run.O, engine::RunReference(p, d).O, r.tolerance, r.tolerance);
  }
  return r;
}

}  // namespace bw::view
