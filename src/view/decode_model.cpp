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

}  // namespace

std::string DecodeModel::StateM(double m, const engine::ExactState* ex) { return ex ? FormatLogOf(ex->M) : FormatDouble(m); }
// lse = m + ln l: with exact weights, ln of M·l (the sum of the split's weights).
std::string DecodeModel::Lse(double lse, const engine::ExactState* ex) { return ex ? FormatLogOf(ex->M * ex->l) : FormatDouble(lse); }

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
    // Two of the wrong combines are named by what they drop ("each split's max shift never undone",
    // "weighted by e^m_s alone, l_s left out"): the names say that m_s and l_s must travel with O_s,
    // DEC/d2's answer, so they are held back, name and all, while a question is open.
    w.name_answers = label != Str::dec_wrong_mean;
    cmp.rows.push_back(key(w));
  }

  PanelSection splits;
  splits.id = "splits";
  splits.title = T(Str::dec_panel_splits);
  // lse_s joins the table once every split is done (it is known then, and about to be written): DEC/d2,
  // whose question "what must travel with O_s?" it answers, conceals the table until the reveal, and the
  // answer's lse_1 and lse_2 are then on screen. (Not before: at DEC/d1 it would name the answer.)
  bool all_done = true;
  for (const auto& s : run_.splits) all_done = all_done && MergedAt(s.split, e) == s.tiles;
  const bool lse_shown = PartialWrittenAt(e) || all_done;
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
