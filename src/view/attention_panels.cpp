// AttentionModel's placeholders, side panels and heatmap.
#include <algorithm>

#include "view/attention_model.h"
#include "view/format.h"
#include "view/math_text.h"
#include "view/numerics_panel.h"

namespace bw::view {

using engine::EventKind;
using engine::Tensor;

Quantities AttentionModel::QuantitiesAt(int e) const {
  Quantities q;
  // Before the comparison is there (computed in the background) its quantities are left out.
  const bool cmp = Compared();
  const auto& p = scenario_.problem;
  q["N_q"] = FormatInt(p.n_q());
  q["N_k"] = FormatInt(p.n_k());
  q["d"] = FormatInt(p.d());
  q["d_v"] = FormatInt(p.d_v());
  q["scale"] = FormatDouble(p.EffectiveScale());
  q["B_r"] = FormatInt(runs_.run.tiles.B_r);
  q["B_c"] = FormatInt(runs_.run.tiles.B_c);
  q["T_r"] = FormatInt(runs_.t_r);
  q["T_c"] = FormatInt(runs_.t_c);
  q["order"] = engine::ToString(runs_.run.algorithm);  // ids for the CLI and lesson placeholders
  q["mask"] = engine::ToString(p.mask.kind);
  q["event"] = EventLabel(e);
  const int fe = FwdEvent(e);   // backward events show the forward as it ended
  const engine::Counters c = runs_.run.trace.empty() ? runs_.run.counters : runs_.run.trace.CountersAt(static_cast<size_t>(fe));
  const engine::Counters& fin = runs_.run.counters;
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const std::string name = engine::ToString(static_cast<Tensor>(t));
    q["reads:" + name] = FormatInt(c.hbm_read_elements[t]);
    q["writes:" + name] = FormatInt(c.hbm_write_elements[t]);
    q["total_reads:" + name] = FormatInt(fin.hbm_read_elements[t]);
    q["total_writes:" + name] = FormatInt(fin.hbm_write_elements[t]);
  }
  q["hbm_elements"] = FormatInt(c.TotalHbmElements());
  q["hbm_bytes"] = FormatBytes(c.TotalHbmBytes());
  q["total_hbm_elements"] = FormatInt(fin.TotalHbmElements());
  if (cmp) q["reference_hbm_elements"] = FormatInt(runs_.reference.counters.TotalHbmElements());
  if (runs_.flash2) q["flash2_hbm_elements"] = FormatInt(runs_.flash2->counters.TotalHbmElements());
  if (runs_.flash1) q["flash1_hbm_elements"] = FormatInt(runs_.flash1->counters.TotalHbmElements());
  if (runs_.flash2 && runs_.flash2->counters.TotalHbmElements() > 0)
    q["reference_over_flash2"] = FormatDouble(static_cast<double>(runs_.reference.counters.TotalHbmElements()) /
                                              static_cast<double>(runs_.flash2->counters.TotalHbmElements()));
  if (scenario_.derivation) {
    q["M"] = FormatInt(scenario_.derivation->M);
    const std::int64_t m_bytes = scenario_.derivation->M * fin.element_bytes;
    q["M_bytes"] = FormatInt(m_bytes);
    if (fin.sram_peak_bytes > m_bytes) q["sram_over_M_bytes"] = FormatInt(fin.sram_peak_bytes - m_bytes);
    if (const auto budget = SramBudgetOf(scenario_, runs_.run)) {   // the diagram's two SRAM lines
      q["sram_blocks_elements"] = FormatInt(budget->blocks);
      q["sram_peak_elements"] = FormatInt(budget->peak);
    }
  }
  q["sram_peak_bytes"] = FormatBytes(fin.sram_peak_bytes);
  q["scratch_bytes"] = FormatBytes(fin.hbm_scratch_bytes);
  if (cmp) q["reference_scratch_bytes"] = FormatBytes(runs_.reference.counters.hbm_scratch_bytes);
  q["flops"] = FormatInt(c.matmul_flops);
  q["exps"] = FormatInt(c.exp_count);
  q["tiles_computed"] = FormatInt(c.tiles_computed);
  q["tiles_skipped"] = FormatInt(c.tiles_skipped);
  q["total_tiles_computed"] = FormatInt(fin.tiles_computed);
  q["total_tiles_skipped"] = FormatInt(fin.tiles_skipped);
  if (cmp) q["max_abs_error"] = FormatDouble(runs_.check.max_abs_error);
  std::int64_t flagged = 0;
  for (auto f : runs_.run.row_fully_masked) flagged += f;
  q["flagged_rows"] = FormatInt(flagged);
  if (runs_.formula) q["formula_hbm_elements"] = FormatInt(runs_.formula->counters.TotalHbmElements());
  for (Eigen::Index r = 0; r < std::min<Eigen::Index>(runs_.run.O.rows(), 8); ++r)
    for (Eigen::Index k = 0; k < std::min<Eigen::Index>(runs_.run.O.cols(), 8); ++k)
      q["O[" + std::to_string(r + 1) + "," + std::to_string(k + 1) + "]"] = FormatDouble(runs_.run.O(r, k));
  // Backward (scenarios with "backward": true): recomputation vs the materialising backward.
  if (runs_.bwd_recompute && runs_.bwd_reference) {
    for (const auto& [prefix, b] : {std::pair<const char*, const engine::BackwardResult*>{"bwd_recompute", &*runs_.bwd_recompute},
                                    std::pair<const char*, const engine::BackwardResult*>{"bwd_reference", &*runs_.bwd_reference}}) {
      const std::string pre = prefix;
      q[pre + "_hbm_elements"] = FormatInt(b->counters.TotalHbmElements());
      q[pre + "_scratch_bytes"] = FormatBytes(b->counters.hbm_scratch_bytes);
      q[pre + "_flops"] = FormatInt(b->counters.matmul_flops);
      q[pre + "_exps"] = FormatInt(b->counters.exp_count);
      for (int t = 0; t < engine::kTensorCount; ++t) {
        const std::string name = engine::ToString(static_cast<Tensor>(t));
        q[pre + "_reads:" + name] = FormatInt(b->counters.hbm_read_elements[t]);
        q[pre + "_writes:" + name] = FormatInt(b->counters.hbm_write_elements[t]);
      }
    }
    // maxCoeff() of an empty matrix is undefined (it crashed on "Q": [] with "backward": true).
    const auto max_abs_diff = [](const engine::AttentionMatrix& a, const engine::AttentionMatrix& b) {
      return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
    };
    const double dq = max_abs_diff(runs_.bwd_recompute->dQ, runs_.bwd_reference->dQ);
    const double dk = max_abs_diff(runs_.bwd_recompute->dK, runs_.bwd_reference->dK);
    const double dv = max_abs_diff(runs_.bwd_recompute->dV, runs_.bwd_reference->dV);
    q["bwd_max_abs_diff"] = FormatDouble(std::max({dq, dk, dv}));
    q["forward_flops"] = FormatInt(runs_.run.counters.matmul_flops);
  }
  if (BwdTrace()) AddBackwardQuantities(q, IsBackward(e) ? e - FwdCount() : -1);
  return q;
}

