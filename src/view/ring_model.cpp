// ScenarioModel for "ring" scenarios; see ring_model.h.
#include "view/ring_model.h"

#include <algorithm>
#include <set>

#include "engine/exact_softmax.h"
#include "view/format.h"
#include "view/ring_scene.h"

namespace bw::view {

namespace {

using engine::Rational;

engine::RingRun RunOtherOrder(engine::RingProblem p) {
  p.order = p.order == engine::RingOrder::kZigZag ? engine::RingOrder::kContiguous : engine::RingOrder::kZigZag;
  // The zig-zag order needs two chunks per device: with fewer rows the other order is the same one.
  if (p.order == engine::RingOrder::kZigZag && 2 * p.devices > p.attention.n_q()) p.order = engine::RingOrder::kContiguous;
  return engine::RunRing(p);
}

// Σ_t max_p pairs(p, t) over Σ pairs / P, exactly (1 is perfect balance).
Rational Imbalance(const engine::RingRun& run) {
  std::int64_t slowest = 0, total = 0;
  for (const auto& s : run.steps) {
    slowest += s.MaxPairs();
    for (const auto& d : s.devices) total += d.pairs;
  }
  return total == 0 ? Rational(1) : Rational(slowest * run.Devices()) / total;
}

std::string OrderWord(engine::RingOrder o, const std::string& lang) {
  return UiText(o == engine::RingOrder::kZigZag ? Str::ring_order_zigzag : Str::ring_order_contiguous, lang);
}

// A device's rows, 1-based: "1, 2" (at most 6, then "…").
std::string RowList(const std::vector<int>& rows) {
  std::string s;
  for (size_t i = 0; i < rows.size() && i < 6; ++i) s += (i ? ", " : "") + std::to_string(rows[i] + 1);
  if (rows.size() > 6) s += ", \u2026";
  return s;
}

// The device's rows' outputs so far (u/l per row; "—" for a row with nothing merged yet), exact when
// the run is. `k` steps merged.
std::string OutputsSoFar(const engine::RingRun& run, int device, int k, bool short_form) {
  if (k == 0) return "\u2014";
  const auto& st = run.steps[static_cast<size_t>(k) - 1].devices[static_cast<size_t>(device)];
  std::string s;
  for (size_t i = 0; i < st.after.size() && i < 6; ++i) {
    std::string v;
    if (st.after[i].IsEmpty()) v = "\u2014";
    else if (st.exact_after) {
      const auto o = engine::ExactOutput((*st.exact_after)[i]);
      v = o.size() == 1 ? (short_form ? FormatFraction(o[0]) : FormatExact(o[0])) : FormatExactVector(o);
    } else {
      v = FormatVector(engine::Output(st.after[i]));
    }
    s += (i ? ", " : "") + v;
  }
  if (st.after.size() > 6) s += ", \u2026";
  return s;
}

}  // namespace

RingModel::RingModel(data::RingScenario sc)
    : scenario_(std::move(sc)), run_(engine::RunRing(scenario_.problem)), other_(RunOtherOrder(scenario_.problem)) {}

int RingModel::StepsDoneAt(int e) const {
  const int P = run_.Devices();
  if (e <= 0) return 0;
  if (e >= 2 * P) return P;
  return (e + 1) / 2;
}

bool RingModel::SendAt(int e) const { return e > 0 && e < 2 * run_.Devices() && e % 2 == 0; }

std::string RingModel::EventLabel(int e) const {
  if (e == 0) return "start";
  if (e >= 2 * run_.Devices()) return "write";
  return (SendAt(e) ? "ring send:" : "ring step:") + std::to_string(StepsDoneAt(e));
}

std::vector<data::AcceptedPosition> RingModel::AcceptedPositions() const {
  using data::PositionForm;
  const int P = run_.Devices();
  std::vector<data::AcceptedPosition> a = {{PositionForm::kStart}, {PositionForm::kStep, false, P}};
  if (P > 1) a.push_back({PositionForm::kSend, false, P - 1});
  a.insert(a.end(), {{PositionForm::kWrite}, {PositionForm::kEnd}, {PositionForm::kEvent, false, EventCount()}});
  return a;
}

int RingModel::Find(const data::Position& p) const {
  using data::PositionForm;
  const int P = run_.Devices();
  switch (p.form) {
    case PositionForm::kStart: return 0;
    case PositionForm::kStep: return p.n >= 1 && p.n <= P ? 2 * p.n - 1 : -1;
    case PositionForm::kSend: return p.n >= 1 && p.n < P ? 2 * p.n : -1;
    case PositionForm::kWrite:
    case PositionForm::kEnd: return EventCount() - 1;
    case PositionForm::kEvent: return p.n >= 1 && p.n <= EventCount() ? p.n - 1 : -1;
    default: return -1;
  }
}

Quantities RingModel::QuantitiesAt(int e) const {
  Quantities q;
  const int P = run_.Devices(), k = StepsDoneAt(e);
  q["devices"] = std::to_string(P);
  q["n"] = std::to_string(run_.problem.attention.n_q());
  q["order"] = engine::ToString(run_.problem.order);
  q["other_order"] = engine::ToString(other_.problem.order);
  q["bytes_per_link"] = FormatBytes(run_.bytes_per_link_per_step);
  q["total_link_bytes"] = FormatBytes(run_.total_link_bytes);
  q["sends"] = FormatInt(static_cast<std::int64_t>(P) * (P - 1));
  q["idle_steps"] = FormatInt(run_.idle_device_steps);
  q["other_idle_steps"] = FormatInt(other_.idle_device_steps);
  q["imbalance"] = FormatExact(Imbalance(run_));
  q["other_imbalance"] = FormatExact(Imbalance(other_));
  std::int64_t total = 0;
  for (int d = 0; d < P; ++d) total += run_.PairsOf(d);
  q["total_pairs"] = FormatInt(total);
  q["max_error"] = FormatDouble(run_.max_abs_error);
  q["step"] = std::to_string(k);
  // The factors of one link's bytes: shard rows × (K numbers per row + V numbers per row) × bytes each.
  const auto& pr = run_.problem;
  q["shard_keys"] = FormatInt(static_cast<std::int64_t>(run_.shard_rows.front().size()));
  q["key_width"] = FormatInt(pr.key_width < 0 ? pr.attention.d() : pr.key_width);
  q["d_v"] = FormatInt(pr.attention.d_v());
  q["element_bytes"] = FormatInt(pr.element_bytes);
  const int last = run_.problem.attention.n_q() - 1;
  if (run_.exact) {
    q["output_last"] = FormatExactVector(run_.exact->output[static_cast<size_t>(last)]);
    q["reference_last"] = FormatExactVector(run_.exact->reference_output[static_cast<size_t>(last)]);
  } else {
    q["output_last"] = FormatVector(run_.output.row(last).transpose());
    q["reference_last"] = FormatVector(run_.reference_output.row(last).transpose());
  }
  for (int d = 0; d < P; ++d) {
    const std::string at = "@" + std::to_string(d + 1);
    q["rows" + at] = "(" + RowList(run_.shard_rows[static_cast<size_t>(d)]) + ")";
    q["pairs" + at] = FormatInt(run_.PairsOf(d));
    std::int64_t idle = 0, other_idle = 0;
    for (const auto& s : run_.steps) idle += s.devices[static_cast<size_t>(d)].idle;
    for (const auto& s : other_.steps) other_idle += s.devices[static_cast<size_t>(d)].idle;
    q["idle" + at] = FormatInt(idle);
    // Through the steps done so far (what the balance panel shows while the round goes on).
    std::int64_t pairs_so_far = 0, idle_so_far = 0;
    for (int t = 0; t < k; ++t) {
      const auto& st = run_.steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)];
      pairs_so_far += st.pairs;
      idle_so_far += st.idle;
    }
    q["pairs_so_far" + at] = FormatInt(pairs_so_far);
    q["idle_so_far" + at] = FormatInt(idle_so_far);
    q["other_idle" + at] = FormatInt(other_idle);
    if (k > 0) {
      const auto& st = run_.steps[static_cast<size_t>(k) - 1].devices[static_cast<size_t>(d)];
      q["pairs_now" + at] = FormatInt(st.pairs);
      q["shard_now" + at] = std::to_string(st.shard + 1);
    }
  }
  return q;
}

