// ScenarioModel for "decode" scenarios; see decode_model.h.
#include "view/decode_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "view/format.h"
#include "view/numerics_panel.h"

namespace bw::view {

namespace {

using engine::DecodeEventKind;
using engine::Rational;

std::string Scalar(double x, const Rational* ex) { return ex ? FormatExact(*ex) : FormatDouble(x); }
std::string Vec(const Eigen::VectorXd& v, const std::vector<Rational>* ex) { return ex ? FormatExactVector(*ex) : FormatVector(v); }
// The short forms the diagram prints (no "≈ 22.86" after a fraction).
std::string ShortScalar(double x, const Rational* ex) { return ex ? FormatFraction(*ex) : FormatDouble(x); }
std::string ShortVec(const Eigen::VectorXd& v, const std::vector<Rational>* ex) {
  if (!ex) return FormatVector(v);
  if (ex->size() == 1) return FormatFraction((*ex)[0]);
  std::string s = "(";
  for (size_t i = 0; i < ex->size(); ++i) s += (i ? ", " : "") + FormatFraction((*ex)[i]);
  return s + ")";
}
std::string StateM(double m, const engine::ExactState* ex) { return ex ? FormatLogOf(ex->M) : FormatDouble(m); }
// lse = m + ln l: with exact weights, ln of M·l (the sum of the split's weights).
std::string Lse(double lse, const engine::ExactState* ex) { return ex ? FormatLogOf(ex->M * ex->l) : FormatDouble(lse); }

std::int64_t Elements(const engine::SplitKvCounters& c) {
  return c.q_reads + c.k_reads + c.v_reads + c.table_reads + c.partial_o_writes + c.lse_writes + c.partial_o_reads +
         c.lse_reads + c.o_writes;
}

std::string Percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * fraction);
  return buf;
}

// The GPU figures of the idle-SM panel, from the engine's launch rule.
struct GpuFigures {
  int sm_count = 0, blocks_per_sm = 1, cache_tiles = 0, split_count = 0;
  std::int64_t ctas = 0, split_ctas = 0;
  double busy_unsplit = 0, busy_split = 0;   // fraction of the SMs with a block in the (last) wave
  int BusySms(double fraction) const { return static_cast<int>(std::lround(fraction * sm_count)); }
};
GpuFigures Figures(const data::DecodeGpu& g) {
  GpuFigures f;
  f.sm_count = g.sm_count;
  f.blocks_per_sm = g.blocks_per_sm;
  f.cache_tiles = g.cache_tiles;
  f.ctas = g.thread_blocks;
  const int slots = g.sm_count * g.blocks_per_sm;  // what flash-attn's launcher gives the rule
  f.split_count = engine::ChooseSplitCount(g.thread_blocks, slots, g.cache_tiles);
  f.split_ctas = g.thread_blocks * f.split_count;
  // SMs with at least one block in the last wave of `ctas` over the slots (blocks spread over SMs first).
  const auto busy = [&](std::int64_t ctas) {
    const double last = engine::LastWaveOccupancy(ctas, slots) * slots;
    return std::min(last, static_cast<double>(g.sm_count)) / g.sm_count;
  };
  f.busy_unsplit = busy(f.ctas);
  f.busy_split = busy(f.split_ctas);
  return f;
}

// A tile as every scene draws it; the givens (q) have no state and stand on the panel's colour.
SceneRect TileBox(std::string id, float x, float y, float w, float h, TileState s, const Palette& p, const std::string& lang,
                  std::string label) {
  SceneRect r = TileRect(std::move(id), x, y, w, h, s, p, std::move(label), StateWord(s, lang));
  if (s == TileState::kNone) r.fill = p.background;
  return r;
}

}  // namespace

DecodeModel::DecodeModel(data::DecodeScenario sc) : scenario_(std::move(sc)), run_(engine::RunSplitKv(scenario_.problem)) {}

std::string DecodeModel::EventLabel(int e) const {
  const auto& ev = run_.events[static_cast<size_t>(e)];
  if (ev.kind == DecodeEventKind::kLoad || ev.kind == DecodeEventKind::kUpdate) return "splits " + ev.label;
  return ev.label;
}