namespace {

// The output against the reference's. The output exists once the trace has written it: before, the
// comparison is a future value.
PanelRow CheckRow(bool output_written, bool compared, const engine::CompareReport& check, const Quantities& q, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  if (!output_written) return {T(Str::check_vs_reference), T(Str::not_yet)};
  if (!compared) return {T(Str::check_vs_reference), T(Str::computing)};   // the reference is still being computed
  return {T(Str::check_vs_reference),
          check.ok() ? T(Str::match) + " (max |\u0394| " + q.at("max_abs_error") + ")" : check.Summary(), !check.ok()};
}

// "This run": the shape, the order and its tiles, the mask, the tile derivation, the event, the check.
PanelSection RunSection(const data::AttentionScenario& scenario, engine::Algorithm algorithm, bool tiled, const Quantities& q,
                        const std::string& event_line, const PanelRow& check_row, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  PanelSection run;
  run.id = "run";
  run.title = T(Str::panel_run);
  const auto& p = scenario.problem;
  // Given logits are encoded as Q = S, K = I (d = N_k): that d is not the problem's, so it is not shown.
  run.rows.push_back({T(Str::shape), "N_q " + q.at("N_q") + ", N_k " + q.at("N_k") +
                                      (p.logits_given ? ", " + T(Str::logits_given) : ", d " + q.at("d")) + ", d_v " + q.at("d_v")});
  run.rows.push_back({T(Str::order), AlgorithmName(algorithm, lang) + (tiled ? "  B_r " + q.at("B_r") + ", B_c " + q.at("B_c") + "  (T_r " +
                                                             q.at("T_r") + ", T_c " + q.at("T_c") + ")"
                                                       : "")});
  std::string mask = MaskName(p.mask.kind, lang);
  if (p.mask.kind == engine::MaskKind::kCausal) mask += " (" + AlignmentName(p.mask.alignment, lang) + ")";
  run.rows.push_back({T(Str::mask), mask});
  if (scenario.derivation)
    for (const auto& line : DerivationLines(*scenario.derivation, lang)) run.rows.push_back({T(Str::derivation), line});
  run.rows.push_back({T(Str::event), event_line});
  run.rows.push_back(check_row);
  if (q.at("flagged_rows") != "0") {   // all-masked rows, their output defined as 0 and flagged: named, not wrong
    PanelRow flagged{T(Str::flagged_rows), q.at("flagged_rows") + " " + T(Str::flagged_note)};
    flagged.notice = true;
    run.rows.push_back(flagged);
  }
  return run;
}

// The forward's accumulator of the current Q block: each row's m before and after, l, α and O.
PanelSection AccumulatorSection(const engine::BlockState& bs, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  PanelSection acc;
  acc.id = "accumulator";
  acc.title = T(Str::acc_rows) + " Q_" + std::to_string(bs.i + 1);
  acc.columns = {T(Str::row), "m (" + T(Str::before) + ")", "m", "l", "\u03b1 = e^(m\u2212m')", "O = u/l"};
  for (Eigen::Index r = 0; r < std::min<Eigen::Index>(bs.m.size(), 8); ++r) {
    // d_v = 0 (e.g. "K": [], "V": []): no row to take (Eigen's row() of a 0-column matrix is
    // pointer arithmetic on null, found by the fuzzer under UBSan).
    Eigen::VectorXd o = bs.O.cols() > 0 ? Eigen::VectorXd(bs.O.row(r).transpose()) : Eigen::VectorXd();
    if (o.size() > 3) o.conservativeResize(3);
    acc.rows.push_back({std::to_string(bs.row_begin + r + 1),
                        FormatDouble(bs.m_prev[r]) + "\t" + FormatDouble(bs.m[r]) + "\t" + FormatDouble(bs.l[r]) + "\t" +
                            FormatDouble(bs.alpha[r]) + "\t" + FormatVector(o) + (bs.O.cols() > 3 ? "\u2026" : "")});
  }
  return acc;
}

// The right merge beside the wrong ones, their O[1,1] and error. Whole-run results: shown once the
// trace has written its output (`done`: its last event), as answers.
PanelSection WrongMergesSection(const AttentionRuns& runs, bool done, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  PanelSection wrong;
  wrong.id = "wrong_merges";
  wrong.title = T(Str::wrong_merges);
  wrong.columns = {T(Str::merge_variant), "O[1,1]", T(Str::max_error)};
  const std::string not_yet = T(Str::not_yet);
  PanelRow right{MergeName(engine::MergeVariant::kCorrect, lang),
                 done ? FormatDouble(runs.reference.O(0, 0)) + "\t" + CompareCell(engine::Compare(runs.reference.O, runs.reference.O))
                      : not_yet + "\t" + not_yet};
  right.answer = true;
  wrong.rows.push_back(right);
  for (const auto& w : runs.wrong) {
    const auto rep = engine::Compare(w.O, runs.reference.O);
    std::string cell = CompareCell(rep);
    // This variant's own NaN or overflow (not the right run's, which the numerics panel names):
    // its first event, where it happened.
    const bool own_cause = done && rep.nan_actual + rep.nonfinite_mismatches > 0 && !w.numerics.empty();
    if (own_cause) {
      const auto& ev = w.numerics.events.front();
      cell += " \u2014 " + NumericsKindName(ev.kind, lang) + ": " + NumericsWhere(ev, lang, nullptr);
    }
    PanelRow row{MergeName(w.variant, lang), done ? FormatDouble(w.O(0, 0)) + "\t" + cell : not_yet + "\t" + not_yet, done};
    row.answer = true;
    row.cause_named = own_cause;
    wrong.rows.push_back(row);
  }
  return wrong;
}

// HBM reads and writes per tensor so far (`c`), beside the formula for the whole run.
PanelSection CountersSection(const AttentionRuns& runs, const engine::Counters& c, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  PanelSection counters;
  counters.id = "counters";
  counters.title = T(Str::panel_counters);
  counters.columns = {T(Str::tensor), T(Str::reads_now), T(Str::writes_now), T(Str::formula_total)};
  for (int t = 0; t < engine::kTensorCount; ++t) {
    const auto& fin = runs.run.counters;
    if (fin.hbm_read_elements[t] == 0 && fin.hbm_write_elements[t] == 0) continue;
    std::string formula = "\u2014";
    if (runs.formula) {
      const auto& f = *runs.formula;
      const std::string rf = f.read_expr[t].empty() ? "" : CountFormula(true, f.read_expr[t], f.counters.hbm_read_elements[t], lang);
      const std::string wf = f.write_expr[t].empty() ? "" : CountFormula(false, f.write_expr[t], f.counters.hbm_write_elements[t], lang);
      formula = rf + (rf.empty() || wf.empty() ? "" : "; ") + wf;
    }
    counters.rows.push_back({engine::ToString(static_cast<Tensor>(t)),
                             FormatInt(c.hbm_read_elements[t]) + "\t" + FormatInt(c.hbm_write_elements[t]) + "\t" + formula});
  }
  return counters;
}

// The materialising path against the tiled orders (HBM traffic with bars, parallel units), SRAM now
// and at its peak, FLOPs, exps and tiles so far. `sram_now`: the bytes on chip at the event (a
// traced tiled run; else none).
PanelSection CompareSection(const data::AttentionScenario& scenario, const AttentionRuns& runs, const Quantities& q, bool compared,
                            bool tiled, std::optional<std::int64_t> sram_now, const PanelRow& check_row, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& p = scenario.problem;
  PanelSection totals;
  totals.id = "compare";
  totals.title = T(Str::panel_compare);
  totals.rows.push_back({T(Str::hbm_now), q.at("hbm_elements") + " " + T(Str::elements) + " (" + q.at("hbm_bytes") + ")"});
  // Bars to the scale of the largest: the materialising path against the two tiled orders.
  const double ref_total = static_cast<double>(runs.reference.counters.TotalHbmElements());
  double biggest = ref_total;
  if (runs.flash1) biggest = std::max(biggest, static_cast<double>(runs.flash1->counters.TotalHbmElements()));
  const auto bar = [&](std::int64_t v) { return biggest > 0 ? static_cast<float>(static_cast<double>(v) / biggest) : 0.0f; };
  // Given logits, S is the input: the reference writes only P to HBM.
  const std::string ref_name =
      scenario.problem.logits_given ? T(Str::algo_reference_logits) : AlgorithmName(engine::Algorithm::kReference, lang);
  if (!compared) {   // the side runs are still being computed: said so, no number, no bar
    totals.rows.push_back({ref_name, T(Str::computing)});
    if (scenario.options.tiles.B_r > 0 && scenario.options.tiles.B_c > 0) {
      totals.rows.push_back({"FlashAttention-2", T(Str::computing)});
      totals.rows.push_back({"FlashAttention-1", T(Str::computing)});
    }
  } else
  totals.rows.push_back({ref_name,
                         q.at("reference_hbm_elements") + " " + T(Str::elements) + ", " + T(Str::scratch) + " " +
                                          q.at("reference_scratch_bytes"), false, bar(runs.reference.counters.TotalHbmElements())});
  if (runs.flash2)
    totals.rows.push_back({"FlashAttention-2", q.at("flash2_hbm_elements") + " " + T(Str::elements), false,
                           bar(runs.flash2->counters.TotalHbmElements())});
  if (runs.flash1)
    totals.rows.push_back({"FlashAttention-1", q.at("flash1_hbm_elements") + " " + T(Str::elements), false,
                           bar(runs.flash1->counters.TotalHbmElements())});
  if (q.count("reference_over_flash2")) totals.rows.push_back({T(Str::ratio), q.at("reference_over_flash2") + "\u00d7"});
  if (runs.flash2 && runs.flash1)  // FA-2 §3.2: the Q blocks are independent; FA-1's loop order is not
    totals.rows.push_back({T(Str::parallel_units),
                           FormatInt(engine::ParallelUnits(engine::Algorithm::kFlash2, p.n_q(), runs.flash2->tiles)) + " / " +
                               FormatInt(engine::ParallelUnits(engine::Algorithm::kFlash1, p.n_q(), runs.flash1->tiles)) +
                               "  " + T(Str::parallel_units_note)});
  // SRAM in use now against the peak, and against the capacity M when the tiles came from it.
  if (sram_now) {
    const std::int64_t now_bytes = *sram_now;
    const std::int64_t cap = scenario.derivation ? scenario.derivation->M * runs.run.counters.element_bytes
                                                 : runs.run.counters.sram_peak_bytes;
    // (Flagged only where the rule's blocks exceed M, as on the diagram: SramBudgetOf.)
    const auto budget = SramBudgetOf(scenario, runs.run);
    const bool flag = budget ? budget->BlocksOverM() && now_bytes > cap : now_bytes > cap;
    totals.rows.push_back({T(Str::sram_now), FormatInt(now_bytes) + " B / " + (scenario.derivation ? "M = " : T(Str::peak) + " ") +
                                              FormatInt(cap) + " B" + (flag ? "  " + T(Str::sram_over_m) : ""),
                           flag,
                           cap > 0 ? std::min(1.0f, static_cast<float>(now_bytes) / static_cast<float>(cap)) : -1.0f});
  }
  // SRAM above M is flagged wherever it occurs (the FA-1 tile formula ignores S_ij's tile and m, l).
  // (Only for a tiled run: the materialising reference keeps no SRAM account, and its "0 B" stood
  // beside a picture of V and P on chip at N49/m3, issue 29's walk-through.)
  // Against M where the tiles came from it: the rule's blocks (Q_i, K_j, V_j, O_i) and the peak with
  // S_ij and m, l (SramBudgetOf), flagged only where the blocks exceed M.
  const auto peak_budget = SramBudgetOf(scenario, runs.run);
  if (tiled && peak_budget) {
    const bool over = peak_budget->BlocksOverM();
    totals.rows.push_back({T(Str::sram_peak), q.at("sram_peak_bytes") + " = " + q.at("sram_peak_elements") + " " + T(Str::elements) + "; " +
                                                  (scenario.problem.logits_given ? "V_j O_i " : "Q_i K_j V_j O_i ") + q.at("sram_blocks_elements") +
                                                  (over ? " > M = " : " \u2264 M = ") + q.at("M") + (over ? "  " + T(Str::sram_over_m) : ""),
                           over});
  } else if (tiled) {
    totals.rows.push_back({T(Str::sram_peak), q.at("sram_peak_bytes")});
  }
  totals.rows.push_back({"FLOPs " + T(Str::so_far), q.at("flops")});
  totals.rows.push_back({"exp " + T(Str::so_far), q.at("exps")});
  totals.rows.push_back({T(Str::tiles) + " " + T(Str::so_far), q.at("tiles_computed") + " " + T(Str::computed) + ", " + q.at("tiles_skipped") + " " + T(Str::skipped)});
  // The whole run's tile count answers "how many tiles are skipped?" (MASK/k1): held back while open.
  totals.rows.push_back({T(Str::tiles_whole_run), q.at("total_tiles_computed") + " " + T(Str::computed) + ", " +
                                                      q.at("total_tiles_skipped") + " " + T(Str::skipped), false, -1, true});
  if (tiled) totals.rows.push_back(check_row);   // the tiled output against the reference's (N49/m4 quotes it)
  return totals;
}

// Backward ("backward": true): the recomputing pass beside the materialising one, so the BWD lesson
// can point at the numbers its prose quotes.
PanelSection BackwardSection(const Quantities& q, const std::string& lang) {
  const auto T = [&](Str k) { return UiText(k, lang); };
  PanelSection bwd;
  bwd.id = "backward";
  bwd.title = T(Str::bwd_panel_title);
  bwd.columns = {T(Str::bwd_col_quantity), T(Str::bwd_col_recompute), T(Str::bwd_col_materialise)};
  // Traffic and FLOPs answer "which computes more, which moves more?" (BWD/r1): held back while a
  // question is open.
  bwd.rows.push_back({T(Str::bwd_row_traffic),
                      q.at("bwd_recompute_hbm_elements") + "\t" + q.at("bwd_reference_hbm_elements"), false, -1, true});
  bwd.rows.push_back({T(Str::bwd_row_storage),
                      q.at("bwd_recompute_scratch_bytes") + "\t" + q.at("bwd_reference_scratch_bytes")});
  bwd.rows.push_back({"FLOPs", q.at("bwd_recompute_flops") + "\t" + q.at("bwd_reference_flops"), false, -1, true});
  bwd.rows.push_back({T(Str::bwd_p_reads),
                      q.at("bwd_recompute_reads:P") + "\t" + q.at("bwd_reference_reads:P")});
  // dQ goes back and forth through HBM tile by tile (BWD/r3 quotes both counts).
  bwd.rows.push_back({T(Str::bwd_row_dq), q.at("bwd_recompute_reads:dQ") + " / " + q.at("bwd_recompute_writes:dQ") + "\t" +
                                               q.at("bwd_reference_reads:dQ") + " / " + q.at("bwd_reference_writes:dQ")});
  bwd.rows.push_back({T(Str::bwd_row_max_diff), q.at("bwd_max_abs_diff") + "\t"});
  return bwd;
}

}  // namespace