std::optional<ExpectedNumber> RingModel::NumberAt(int e, const std::string& name) const {
  if (name == "imbalance" || name == "other_imbalance") {
    const Rational x = Imbalance(name == "imbalance" ? run_ : other_);
    return ExpectedNumber{static_cast<double>(x), x};
  }
  return ScenarioModel::NumberAt(e, name);
}

std::vector<PanelSection> RingModel::Panels(int e, const std::string& lang) const {
  const auto T = [&](Str s) { return UiText(s, lang); };
  const Quantities q = QuantitiesAt(e);
  const int P = run_.Devices(), k = StepsDoneAt(e);
  const bool written = e == EventCount() - 1;

  PanelSection dev;
  dev.id = "devices";
  dev.title = T(Str::ring_panel_devices);
  dev.columns = {"#", T(Str::ring_col_rows), T(Str::ring_col_shard), T(Str::ring_col_pairs), T(Str::ring_col_output)};
  for (int d = 0; d < P; ++d) {
    const std::string at = "@" + std::to_string(d + 1);
    // At a send, the shard held is the one just received, as the device's box says.
    const std::string shard = SendAt(e) ? std::to_string(run_.steps[static_cast<size_t>(k)].devices[static_cast<size_t>(d)].shard + 1)
                              : k > 0   ? q.at("shard_now" + at)
                                        : std::to_string(d + 1);
    const std::string pairs = k > 0 ? q.at("pairs_now" + at) : "\u2014";
    dev.rows.push_back({std::to_string(d + 1), RowList(run_.shard_rows[static_cast<size_t>(d)]) + "\t" + shard + "\t" + pairs + "\t" +
                                                   OutputsSoFar(run_, d, k, false)});
  }

  PanelSection links;
  links.id = "links";
  links.title = T(Str::ring_panel_links);
  // Its name says what travels ("one K/V shard"): held back, name and all, while a question is open.
  // (From the first send on: before it, the row would answer what travels — RING/r1's question.)
  if (SendAt(e) || k > 1) links.rows.push_back({T(Str::ring_bytes_per_link), q.at("bytes_per_link"), false, -1, true, true});
  // Every device sends once per send event: t·P sends after send t, (t − 1)·P during step t.
  const int sends_now = (SendAt(e) ? k : std::max(0, k - 1)) * P;
  links.rows.push_back({T(Str::ring_sends), FormatInt(sends_now) + " / " + q.at("sends")});
  links.rows.push_back({T(Str::ring_total_bytes), q.at("total_link_bytes")});

  PanelSection bal;
  bal.id = "balance";
  bal.title = T(Str::ring_panel_balance);
  bal.columns = {"#", T(Str::ring_col_total_pairs), T(Str::ring_col_idle)};
  for (int d = 0; d < P; ++d) {
    const std::string at = "@" + std::to_string(d + 1);
    bal.rows.push_back({std::to_string(d + 1), q.at("pairs_so_far" + at) + "\t" + q.at("idle_so_far" + at)});
  }
  std::int64_t idle_so_far = 0;
  for (int t = 0; t < k; ++t)
    for (const auto& ds : run_.steps[static_cast<size_t>(t)].devices) idle_so_far += ds.idle;
  // The imbalance is the round's result: shown once the round is done (a larger one is not a wrong
  // number, so it is not marked ×).
  const std::string not_yet = T(Str::not_yet);
  PanelRow mine{UiFormat(Str::ring_imbalance_of, lang, {OrderWord(run_.problem.order, lang)}), written ? q.at("imbalance") : not_yet};
  mine.key = true;
  PanelRow other{UiFormat(Str::ring_imbalance_of, lang, {OrderWord(other_.problem.order, lang)}),
                 written ? q.at("other_imbalance") : not_yet};
  other.key = true;
  bal.rows.push_back({T(Str::ring_idle_total), FormatInt(idle_so_far)});
  bal.rows.push_back(mine);
  bal.rows.push_back(other);

  PanelSection res;
  res.id = "result";
  res.title = T(Str::ring_panel_result);
  PanelRow out{UiFormat(Str::ring_output_last, lang, {q.at("n")}), written ? q.at("output_last") : not_yet};
  out.key = true;
  res.rows.push_back(out);
  PanelRow ref{T(Str::ring_reference_last), written ? q.at("reference_last") : not_yet};
  ref.key = true;
  ref.answer = true;
  res.rows.push_back(ref);
  const bool equal = run_.exact ? run_.exact->output == run_.exact->reference_output : run_.max_abs_error <= 1e-12;
  PanelRow cmp{T(Str::ring_compare), written ? T(equal ? Str::ring_identical : Str::ring_differs) + (run_.exact ? "" : " (max |\u0394| " + q.at("max_error") + ")") : not_yet};
  cmp.warning = written && !equal;
  res.rows.push_back(cmp);
  return {dev, links, bal, res};
}

