// ScenarioModel for "ring" scenarios; see ring_model.h.
#include "view/ring_model.h"

#include <algorithm>
#include <set>

#include "engine/exact_softmax.h"
#include "view/format.h"

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
  const bool send = SendAt(e), written = e == EventCount() - 1;
  Scene sc;
  sc.background = pal.background;
  // What each device's box says (its name, its rows, the shard it holds now: its own at the start;
  // after a send, the one it received) and its state.
  struct Device {
    std::string name, rows, holds, holds_wrapped, sub;
    TileState state = TileState::kPending;
    const engine::RingDeviceStep* st = nullptr;
  };
  std::vector<Device> devs(static_cast<size_t>(P));
  for (int d = 0; d < P; ++d) {
    Device& v = devs[static_cast<size_t>(d)];
    v.st = k > 0 ? &run_.steps[static_cast<size_t>(k) - 1].devices[static_cast<size_t>(d)] : nullptr;
    const int shard = send ? run_.steps[static_cast<size_t>(k)].devices[static_cast<size_t>(d)].shard : v.st ? v.st->shard : d;
    v.name = UiFormat(Str::ring_device, lang, {std::to_string(d + 1)});
    v.rows = UiFormat(Str::ring_rows, lang, {RowList(run_.shard_rows[static_cast<size_t>(d)])});
    v.holds = UiFormat(Str::ring_holds, lang, {std::to_string(shard + 1)});
    if (written) v.state = TileState::kWritten, v.sub = StateWord(TileState::kWritten, lang);
    else if (send) v.state = TileState::kProcessed, v.sub = T(Str::ring_sending);
    else if (v.st && v.st->idle) v.state = TileState::kMasked, v.sub = T(Str::ring_idle);
    else if (v.st) v.state = TileState::kInSram, v.sub = T(Str::ring_busy);
  }
  // The work grid's cell for device d at step t: pending, idle (hatched), merging now, or done.
  const auto cell_state = [&](int d, int t) {
    const auto& ds = run_.steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)];
    const bool done = t < k, now = t == k - 1 && !send && !written;
    return !done ? TileState::kPending : ds.idle ? TileState::kMasked : now ? TileState::kInSram : TileState::kProcessed;
  };
  const std::string bytes = FormatBytes(run_.bytes_per_link_per_step);
  const auto next_of = [&](int d) { return "\u2192 " + std::to_string((d + 1) % P + 1); };

  // (A box too small for the floors' lines at any scale keeps the row below: nothing is cut.)
  do {
    if (!frame.floors || P < 2) break;
    // Laid out for the label floors (SceneFrame::floors): the devices round a ring on the left (the
    // first half left to right along the top, the rest back along the bottom, the links between
    // them), the work grid on the right. Every line of a box is sized for the line the painter will
    // draw (FloorLines, from the frame's floors at the scale the scene will be fitted at). A device's
    // box says its name, its rows and the shard it holds (its outputs so far are the devices panel's);
    // a link carries its bytes while sending, on a key line; each grid cell's pairs are a key number
    // of their own, left of the state's symbol the painter centres in the cell.
    SceneFrame ff = frame;
    if (ff.floor_text_px <= 0) ff.floor_text_px = 24, ff.floor_key_px = 36;   // a projector's at 1080 rows
    const float lpe = frame.line_per_em > 0 ? frame.line_per_em : 1.448f;
    const bool known = frame.width_px > 0 && frame.height_px > 0;
    // Where each device sits (row 0 left to right, row 1 right to left) and where its link points.
    const int c = (P + 1) / 2;
    const auto col_of = [&](int d) { return d < c ? d : 2 * c - 1 - d; };
    const auto row_of = [&](int d) { return d < c ? 0 : 1; };
    enum Dir { kRight, kDown, kLeft, kUp };
    const auto dir_of = [&](int d) {
      if (d < c - 1) return kRight;
      if (d == c - 1) return kDown;
      if (d < P - 1) return kLeft;
      return col_of(P - 1) == 0 ? kUp : kLeft;   // the last link, back to device 1
    };
    const auto link_label = [&](int d) {
      static constexpr const char* kArrow[] = {"\u2192 ", "\u2193 ", "\u2190 ", "\u2191 "};
      return kArrow[dir_of(d)] + std::to_string((d + 1) % P + 1);
    };
    // Widths at size 1 (EstimateWidthEm) and lines of a device's box, in the long forms and the
    // narrow ones a narrow box takes (a device's name over the shard it holds, on two lines: "holds",
    // "shard 4" — its rows are the devices panel's; the grid's rows by the device's number alone).
    float text_w[2] = {0, 0}, row_label_w[2] = {0, 0}, num_w = 0;
    int box_lines[2] = {3, 2};
    for (int d = 0; d < P; ++d) {
      Device& v = devs[static_cast<size_t>(d)];
      const float w = std::max(EstimateWidthEm(v.name), EstimateWidthEm(v.rows));
      text_w[0] = std::max({text_w[0], w, EstimateWidthEm(v.holds)});
      const std::vector<std::string> lines = WrapEstimated(v.holds, EstimateWidthEm(v.name));
      text_w[1] = std::max(text_w[1], EstimateWidthEm(v.name));
      for (const auto& l : lines) text_w[1] = std::max(text_w[1], EstimateWidthEm(l)), v.holds_wrapped += (v.holds_wrapped.empty() ? "" : "\n") + l;
      box_lines[1] = std::max(box_lines[1], 1 + static_cast<int>(lines.size()));
      row_label_w[0] = std::max(row_label_w[0], EstimateWidthEm(v.name));
      row_label_w[1] = std::max(row_label_w[1], EstimateWidthEm(std::to_string(d + 1)));
    }
    for (const auto& st : run_.steps)
      for (const auto& ds : st.devices) num_w = std::max(num_w, EstimateWidthEm(FormatInt(ds.pairs)));
    const std::string grid_title = T(Str::ring_grid_title);
    // The sizes at `em_px` pixels per em: a line at the floors is a fixed number of pixels, so the
    // fewer pixels per em, the more em it takes.
    struct Dims {
      FloorLines fl;
      float te, title_line, dev_w, dev_h, link_w, link_h, hgap, vgap, ring_w, ring_top, num, cell_h, cell_w, label_w, grid_x, grid_y, W, H;
      std::vector<std::string> grid_title;
    };
    const auto dims_at = [&](float em_px, float width_em, int form) {
      Dims m;
      m.fl = FloorLinesAt(ff, em_px);
      const FloorLines& fl = m.fl;
      const float te = fl.text / lpe, ke = fl.key / lpe;   // an ideograph's width at the floors, in em
      m.te = te;
      m.title_line = std::max(fl.text, 1.0f);
      m.dev_w = text_w[form] * te + 0.9f;
      // Its lines and the state's word (or symbol), with the painter's pads and gaps.
      m.dev_h = static_cast<float>(box_lines[form] + 1) * fl.text + 1.0f;
      m.link_w = std::max({2.4f, EstimateWidthEm(bytes) * ke + 0.7f, 2.2f * te + 0.7f});
      m.link_h = std::min(m.dev_h - 0.4f, 2 * fl.text + fl.key + 0.9f);
      m.hgap = m.link_w + 0.5f, m.vgap = m.link_h + 0.5f;
      m.ring_top = 0.25f + m.title_line + 0.3f;
      // A cell's number: its line's height, at least the key floor's, larger with Ctrl + (the box may
      // narrow as the side panel's text grows: the numbers still grow).
      m.num = std::max(1.3f * std::clamp(frame.text_scale, 1.0f, 2.0f), fl.key);
      // (A free text keeps 0.2 em inside its cell; an eighth of the number spare, for a box that fits
      // the scene a little larger than the scale found below: the number then keeps the key size.)
      m.cell_h = 1.12f * m.num + 0.5f;
      // The number, half its size clear (the placer's gap), and the symbol centred with its plate.
      const float badge_w = std::max(te, 0.85f * 1.6f / lpe) + 0.6f;
      m.cell_w = 2 * (0.45f + num_w * m.num / lpe + 0.5f * m.num + 0.5f * badge_w) + 0.3f;
      // (The first cell's number keeps half its size clear of the row's label: the placer's gap.)
      m.label_w = row_label_w[form] * std::max(te, 0.69f * 1.25f) + std::max(0.6f, 0.5f * m.num - 0.2f);
      m.ring_w = static_cast<float>(c) * m.dev_w + static_cast<float>(c - 1) * m.hgap;
      const float grid_min = m.label_w + static_cast<float>(P) * m.cell_w;
      m.W = 0.4f + m.ring_w + 1.2f + grid_min + 0.4f;
      // Wider than it needs (the frame's box is): the extra shared by the devices and the cells.
      if (width_em > m.W) {
        const float extra = std::min(width_em, 1.5f * m.W) - m.W;
        m.dev_w += 0.4f * extra / static_cast<float>(c);
        m.cell_w += 0.6f * extra / static_cast<float>(P);
        m.ring_w = static_cast<float>(c) * m.dev_w + static_cast<float>(c - 1) * m.hgap;
        m.W += extra;
      }
      m.grid_x = 0.4f + m.ring_w + 1.2f;
      m.grid_title = WrapEstimated(grid_title, (m.W - m.grid_x - 0.4f) / te);
      m.grid_y = 0.25f + (m.title_line + 0.1f) * static_cast<float>(m.grid_title.size()) + 0.3f;
      m.H = std::max(m.ring_top + 2 * m.dev_h + m.vgap, m.grid_y + (m.cell_h + 0.25f) * static_cast<float>(P) - 0.25f) + 0.4f;
      return m;
    };
    // The scale the scene will be fitted at (FitEm): the largest at which its least width and its
    // height fit the frame's box (both grow in px with the scale), found by bisection; 30 px per em (a
    // 1080p projector's box, about 1340 × 570 px) where the frame gives none.
    // The long forms where they leave at least 20 px per em (a 1080p projector's box beside a wide
    // side panel, about 1040 × 565 px, does not).
    float em_px = 30;
    int form = 0;
    for (; known && form < 2; ++form) {
      float lo = 1, hi = 400;
      for (int i = 0; i < 40; ++i) {
        const float mid = 0.5f * (lo + hi);
        const Dims m = dims_at(mid, 0, form);
        (m.W * mid <= frame.width_px && m.H * mid <= frame.height_px ? lo : hi) = mid;
      }
      em_px = lo;
      if (em_px >= 20 * ff.floor_text_px / 24) break;
    }
    form = std::min(form, 1);
    if (known && em_px < 0.4f * ff.floor_text_px) break;
    sc.floors = true;
    const Dims m = dims_at(em_px, known ? frame.width_px / em_px : 0, form);
    const FloorLines& fl = m.fl;
    sc.width = m.W, sc.height = m.H;
    sc.texts.push_back({"ring.title", 0.5f, 0.25f, 1.0f, pal.text, T(Str::ring_devices_title)});
    const auto dev_x = [&](int d) { return 0.4f + static_cast<float>(col_of(d)) * (m.dev_w + m.hgap); };
    const auto dev_y = [&](int d) { return m.ring_top + static_cast<float>(row_of(d)) * (m.dev_h + m.vgap); };
    for (int d = 0; d < P; ++d) {
      const Device& v = devs[static_cast<size_t>(d)];
      const std::string D = std::to_string(d + 1);
      sc.rects.push_back(TileRect("device." + D, dev_x(d), dev_y(d), m.dev_w, m.dev_h, v.state, pal, v.name + "\n" + (form ? v.holds_wrapped : v.rows + "\n" + v.holds),
                                  v.sub));
    }
    for (int d = 0; d < P; ++d) {
      // The link to the next device (the last one's goes back to device 1), in the gap between them;
      // while sending, its bytes. (Not sending, it is a line's height: an arrow and the next device.)
      const float h = send ? m.link_h : fl.text + 0.6f;
      const Dir dir = dir_of(d);
      float x = 0, y = 0;
      if (dir == kRight) x = dev_x(d) + m.dev_w + 0.25f, y = dev_y(d) + (m.dev_h - h) / 2;
      else if (dir == kLeft) x = dev_x(d) - m.hgap + 0.25f, y = dev_y(d) + (m.dev_h - h) / 2;
      else x = dev_x(d) + (m.dev_w - m.link_w) / 2, y = m.ring_top + m.dev_h + (m.vgap - h) / 2;
      SceneRect link = TileRect("link." + std::to_string(d + 1), x, y, m.link_w, h, send ? TileState::kInSram : TileState::kNone, pal,
                                send ? link_label(d) + "\n" + bytes : link_label(d), "");
      link.key_lines = send;
      if (!send) link.fill = pal.background;
      sc.rects.push_back(link);
    }
    // The work grid: the pairs each device computes at each step, a key number in each cell done.
    for (size_t i = 0; i < m.grid_title.size(); ++i)
      sc.texts.push_back({"ring.grid.title" + (i ? "." + std::to_string(i + 1) : std::string()), m.grid_x, 0.25f + (m.title_line + 0.1f) * static_cast<float>(i),
                          1.0f, pal.text, m.grid_title[i]});
    for (int d = 0; d < P; ++d) {
      const float y = m.grid_y + (m.cell_h + 0.25f) * static_cast<float>(d);
      const std::string D = std::to_string(d + 1);
      sc.texts.push_back({"ring.grid.device." + D, m.grid_x, y + (m.cell_h - m.title_line) / 2, 1.0f, pal.text_muted,
                          form ? D : devs[static_cast<size_t>(d)].name});
      for (int t = 0; t < P; ++t) {
        const std::string id = "work." + D + "." + std::to_string(t + 1);
        const float x = m.grid_x + m.label_w + m.cell_w * static_cast<float>(t);
        sc.rects.push_back(TileRect(id, x, y, m.cell_w - 0.3f, m.cell_h, cell_state(d, t), pal, "", ""));  // the painter adds the state's symbol
        if (t < k) {
          sc.texts.push_back({id + ".pairs", x + 0.45f, y + 0.22f, m.num, pal.text,
                              FormatInt(run_.steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)].pairs)});
          sc.texts.back().key = true;
        }
      }
    }
    return sc;
  } while (false);

  // 44 em across, as the decode scene (a laptop's box then gives the state words 15 px per em).
  constexpr float kW = 44, kLink = 3.0f, kDevY = 2.3f, kDevH = 7.0f;
  const float dev_w = (kW - 0.8f - kLink * static_cast<float>(P)) / static_cast<float>(P);
  sc.texts.push_back({"ring.title", 0.5f, 0.2f, 0.9f, pal.text, T(Str::ring_devices_title)});
  for (int d = 0; d < P; ++d) {
    const float x = 0.8f + (dev_w + kLink) * static_cast<float>(d);
    const std::string D = std::to_string(d + 1);
    const Device& v = devs[static_cast<size_t>(d)];
    const std::string label = v.name + "\n" + v.rows + "\n" + v.holds + "\nO: " + OutputsSoFar(run_, d, k, true);
    sc.rects.push_back(TileRect("device." + D, x, kDevY, dev_w, kDevH, v.state, pal, label, v.sub));
    // While sending, the bytes on the link are its key number: they lead, in the label's large line.
    std::string link = next_of(d);
    if (send) link = bytes + "\n" + link;
    sc.rects.push_back(TileRect("link." + D, x + dev_w + 0.3f, kDevY + 2.0f, kLink - 0.6f, 3.0f, send ? TileState::kInSram : TileState::kNone, pal,
                            link, ""));
    if (!send) sc.rects.back().fill = pal.background;
  }
  // The work grid: pairs computed by each device at each step; idle cells hatched.
  const float grid_y = kDevY + kDevH + 2.4f, label_w = 5.6f, cell_h = 2.6f;
  const float cell_w = (kW - 0.8f - label_w) / static_cast<float>(P);
  sc.texts.push_back({"ring.grid.title", 0.5f, grid_y - 2.0f, 0.9f, pal.text, T(Str::ring_grid_title)});
  for (int d = 0; d < P; ++d) {
    const float y = grid_y + (cell_h + 0.2f) * static_cast<float>(d);
    sc.texts.push_back({"ring.grid.device." + std::to_string(d + 1), 0.5f, y + 0.3f, 0.85f, pal.text_muted, devs[static_cast<size_t>(d)].name});
    for (int t = 0; t < P; ++t) {
      const auto& ds = run_.steps[static_cast<size_t>(t)].devices[static_cast<size_t>(d)];
      sc.rects.push_back(TileRect("work." + std::to_string(d + 1) + "." + std::to_string(t + 1), 0.8f + label_w + cell_w * static_cast<float>(t), y,
                              cell_w - 0.3f, cell_h, cell_state(d, t), pal, t < k ? FormatInt(ds.pairs) : "", ""));  // the painter adds the state's symbol
    }
  }
  sc.width = kW;
  sc.height = grid_y + (cell_h + 0.2f) * static_cast<float>(P) + 0.6f;
  return sc;
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