std::vector<data::AcceptedPosition> DecodeModel::AcceptedPositions() const {
  using data::PositionForm;
  int longest = 0;
  for (const auto& s : run_.splits) longest = std::max(longest, s.tiles);
  return {{PositionForm::kStart},
          {PositionForm::kLoad, false, longest},
          {PositionForm::kUpdate, false, longest},
          {PositionForm::kPartial},
          {PositionForm::kCombine, false, run_.SplitCount()},
          {PositionForm::kWrite},
          {PositionForm::kEnd},
          {PositionForm::kEvent, false, EventCount()}};
}

int DecodeModel::Find(const data::Position& p) const {
  using data::PositionForm;
  if (p.form == PositionForm::kEnd) return EventCount() - 1;
  if (p.form == PositionForm::kEvent) return p.n >= 1 && p.n <= EventCount() ? p.n - 1 : -1;
  const DecodeEventKind kind = p.form == PositionForm::kLoad      ? DecodeEventKind::kLoad
                               : p.form == PositionForm::kUpdate  ? DecodeEventKind::kUpdate
                               : p.form == PositionForm::kPartial ? DecodeEventKind::kPartial
                               : p.form == PositionForm::kCombine ? DecodeEventKind::kCombine
                               : p.form == PositionForm::kWrite   ? DecodeEventKind::kWrite
                                                                  : DecodeEventKind::kStart;
  for (int e = 0; e < EventCount(); ++e)
    if (run_.events[static_cast<size_t>(e)].kind == kind && run_.events[static_cast<size_t>(e)].index == p.n) return e;
  return -1;
}

int DecodeModel::MergedAt(int split, int e) const {
  const auto& ev = run_.events[static_cast<size_t>(e)];
  const int tiles = run_.splits[static_cast<size_t>(split) - 1].tiles;
  switch (ev.kind) {
    case DecodeEventKind::kStart: return 0;
    case DecodeEventKind::kLoad: return std::min(ev.index - 1, tiles);
    case DecodeEventKind::kUpdate: return std::min(ev.index, tiles);
    default: return tiles;
  }
}

int DecodeModel::InSramAt(int split, int e) const {
  const auto& ev = run_.events[static_cast<size_t>(e)];
  const int tiles = run_.splits[static_cast<size_t>(split) - 1].tiles;
  if (ev.kind != DecodeEventKind::kLoad && ev.kind != DecodeEventKind::kUpdate) return 0;
  return ev.index <= tiles ? ev.index : 0;
}

int DecodeModel::CombinedAt(int e) const {
  const auto& ev = run_.events[static_cast<size_t>(e)];
  if (ev.kind == DecodeEventKind::kCombine) return ev.index;
  return ev.kind == DecodeEventKind::kWrite ? run_.SplitCount() : 0;
}

bool DecodeModel::PartialWrittenAt(int e) const {
  const auto k = run_.events[static_cast<size_t>(e)].kind;
  return k == DecodeEventKind::kPartial || k == DecodeEventKind::kCombine || k == DecodeEventKind::kWrite;
}

std::map<std::string, Rational> DecodeModel::ExactAt(int e) const {
  std::map<std::string, Rational> x;
  if (!run_.exact || run_.problem.query.values.cols() != 1) return x;
  x["output"] = run_.exact->output[0];
  x["reference"] = run_.exact->reference_output[0];
  x["wrong_mean"] = (*run_.Wrong(engine::CombineVariant::kMeanOfSplitOutputs).exact)[0];
  x["wrong_no_rescale"] = (*run_.Wrong(engine::CombineVariant::kNoRescale).exact)[0];
  x["wrong_max_only"] = (*run_.Wrong(engine::CombineVariant::kMaxOnly).exact)[0];
  const auto& last = *run_.combine.back().exact;
  const Rational total = last.after.M * last.after.l;
  for (const auto& s : run_.splits) {
    const std::string at = "@" + std::to_string(s.split);
    x["l_s" + at] = s.exact_state->l;
    x["u_s" + at] = s.exact_state->u[0];
    x["o_s" + at] = (*s.exact_output)[0];
    x["share" + at] = s.exact_state->M * s.exact_state->l / total;
    const auto& c = *run_.combine[static_cast<size_t>(s.split) - 1].exact;
    x["l" + at] = c.after.l;
    x["u" + at] = c.after.u[0];
    x["alpha" + at] = c.alpha;
    x["beta" + at] = c.beta;
  }
  const int c = CombinedAt(e);
  if (c > 0) {
    const auto& now = *run_.combine[static_cast<size_t>(c) - 1].exact;
    x["l"] = now.after.l;
    x["u"] = now.after.u[0];
    x["output_so_far"] = now.output_so_far[0];
  }
  return x;
}