Scene RingModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  const auto T = [&](Str s) { return UiText(s, lang); };
  const int P = run_.Devices(), k = StepsDoneAt(e);
  RingSceneState s;
  s.run = &run_;
  s.k = k;
  s.send = SendAt(e);
  s.written = e == EventCount() - 1;
  s.lang = lang;
  // What each device's box says (its name, its rows, the shard it holds now: its own at the start;
  // after a send, the one it received; its rows' outputs so far) and its state.
  s.devs.resize(static_cast<size_t>(P));
  for (int d = 0; d < P; ++d) {
    RingDeviceBox& v = s.devs[static_cast<size_t>(d)];
    const auto* st = k > 0 ? &run_.steps[static_cast<size_t>(k) - 1].devices[static_cast<size_t>(d)] : nullptr;
    const int shard = s.send ? run_.steps[static_cast<size_t>(k)].devices[static_cast<size_t>(d)].shard : st ? st->shard : d;
    v.name = UiFormat(Str::ring_device, lang, {std::to_string(d + 1)});
    v.rows = UiFormat(Str::ring_rows, lang, {RowList(run_.shard_rows[static_cast<size_t>(d)])});
    v.holds = UiFormat(Str::ring_holds, lang, {std::to_string(shard + 1)});
    v.outputs = OutputsSoFar(run_, d, k, true);
    if (s.written) v.state = TileState::kWritten, v.sub = StateWord(TileState::kWritten, lang);
    else if (s.send) v.state = TileState::kProcessed, v.sub = T(Str::ring_sending);
    else if (st && st->idle) v.state = TileState::kMasked, v.sub = T(Str::ring_idle);
    else if (st) v.state = TileState::kInSram, v.sub = T(Str::ring_busy);
  }
  return BuildRingScene(s, pal, frame);
}

std::vector<TimelineMark> RingModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < EventCount(); ++e)
    if (!SendAt(e)) marks.push_back({e, EventLabel(e)});
  return marks;
}

std::vector<std::string> RingModel::Texts() const {
  std::vector<std::string> texts = {scenario_.title.zh, scenario_.title.en, scenario_.file, kNumberGlyphs};
  for (const auto& [name, v] : QuantitiesAt(EventCount() - 1)) texts.push_back(v);
  for (int e = 0; e < EventCount(); ++e)
    for (const auto* lang : {"zh", "en"}) {
      AppendPanelTexts(Panels(e, lang), texts);
      SceneFrame floors;
      floors.floors = true;
      for (const Scene& sc : {BuildScene(e, lang, ClassroomPalette()), BuildScene(e, lang, ClassroomPalette(), floors)}) {
        for (const auto& r : sc.rects) texts.push_back(r.label + "\n" + r.sublabel);
        for (const auto& t : sc.texts) texts.push_back(t.text);
      }
      texts.push_back(EventTitle(e, lang));
    }
  return texts;
}

}  // namespace bw::view