std::vector<PanelSection> AttentionModel::Panels(int e, const std::string& lang) const {
  const bool cmp = Compared();   // before QuantitiesAt: both see the comparison, or neither
  const auto q = QuantitiesAt(e);
  std::vector<PanelSection> out;

  const PanelRow check_row = CheckRow(!(e + 1 < FwdCount()), cmp, runs_.check, q, lang);
  out.push_back(RunSection(scenario_, runs_.run.algorithm, Tiled(), q,
                           std::to_string(e + 1) + "/" + std::to_string(EventCount()) + ": " + EventTitle(e, lang), check_row, lang));

  if (Tiled() && !runs_.run.trace.empty() && !IsBackward(e)) {   // the forward's accumulator; not at backward events
    const engine::BlockState bs = runs_.run.trace.StateAt(scenario_.problem, static_cast<size_t>(FwdEvent(e)));
    if (bs.valid) out.push_back(AccumulatorSection(bs, lang));
  }
  if (!runs_.wrong.empty() && runs_.reference.O.size() > 0) out.push_back(WrongMergesSection(runs_, e + 1 >= FwdCount(), lang));

  const engine::Counters c = runs_.run.trace.empty() ? runs_.run.counters : runs_.run.trace.CountersAt(static_cast<size_t>(FwdEvent(e)));
  out.push_back(CountersSection(runs_, c, lang));
  std::optional<std::int64_t> sram_now;
  if (!runs_.run.trace.empty() && Tiled()) sram_now = runs_.run.trace[static_cast<size_t>(FwdEvent(e))].sram_bytes;
  out.push_back(CompareSection(scenario_, runs_, q, cmp, Tiled(), sram_now, check_row, lang));

  if (runs_.bwd_recompute && runs_.bwd_reference) {
    out.insert(out.begin() + 1, BackwardSection(q, lang));   // right under "this run": the numbers the lesson is about
    if (IsBackward(e)) {
      auto more = BackwardPanels(e - FwdCount(), lang);
      out.insert(out.begin() + 2, more.begin(), more.end());
    }
  }
  AddNumericsSection(out, runs_.run.numerics, lang, InputPaths(scenario_));
  return out;
}