std::optional<ExpectedNumber> DecodeModel::NumberAt(int e, const std::string& name) const {
  const auto exact = ExactAt(e);
  if (const auto it = exact.find(name); it != exact.end())
    return ExpectedNumber{static_cast<double>(it->second), it->second};
  return ScenarioModel::NumberAt(e, name);
}

Quantities DecodeModel::QuantitiesAt(int e) const {
  Quantities q;
  const auto& p = run_.problem.query;
  const bool exact = run_.exact.has_value();
  // The inputs as a single-query file shows them ({weights}, {values}, {block_sizes}, {n}, {mode}).
  {
    engine::SingleQueryProblem whole = p;
    const engine::SingleQueryRun one = engine::RunSingleQuery(whole);
    const Quantities in = view::QuantitiesAt(one, static_cast<int>(one.events.size()) - 1);
    for (const char* k : {"weights", "values", "block_sizes", "n", "mode"}) q[k] = in.at(k);
  }
  q["splits"] = std::to_string(run_.SplitCount());
  q["tiles"] = std::to_string(p.block_sizes.size());
  std::vector<std::int64_t> per;
  for (const auto& s : run_.splits) per.push_back(s.tiles);
  q["split_tiles"] = FormatIntTuple(per);

  // The combine's running state at e.
  const int c = CombinedAt(e);
  if (c == 0) {
    const engine::SoftmaxState init = engine::InitialState(p);
    q["m"] = FormatDouble(init.m);
    q["l"] = FormatDouble(init.l);
    q["u"] = FormatVector(init.u);
    q["output_so_far"] = "\u2014";
  } else {
    const auto& step = run_.combine[static_cast<size_t>(c) - 1];
    const engine::CombineStep::Exact* ex = step.exact ? &*step.exact : nullptr;
    q["m"] = StateM(step.after.m, ex ? &ex->after : nullptr);
    q["l"] = Scalar(step.after.l, ex ? &ex->after.l : nullptr);
    q["u"] = Vec(step.after.u, ex ? &ex->after.u : nullptr);
    q["output_so_far"] = Vec(step.output_so_far, ex ? &ex->output_so_far : nullptr);
  }
  q["output"] = Vec(run_.output, exact ? &run_.exact->output : nullptr);
  q["reference"] = Vec(run_.reference_output, exact ? &run_.exact->reference_output : nullptr);
  const auto& last = run_.combine.back();
  q["lse"] = Lse(run_.lse, last.exact ? &last.exact->after : nullptr);
  const auto wrong = [&](engine::CombineVariant v) {
    const auto& w = run_.Wrong(v);
    return Vec(w.output, w.exact ? &*w.exact : nullptr);
  };
  q["wrong_mean"] = wrong(engine::CombineVariant::kMeanOfSplitOutputs);
  q["wrong_no_rescale"] = wrong(engine::CombineVariant::kNoRescale);
  q["wrong_max_only"] = wrong(engine::CombineVariant::kMaxOnly);

  const auto ex_now = ExactAt(e);
  for (const auto& s : run_.splits) {
    const std::string at = "@" + std::to_string(s.split);
    const engine::ExactState* ex = s.exact_state ? &*s.exact_state : nullptr;
    q["tiles" + at] = std::to_string(s.tiles);
    q["keys" + at] = std::to_string(s.end - s.begin);
    q["m_s" + at] = StateM(s.state.m, ex);
    q["l_s" + at] = Scalar(s.state.l, ex ? &ex->l : nullptr);
    q["u_s" + at] = Vec(s.state.u, ex ? &ex->u : nullptr);
    q["o_s" + at] = Vec(s.output, s.exact_output ? &*s.exact_output : nullptr);
    q["lse_s" + at] = Lse(s.lse, ex);
    const auto share = ex_now.find("share" + at);
    q["share" + at] = share != ex_now.end() ? FormatExact(share->second) : FormatDouble(std::exp(s.lse - run_.lse));
    const auto& step = run_.combine[static_cast<size_t>(s.split) - 1];
    const engine::CombineStep::Exact* cx = step.exact ? &*step.exact : nullptr;
    q["m" + at] = StateM(step.after.m, cx ? &cx->after : nullptr);
    q["l" + at] = Scalar(step.after.l, cx ? &cx->after.l : nullptr);
    q["u" + at] = Vec(step.after.u, cx ? &cx->after.u : nullptr);
    q["alpha" + at] = Scalar(step.factors.alpha, cx ? &cx->alpha : nullptr);
    q["beta" + at] = Scalar(step.factors.beta, cx ? &cx->beta : nullptr);
  }

  const std::int64_t unsplit = Elements(run_.unsplit_counters), split = Elements(run_.counters);
  q["hbm_unsplit"] = FormatInt(unsplit);
  q["hbm_split"] = FormatInt(split);
  q["hbm_extra"] = FormatInt(split - unsplit);
  q["table_reads"] = FormatInt(run_.counters.table_reads);
  if (run_.problem.paged) {
    std::vector<std::int64_t> table(run_.problem.paged->block_table.begin(), run_.problem.paged->block_table.end());
    q["block_table"] = FormatIntTuple(table);
    q["page_size"] = std::to_string(run_.problem.paged->page_size);
  }
  if (scenario_.gpu) {
    const GpuFigures f = Figures(*scenario_.gpu);
    q["sm_count"] = FormatInt(f.sm_count);
    q["blocks_per_sm"] = FormatInt(f.blocks_per_sm);
    q["thread_blocks"] = FormatInt(f.ctas);
    q["cache_tiles"] = FormatInt(f.cache_tiles);
    q["busy_unsplit"] = FormatInt(f.BusySms(f.busy_unsplit));
    q["busy_unsplit_percent"] = Percent(f.busy_unsplit);
    q["split_count"] = FormatInt(f.split_count);
    q["split_thread_blocks"] = FormatInt(f.split_ctas);
    q["busy_split"] = FormatInt(f.BusySms(f.busy_split));
    q["busy_split_percent"] = Percent(f.busy_split);
  }
  return q;
}

std::vector<PanelSection> DecodeModel::Panels(int e, const std::string& lang) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const Quantities q = QuantitiesAt(e);
  const std::string not_yet = T(Str::not_yet);
  const int c = CombinedAt(e);
  const bool all_in = c == run_.SplitCount();
  const auto key = [](PanelRow r) {
    r.key = true;
    return r;
  };

  PanelSection comb;
  comb.id = "combine";
  comb.title = T(Str::dec_panel_combine);
  const bool raw = run_.problem.query.mode == engine::SoftmaxMode::kRaw;
  comb.rows.push_back({T(Str::mode), T(raw ? Str::mode_raw : Str::mode_stable) +
                                         (run_.exact ? "  \u00b7  " + T(Str::exact_note) : "")});
  if (!raw) comb.rows.push_back(key({"m", q.at("m")}));
  comb.rows.push_back(key({"l", q.at("l")}));
  comb.rows.push_back(key({"u", q.at("u")}));
  // Once every split is in, the output so far is the final output: an answer (DEC/d4's question).
  PanelRow so_far{T(Str::output_so_far), q.at("output_so_far")};
  so_far.answer = all_in;
  comb.rows.push_back(key(so_far));
  // The factor the old state took when the last split came in (it answers "what happens to the old
  // l and u?": held back, name and all, while a question is open).
  // (From the second split on: the first is merged into an empty state, with nothing to rescale.)
  if (c > 1 && !raw)
    comb.rows.push_back({T(Str::rescale) + " (" + UiFormat(Str::dec_split, lang, {std::to_string(c)}) + ")",
                         q.at("alpha@" + std::to_string(c)), false, -1, true, true});
  // The comparison: the right combine, the true value, and the three wrong combines (a section of
  // its own, so that a projector shows it at the key size).
  PanelSection cmp;
  cmp.id = "compare";
  cmp.title = T(Str::dec_panel_compare);
  PanelRow truth{T(Str::true_output), all_in ? q.at("reference") : not_yet};
  truth.answer = true;
  cmp.rows.push_back(key(truth));
  PanelRow combined{T(Str::dec_combined_output), all_in ? q.at("output") : not_yet};
  combined.answer = true;
  cmp.rows.push_back(key(combined));
  const std::pair<Str, const char*> wrongs[] = {{Str::dec_wrong_mean, "wrong_mean"},
                                                {Str::dec_wrong_no_rescale, "wrong_no_rescale"},
                                                {Str::dec_wrong_max_only, "wrong_max_only"}};
  for (const auto& [label, name] : wrongs) {
    // Marked wrong only where it is (with equal splits the mean can happen to be right).
    const bool differs = q.at(name) != q.at("output");
    PanelRow w{T(label), all_in ? q.at(name) : T(Str::dec_after_combine), all_in && differs};
    w.answer = true;
    cmp.rows.push_back(key(w));
  }

  PanelSection splits;
  splits.id = "splits";
  splits.title = T(Str::dec_panel_splits);
  // lse_s joins the table when the splits write it (partial): before that it would answer "what must
  // travel with O_s?" (DEC/d2).
  const bool lse_shown = PartialWrittenAt(e);
  splits.columns = {"#", raw ? "l_s" : "m_s", raw ? "u_s" : "l_s", "O_s"};
  if (lse_shown) splits.columns.push_back("lse_s");
  for (const auto& s : run_.splits) {
    const std::string j = std::to_string(s.split);
    const int merged = MergedAt(s.split, e);
    if (merged == 0) {
      splits.rows.push_back({j, not_yet + "\t" + not_yet + "\t" + not_yet + (lse_shown ? "\t" + not_yet : "")});
      continue;
    }
    const auto& b = s.run.blocks[static_cast<size_t>(merged) - 1];
    const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
    const std::string m = StateM(b.after.m, ex ? &ex->after : nullptr);
    const std::string l = Scalar(b.after.l, ex ? &ex->after.l : nullptr);
    const std::string u = Vec(b.after.u, ex ? &ex->after.u : nullptr);
    const std::string o = Vec(b.output_so_far, ex ? &ex->output_so_far : nullptr);
    splits.rows.push_back({j, (raw ? l : m) + "\t" + (raw ? u : l) + "\t" + o + (lse_shown ? "\t" + q.at("lse_s@" + j) : "")});
  }

  PanelSection traffic;
  traffic.id = "traffic";
  traffic.title = T(Str::dec_panel_traffic);
  traffic.rows.push_back({T(Str::dec_hbm_unsplit), q.at("hbm_unsplit")});
  traffic.rows.push_back({T(Str::dec_hbm_split), q.at("hbm_split")});
  traffic.rows.push_back({T(Str::dec_hbm_extra), q.at("hbm_extra")});
  if (run_.problem.paged) {
    traffic.rows.push_back({T(Str::dec_block_table), q.at("block_table")});
    traffic.rows.push_back({T(Str::dec_table_reads), q.at("table_reads")});
  }

  std::vector<PanelSection> out = {comb, cmp, splits, traffic};
  if (scenario_.gpu) {
    PanelSection gpu;
    gpu.id = "gpu";
    gpu.title = T(Str::dec_panel_gpu);
    gpu.rows.push_back({T(Str::dec_sm_count), q.at("sm_count")});
    gpu.rows.push_back({T(Str::dec_blocks_per_sm), q.at("blocks_per_sm")});
    gpu.rows.push_back({T(Str::dec_cache_tiles), q.at("cache_tiles")});
    gpu.rows.push_back({T(Str::dec_ctas_unsplit), q.at("thread_blocks")});
    gpu.rows.push_back(key({T(Str::dec_busy_unsplit), q.at("busy_unsplit") + " (" + q.at("busy_unsplit_percent") + ")"}));
    gpu.rows.push_back({T(Str::dec_split_count), q.at("split_count")});
    gpu.rows.push_back({T(Str::dec_ctas_split), q.at("split_thread_blocks")});
    gpu.rows.push_back(key({T(Str::dec_busy_split), q.at("busy_split") + " (" + q.at("busy_split_percent") + ")"}));
    out.push_back(gpu);
  }
  AddNumericsSection(out, run_.numerics, lang);
  return out;
}