std::optional<Heatmap> AttentionModel::HeatmapAt(int e) const {
  Heatmap h;
  h.title = "P = softmax(S)";
  if (!Compared()) {   // the reference forms P in the background: the panel says so until it is done
    const auto& p = scenario_.problem;
    if (p.n_q() * p.n_k() == 0 || p.n_q() * p.n_k() > kMaxHeatmapElements) return std::nullopt;
    h.rows = static_cast<int>(p.n_q());
    h.cols = static_cast<int>(p.n_k());
    h.not_computed_yet = h.computing = true;
    return h;
  }
  const ReducedHeatmap& P = runs_.heatmap;
  if (P.values.empty()) return std::nullopt;
  h.rows = P.rows;
  h.cols = P.cols;
  h.value_rows = P.value_rows;
  h.value_cols = P.value_cols;
  h.values = P.values.data();
  h.not_finite = !runs_.reference_P_finite;
  if (!runs_.run.trace.empty() && !Tiled() && !IsBackward(std::clamp(e, 0, EventCount() - 1))) {
    // The reference writes P in its pass 2; before that event there is no P to show.
    const auto& tr = runs_.run.trace;
    const int upto = std::clamp(e, 0, static_cast<int>(tr.size()) - 1);
    bool written = false;
    for (int k = 0; k <= upto && !written; ++k) written = tr[k].kind == EventKind::kWrite && tr[k].tensor == Tensor::kP;
    h.not_computed_yet = !written;
  }
  if (!runs_.run.trace.empty() && Tiled()) {
    e = std::clamp(e, 0, EventCount() - 1);
    const auto& ev = IsBackward(e) ? (*BwdTrace())[static_cast<size_t>(e - FwdCount())] : runs_.run.trace[static_cast<size_t>(FwdEvent(e))];
    if (ev.i >= 0) {
      h.r0 = static_cast<int>(ev.i * runs_.run.tiles.B_r);
      h.r1 = static_cast<int>(std::min<std::int64_t>(h.rows, (ev.i + 1) * runs_.run.tiles.B_r));
      h.c0 = 0, h.c1 = h.cols;
      if (ev.j >= 0) {
        h.c0 = static_cast<int>(ev.j * runs_.run.tiles.B_c);
        h.c1 = static_cast<int>(std::min<std::int64_t>(h.cols, (ev.j + 1) * runs_.run.tiles.B_c));
      }
    }
  }
  return h;
}

}  // namespace bw::view