Scene DecodeModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame&) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const int S = run_.SplitCount();
  const auto& ev = run_.events[static_cast<size_t>(e)];
  const bool raw = run_.problem.query.mode == engine::SoftmaxMode::kRaw;
  Scene sc;
  sc.background = pal.background;
  // 44 em across (as the other scenes, about): a laptop's diagram box gives an em of 15 px or more,
  // which the painter needs for a tile's state word at 16 px text.
  constexpr float kW = 44, kLeft = 5.6f, kGap = 0.8f;
  constexpr float kHbmY = 0, kTileY = 2.1f, kTileH = 2.6f, kPartY = 5.0f, kPartH = 2.6f, kHbmH = 7.9f;
  constexpr float kSramY = 8.4f, kSplitY = 10.7f, kSplitH = 4.7f, kSramH = 7.4f;
  constexpr float kCombY = 16.2f, kCombH = 3.9f;
  sc.width = kW;
  sc.height = kCombY + kCombH + 0.4f;

  sc.rects.push_back(PanelRect("hbm", 0, kHbmY, kW, kHbmH, pal.panel_hbm, pal));
  sc.texts.push_back({"hbm.title", 0.5f, kHbmY + 0.2f, 0.9f, pal.text, T(Str::hbm_title_short)});
  sc.rects.push_back(PanelRect("sram", 0, kSramY, kW, kSramH, pal.panel_sram, pal));
  sc.texts.push_back({"sram.title", 0.5f, kSramY + 0.2f, 0.9f, pal.text, T(Str::dec_sram_title)});

  sc.rects.push_back(TileBox("hbm.q", 0.6f, kTileY, kLeft - 1.2f, kTileH, TileState::kNone, pal, lang, "q"));
  const bool written = ev.kind == DecodeEventKind::kWrite;
  const auto& ex_out = run_.exact ? &run_.exact->output : nullptr;
  sc.rects.push_back(TileBox("hbm.o", 0.6f, kPartY, kLeft - 1.2f, kPartH, written ? TileState::kWritten : TileState::kNotWritten, pal,
                         lang, written ? "O\n" + ShortVec(run_.output, ex_out) : "O"));

  // A tile's name; in a paged cache with the physical page it lies in (the block table's entry), so the
  // out-of-order pages show in the picture as well as in the panel.
  // A tile of keys [begin, end) covers pages begin / page_size … (end - 1) / page_size.
  const auto TileTitle = [&](int tile, int begin, int end) {
    if (!run_.problem.paged) return "K/V " + std::to_string(tile);
    const auto& pg = *run_.problem.paged;
    std::string pages;
    for (int p = begin / pg.page_size; p <= (end - 1) / pg.page_size; ++p)
      pages += (pages.empty() ? "" : ",") + std::to_string(pg.block_table[static_cast<size_t>(p)]);
    return UiFormat(Str::dec_kv_page, lang, {std::to_string(tile), pages});
  };
  const float col_w = (kW - kLeft - 0.4f) / static_cast<float>(S);
  const bool partial = PartialWrittenAt(e);
  const int combined = CombinedAt(e);
  for (const auto& s : run_.splits) {
    const std::string j = std::to_string(s.split);
    const float x0 = kLeft + col_w * static_cast<float>(s.split - 1), w = col_w - kGap;
    const int merged = MergedAt(s.split, e), held = InSramAt(s.split, e);
    // The split's tiles in HBM: one box each, or one for them all past 8 (a file's long cache).
    const auto tile_state = [&](int k) {  // k 1-based within the split
      return k == held ? TileState::kInSram : k <= merged ? TileState::kProcessed : TileState::kPending;
    };
    if (s.tiles <= 8) {
      const float tw = (w - 0.3f * static_cast<float>(s.tiles - 1)) / static_cast<float>(s.tiles);
      const auto& q = run_.problem.query;
      const bool exact = q.exact_weights && q.exact_values;
      const std::vector<std::string> shown = exact ? std::vector<std::string>() : FormatDistinct(q.scores);
      int begin = s.begin;
      for (int k = 1; k <= s.tiles; ++k) {
        const int tile = s.first_tile + k;  // 1-based in the cache
        const int end = begin + q.block_sizes[static_cast<size_t>(tile) - 1];
        sc.rects.push_back(TileBox("hbm.kv." + std::to_string(tile), x0 + (tw + 0.3f) * static_cast<float>(k - 1), kTileY, tw, kTileH,
                               tile_state(k), pal, lang, TileTitle(tile, begin, end) + "\n" + KeyInputs(q, exact, shown, begin, end, 4)));
        begin = end;
      }
    } else {
      const TileState st = held ? TileState::kInSram : merged == s.tiles ? TileState::kProcessed : merged ? TileState::kInSram : TileState::kPending;
      sc.rects.push_back(TileBox("hbm.kv." + std::to_string(s.first_tile + 1), x0, kTileY, w, kTileH, st, pal, lang,
                             "K/V " + std::to_string(s.first_tile + 1) + "\u2013" + std::to_string(s.first_tile + s.tiles)));
    }
    // Its partial output and lse in HBM.
    // lse_s joins the label when it is written: before, it would answer "what must travel with O_s?".
    std::string part = partial ? "O_" + j + ", lse_" + j : "O_" + j;
    if (partial) part += "\n" + ShortVec(s.output, s.exact_output ? &*s.exact_output : nullptr) + ", " +
                         Lse(s.lse, s.exact_state ? &*s.exact_state : nullptr);
    TileState part_state = partial ? TileState::kWritten : TileState::kNotWritten;
    if (combined >= s.split) part_state = TileState::kProcessed;
    sc.rects.push_back(TileBox("hbm.partial." + j, x0, kPartY, w, kPartH, part_state, pal, lang, part));
    // Its thread block: the split's running (m, l, u) and its output so far.
    std::string label = UiFormat(Str::dec_split, lang, {j});
    TileState st = held ? TileState::kInSram : merged == 0 ? TileState::kPending : TileState::kProcessed;
    if (partial) st = TileState::kWritten;
    if (merged > 0) {
      const auto& b = s.run.blocks[static_cast<size_t>(merged) - 1];
      const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
      if (!raw) label += "\nm = " + StateM(b.after.m, ex ? &ex->after : nullptr);
      label += "\nl = " + ShortScalar(b.after.l, ex ? &ex->after.l : nullptr);
      label += "\nO = " + ShortVec(b.output_so_far, ex ? &ex->output_so_far : nullptr);
    }
    SceneRect r = TileBox("split." + j, x0, kSplitY, w, kSplitH, st, pal, lang, label);
    if (held == 0 && merged == s.tiles && !partial && ev.kind != DecodeEventKind::kStart) r.sublabel = T(Str::dec_idle);
    sc.rects.push_back(r);
  }

  // The combine: the splits merged into one (m, l, u), then O = u / l.
  std::string comb = UiFormat(Str::dec_combine_box, lang, {FormatInt(combined), FormatInt(S)});
  if (combined > 0) {
    const auto& step = run_.combine[static_cast<size_t>(combined) - 1];
    const engine::CombineStep::Exact* cx = step.exact ? &*step.exact : nullptr;
    std::string line = raw ? "" : "m = " + StateM(step.after.m, cx ? &cx->after : nullptr) + "  \u00b7  ";
    line += "l = " + ShortScalar(step.after.l, cx ? &cx->after.l : nullptr) + "  \u00b7  u = " +
            ShortVec(step.after.u, cx ? &cx->after.u : nullptr);
    comb += "\n" + line + "\nu / l = " + ShortVec(step.output_so_far, cx ? &cx->output_so_far : nullptr);
  }
  const TileState comb_state = combined == 0 ? TileState::kPending : combined == S ? TileState::kProcessed : TileState::kInSram;
  sc.rects.push_back(TileBox("combine", 0.6f, kCombY, kW - 1.2f, kCombH, comb_state, pal, lang, comb));
  return sc;
}

std::vector<TimelineMark> DecodeModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < EventCount(); ++e) {
    const auto k = run_.events[static_cast<size_t>(e)].kind;
    if (k != DecodeEventKind::kUpdate) marks.push_back({e, EventLabel(e)});
  }
  return marks;
}

std::vector<std::string> DecodeModel::Texts() const {
  std::vector<std::string> texts = {scenario_.title.zh, scenario_.title.en, scenario_.file, kNumberGlyphs};
  for (const auto& [k, v] : QuantitiesAt(EventCount() - 1)) texts.push_back(v);
  std::set<std::string> kinds;
  for (int e = 0; e < EventCount(); ++e) {
    std::string kind = EventLabel(e);
    std::erase_if(kind, [](char ch) { return ch >= '0' && ch <= '9'; });
    if (!kinds.insert(kind).second && e != EventCount() - 1 && e >= 64) continue;
    for (const auto* lang : {"zh", "en"}) {
      AppendPanelTexts(Panels(e, lang), texts);
      const Scene sc = BuildScene(e, lang, ClassroomPalette());
      for (const auto& r : sc.rects) texts.push_back(r.label + "\n" + r.sublabel);
      for (const auto& t : sc.texts) texts.push_back(t.text);
      texts.push_back(EventTitle(e, lang));
    }
  }
  texts.push_back(UiText(Str::dec_idle, "zh"));
  texts.push_back(UiText(Str::dec_idle, "en"));
  return texts;
}

}  // namespace bw::view
