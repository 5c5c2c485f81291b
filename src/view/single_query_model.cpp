// ScenarioModel for "single_query" scenarios (file v1): one query row over blocks of keys.
#include "view/single_query_model.h"

#include <set>

#include "view/format.h"
#include "view/merge_views.h"
#include "view/numerics_panel.h"

#include <algorithm>
#include <cmath>

namespace bw::view {

SingleQueryModel::SingleQueryModel(data::SingleQueryScenario sc)
    : scenario_(std::move(sc)), run_(engine::RunSingleQuery(scenario_.problem)) {
  // P for the one row, the true one: e^{s−max s} / Σ e^{s−max s} over the unmasked positions, in
  // either mode (raw mode's own weights may have overflowed or underflowed; the report says so).
  const auto& p = scenario_.problem;
  const bool weights = p.score_kind == engine::ScoreKind::kWeights;
  const auto logit = [&](size_t i) {
    return weights ? (p.scores[i] > 0 ? std::log(p.scores[i]) : -INFINITY) : p.scores[i];
  };
  double s_max = -INFINITY, l = 0;
  for (size_t i = 0; i < p.scores.size(); ++i) s_max = std::max(s_max, logit(i));
  for (size_t i = 0; i < p.scores.size(); ++i) l += std::isinf(s_max) ? 0.0 : std::exp(logit(i) - s_max);
  for (size_t i = 0; i < p.scores.size(); ++i)
    probabilities_.push_back(static_cast<float>(l > 0 ? std::exp(logit(i) - s_max) / l : 0.0));
}

int SingleQueryModel::EventCount() const { return static_cast<int>(run_.events.size()); }
std::string SingleQueryModel::EventLabel(int e) const { return run_.events[e].label; }
std::vector<data::AcceptedPosition> SingleQueryModel::AcceptedPositions() const {
  using data::PositionForm;
  const int blocks = run_.BlockCount();
  return {{PositionForm::kStart}, {PositionForm::kLoad, false, blocks}, {PositionForm::kUpdate, false, blocks},
          {PositionForm::kWrite}, {PositionForm::kEnd}};
}
int SingleQueryModel::Find(const data::Position& p) const {
  using data::PositionForm;
  using engine::QueryEventKind;
  if (p.form == PositionForm::kEnd) return EventCount() - 1;
  const QueryEventKind kind = p.form == PositionForm::kLoad     ? QueryEventKind::kLoadBlock
                              : p.form == PositionForm::kUpdate ? QueryEventKind::kUpdate
                              : p.form == PositionForm::kWrite  ? QueryEventKind::kWriteOutput
                                                                : QueryEventKind::kStart;
  for (int e = 0; e < EventCount(); ++e)
    if (run_.events[e].kind == kind && run_.events[e].block == p.n) return e;   // n = 0: start, write
  return -1;
}

Scene SingleQueryModel::BuildScene(int e, const std::string& lang, const Palette& palette, const SceneFrame& frame) const {
  const auto at = [&](float ts, FloorLines fl) {
    Scene sc = BuildQueryScene(run_, e, lang, palette, ts, frame.floors, fl);
    sc.floors = frame.floors;
    // The input the diagram runs, named on it: a lesson may draw one input and quote another. At the
    // floors it is a line at the text floor, wrapped across the HBM panel's foot (at most two lines).
    if (!frame.floors) {  // one line inside the HBM panel, cut with "…" (the top bar has the title too)
      const auto* hbm = sc.FindRect("hbm");
      std::vector<std::string> lines = WrapEstimated(scenario_.title.In(lang), (hbm->w - 2.0f) / 0.8f, 1);
      if (lines.size() > 1) lines.resize(1), lines[0] += "\u2026";
      sc.texts.push_back({"scenario.title", 1, sc.height - 3.5f, 0.8f, palette.text_muted, lines.empty() ? "" : lines[0]});
    } else {
      // At the painter's scale (frame.text_scale over the ts laid out here) the caption is 1.05 × that
      // em, and never under the floor's line; the HBM and SRAM panels grow down to hold its lines.
      const auto* o = sc.FindRect("hbm.o");
      const auto* hbm = sc.FindRect("hbm");
      const float size = 1.05f, painted = std::max(size * std::max(1.0f, frame.text_scale / ts), fl.text);
      const float top = o->y + o->h + 0.3f, pitch = std::max(1.05f * painted, fl.text + 0.1f);
      std::vector<std::string> lines = WrapEstimated(scenario_.title.In(lang), (hbm->w - 2.0f) / painted, 2);
      if (lines.size() > 2) lines.resize(2), lines[1] += "\u2026";
      // One text of its lines: placed as one box, the second line cannot be moved away from the first
      // (as a text of its own it was kept clear of the first line's margin and moved up onto the S, P
      // tile: "(4, 8, 2, 6, 5, 1)" at N51/t2 on a 1280 × 720 laptop, issue 29).
      std::string joined;
      for (const auto& line : lines) joined += (joined.empty() ? "" : "\n") + line;
      sc.texts.push_back({"scenario.title", 1, top, size, palette.text_muted, joined});
      // The panels reach below the last line (compared with the HBM panel's own bottom: the scene's
      // height is not it, and a second line past the panel's foot was moved up by the painter onto
      // the S, P tile — "(4, 8, 2, 6, 5, 1)" at N51/t2 on a 1280 × 720 laptop, issue 29).
      const float bottom = top + pitch * static_cast<float>(lines.size()) + 0.3f + 0.25f * painted;  // (and a quarter line: the painter rounds sizes up)
      const float hbm_bottom = hbm->y + hbm->h;
      if (bottom > hbm_bottom) {
        for (auto& r : sc.rects)
          if (r.id == "hbm" || r.id == "sram") r.h = bottom - r.y;
        sc.height = std::max(sc.height, bottom + (sc.height - hbm_bottom));
      }
    }
    // Under the diagram: the merge with its values substituted (merge_views.h).
    const float strip_y = sc.height + 0.5f;
    const float key_line = frame.floors && frame.projector ? fl.key : 0.0f;  // a projector's merged l′, u′ at the key size
    AddMergeStrip(sc, run_, e, lang, palette, strip_y, sc.width, ts, fl.text, key_line);
    // The strip's tallest merge (or written o) sets its height, so that stepping never rescales the
    // diagram. Past kStripSample merges, that many spread evenly over the file and the write (a file of
    // 65,536 blocks laid out every merge at every event): the others are assumed no taller.
    float strip_h = kMergeStripHeight;
    const int count = run_.BlockCount(), stride = std::max(1, count / kStripSample);
    std::vector<int> events = {EventCount() - 1};   // the write
    for (int j = 1; j <= count; j += stride) events.push_back(run_.FindEvent("update:" + std::to_string(j)));
    if (count > 0) events.push_back(run_.FindEvent("update:" + std::to_string(count)));
    for (const int k : events) {
      Scene scratch;
      strip_h = std::max(strip_h, AddMergeStrip(scratch, run_, k, lang, palette, 0, sc.width, ts, fl.text, key_line));
    }
    sc.height = strip_y + strip_h;
    sc.text_scale = ts;
    return sc;
  };
  // At the floors the boxes are sized for the lines the painter draws there (FloorLines), which are
  // fixed in pixels: the scene's px per em is found by laying it out, fitting it to the box and laying
  // it out again for that scale (a taller scene is drawn smaller, its floors' lines then take more em)
  // until the scale settles. Without a box (tests, the CLI) it is laid out for a 1920×1080 projector.
  const auto fitted = [&](float ts) {
    // (Only a projector's. A laptop's floors, 14 px em at 720 rows, have no larger key size: its
    // boxes hold key lines as tall as the text's, and a taller diagram there only took lines from the
    // step text.)
    if (!frame.floors || frame.width_px <= 0 || frame.height_px <= 0) return at(ts, frame.floors ? kProjectorFloorLines : FloorLines{});
    if (!frame.projector) return at(ts, {kProjectorFloorLines.text, kProjectorFloorLines.text});
    // (Where the box is too short for the floors' lines at any scale the loop would shrink the scene
    // without end: it stops at 0.8 × the first scale, and the painter draws what does not fit at the
    // text floor.)
    Scene sc = at(ts, kProjectorFloorLines);
    const auto fit = [&](const Scene& s) { return std::min(frame.width_px / s.width, frame.height_px / s.height); };
    float em_px = fit(sc);
    // A projector's box far too small for its floors (a line at the floor over 1.25× a 1080p
    // projector's) keeps the default layout: the painter shows what fits, and the loop below is not
    // left to shrink the scene to its 0.8 limit. (Phones and laptops returned above.)
    if (FloorLinesAt(frame, em_px).text > 1.25f * kProjectorFloorLines.text) return sc;
    const float least = 0.8f * em_px;
    for (int k = 0; k < 8; ++k) {
      sc = at(ts, FloorLinesAt(frame, em_px));
      const float next = std::max(least, fit(sc));
      if (std::abs(next - em_px) < 0.002f * em_px) break;
      em_px = next;
    }
    return sc;
  };
  // Ctrl + (up to 2×) is laid out here, as far as the box allows without shrinking the diagram: the
  // scene fills the box's width, and the accumulator's rows and the strip's lines grow into the
  // height the box has below that. What is left of the scale the painter applies where text fits.
  Scene sc = fitted(1);
  const float want = std::clamp(frame.text_scale, 1.0f, 2.0f);
  // A projector's scene keeps the default layout and its height (the painter enlarges what fits, and
  // holds every label to the floors): a taller accumulator would shrink everything else.
  if (want <= 1 || frame.width_px <= 0 || frame.height_px <= 0 || frame.projector) return sc;
  const float room = std::max(sc.height, frame.height_px * sc.width / frame.width_px);   // em
  for (float ts = want; ts > 1.001f; ts = std::max(1.0f, ts - 0.1f))
    if (Scene bigger = fitted(ts); bigger.height <= room + 1e-3f) return bigger;
  return sc;
}

Quantities SingleQueryModel::QuantitiesAt(int e) const { return view::QuantitiesAt(run_, e); }

std::vector<PanelSection> SingleQueryModel::Panels(int e, const std::string& lang) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  const int merged = run_.BlocksMergedAt(e);
  // The block table lists at most kPanelBlockRows blocks, those around the current one; the rest
  // are one row each side that says how many (issue 31: a 2,048-block file formatted every block's
  // numbers at every event). Only the listed blocks' quantities are formatted.
  const int count = run_.BlockCount();
  const int first = count <= kPanelBlockRows ? 1 : std::clamp(merged - kPanelBlockRows / 2, 1, count - kPanelBlockRows + 1);
  const int last = std::min(count, first + kPanelBlockRows - 1);
  Quantities q = StateQuantitiesAt(run_, e);
  for (int j = first; j <= std::min(last, merged); ++j) AddBlockQuantities(q, run_, j);
  if (merged > 1) AddBlockQuantities(q, run_, merged - 1);   // the rows "before" and "block j" quote these
  if (merged > 0) AddBlockQuantities(q, run_, merged);
  // Predict, then reveal: what the trace has not reached yet is not shown. A block's own (m_b, l_b,
  // u_b) appear once it is merged; the true output once every block is in, the wrong average once the
  // output is written (before that its row says so: it is a comparison the algorithm never computes,
  // not a number it has not reached — N50/w2).
  const bool all_in = merged == run_.BlockCount();
  const std::string not_yet = T(Str::not_yet);
  PanelSection acc;
  acc.id = "accumulator";
  acc.title = T(Str::panel_accumulator);
  const auto& tau = run_.problem.rescale_threshold;
  const std::string mode = tau ? UiFormat(Str::mode_conditional, lang, {FormatDouble(*tau)})
                               : T(run_.problem.mode == engine::SoftmaxMode::kRaw ? Str::mode_raw : Str::mode_stable);
  acc.rows.push_back({T(Str::mode), mode + (run_.exact ? "  \u00b7  " + T(Str::exact_note) : "")});
  const bool raw = run_.problem.mode == engine::SoftmaxMode::kRaw;  // raw: no maximum is subtracted, no m, no rescale
  const auto key = [](PanelRow r) {
    r.key = true;
    return r;
  };
  if (!raw) acc.rows.push_back(key({tau ? T(Str::m_reference) : "m", q.at("m")}));
  acc.rows.push_back(key({"l", q.at("l")}));
  acc.rows.push_back(key({"u", q.at("u")}));
  acc.rows.push_back(key({T(Str::output_so_far), q.at("output_so_far")}));
  if (merged > 0) {
    // The merge that produced this state: the old (m, l, u), its rescale factor, the block's share.
    const std::string j = std::to_string(merged);
    const std::string before = merged > 1 ? "@" + std::to_string(merged - 1) : "";
    const std::string m_before = raw ? "" : q.at("m" + before) + ", ";
    acc.rows.push_back({T(Str::before) + (raw ? " (l, u)" : " (m, l, u)"), merged > 1 ? m_before + q.at("l" + before) + ", " + q.at("u" + before)
                                                                                   : T(raw ? Str::empty_state_raw : Str::empty_state)});
    // The factor answers "what happens to the old l and u?" (RC-T3/b1), and its name says "rescale":
    // the row is held back while a question is open. Raw mode never rescales.
    // FA-4 (tau): how many merges so far kept m (the output is the same: u and l share it), on the
    // rescale's own line: a row of its own overfilled a projector's panel (FA3/h10).
    const bool skipped = run_.blocks[static_cast<size_t>(merged - 1)].rescale_skipped;
    int so_far = 0;
    for (int b = 0; b < merged; ++b) so_far += run_.blocks[static_cast<size_t>(b)].rescale_skipped ? 1 : 0;
    const std::string count = std::to_string(so_far), of = std::to_string(merged);
    std::string factor = q.at("alpha@" + j);
    if (skipped) factor += "  \u00b7  " + UiFormat(Str::rescale_skipped_note, lang, {count, of});
    else if (tau) factor += "  \u00b7  " + T(Str::rescales_skipped) + " " + count + " / " + of;
    if (!raw) acc.rows.push_back({T(Str::rescale) + " (" + T(Str::block) + " " + j + ")", factor, false, -1, true, true});
    acc.rows.push_back({T(Str::block) + " " + j + (raw ? " (l_b, u_b)" : " (m_b, l_b, u_b)"),
                        (raw ? "" : q.at("m_b@" + j) + ", ") + q.at("l_b@" + j) + ", " + q.at("u_b@" + j)});
  }
  PanelRow truth{T(Str::true_output), all_in ? q.at("reference") : not_yet};
  truth.answer = true;
  acc.rows.push_back(key(truth));
  acc.rows.push_back(key({T(Str::blocked_output), all_in ? q.at("output") : not_yet}));
  // Marked wrong only where it is: with blocks of equal weight (the historical 2,1,3) the mean of
  // the block outputs happens to equal the output.
  // The wrong average beside the output written (OutputWrittenAt), not as soon as the last block is in.
  const bool written = OutputWrittenAt(run_, e);
  const bool coincide = written && PlainMeanEqualsOutput(run_);
  PanelRow wrong{T(coincide ? Str::average_coincidence : Str::wrong_average), written ? q.at("average") : T(Str::after_write), written && !coincide};
  wrong.answer = true;
  acc.rows.push_back(key(wrong));
  if (run_.all_masked) {
    PanelRow note{T(Str::note), T(Str::all_masked)};
    note.notice = true;
    acc.rows.push_back(note);
  }

  PanelSection blocks;
  blocks.id = "blocks";
  blocks.title = T(Str::block_contrib);
  blocks.columns = {"#", "m_b", "l_b", "u_b", "u_b/l_b"};
  const auto not_listed = [&](int from, int to) {
    blocks.rows.push_back({std::to_string(from) + "\u2013" + std::to_string(to),
                           FormatInt(to - from + 1) + " " + T(Str::blocks_not_listed) + "\t\t\t"});
  };
  if (first > 1) not_listed(1, first - 1);
  for (int k = first; k <= last; ++k) {
    const auto& b = run_.blocks[static_cast<size_t>(k) - 1];
    const std::string j = std::to_string(b.block);
    if (b.block > merged) {
      blocks.rows.push_back({j, not_yet + "\t" + not_yet + "\t" + not_yet + "\t" + not_yet});
      continue;
    }
    blocks.rows.push_back({j, q.at("m_b@" + j) + "\t" + q.at("l_b@" + j) + "\t" + q.at("u_b@" + j) + "\t" +
                                  q.at("local_output@" + j)});
  }
  if (last < count) not_listed(last + 1, count);
  std::vector<PanelSection> out = {acc, blocks};
  AddNumericsSection(out, run_.numerics, lang, InputPaths(scenario_));
  return out;
}

std::vector<TimelineMark> SingleQueryModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < EventCount(); ++e) {
    const auto k = run_.events[e].kind;
    if (k == engine::QueryEventKind::kStart || k == engine::QueryEventKind::kLoadBlock ||
        k == engine::QueryEventKind::kWriteOutput)
      marks.push_back({e, run_.events[e].label});
  }
  return marks;
}

std::optional<Heatmap> SingleQueryModel::HeatmapAt(int e) const {
  Heatmap h;
  h.rows = 1;
  h.cols = static_cast<int>(probabilities_.size());
  h.values = probabilities_.data();
  h.title = "P = w / \u03a3w";
  const int b = run_.BlockInSramAt(e);
  if (b > 0) {
    h.r0 = 0, h.r1 = 1;
    h.c0 = run_.blocks[b - 1].begin;
    h.c1 = run_.blocks[b - 1].end;
  }
  return h;
}

std::vector<std::string> SingleQueryModel::Texts() const {
  std::vector<std::string> texts = {scenario_.title.zh, scenario_.title.en, scenario_.file};
  // Every number the file can show: each block's own quantities do not depend on the event, so
  // the quantities at the last event list them all once (O(blocks), not O(blocks²)). A file larger
  // than the panel's table lists its first blocks' and the characters any number is written with.
  const bool small = run_.BlockCount() <= kPanelBlockRows && run_.problem.scores.size() <= 4096;
  Quantities q = small ? QuantitiesAt(EventCount() - 1) : StateQuantitiesAt(run_, EventCount() - 1);
  for (int j = 1; !small && j <= std::min(run_.BlockCount(), kPanelBlockRows); ++j) AddBlockQuantities(q, run_, j);
  for (const auto& [k, v] : q) texts.push_back(v);
  if (!small) texts.push_back(kNumberGlyphs);
  // Panels and scenes differ only in digits between events of one kind ("load:2", "load:3"): the
  // first event of each kind among the first 64, and the last event. A 2,048-block file built all
  // 4,098 scenes here (issue 31, item 9).
  // GlyphCoverage.ModelTextsHoldEveryEventsCharacters checks every event of every shipped file.
  std::vector<int> sample;
  for (int e = 0; e < std::min(EventCount(), 64); ++e) sample.push_back(e);
  sample.push_back(EventCount() - 1);
  std::set<std::string> kinds;
  for (const int e : sample) {
    std::string kind = EventLabel(e);
    std::erase_if(kind, [](char c) { return c >= '0' && c <= '9'; });
    if (!kinds.insert(kind).second && e != EventCount() - 1) continue;
    for (const auto* lang : {"zh", "en"}) {
      AppendPanelTexts(Panels(e, lang), texts);
      // The merge strip's and the balance's texts (α, β, ′, fractions) for the font's glyph ranges.
      for (const Scene& sc : {BuildScene(e, lang, ClassroomPalette()), BuildBalanceScene(run_, e, lang, ClassroomPalette())})
        for (const auto& t : sc.texts) texts.push_back(t.text);
    }
  }
  return texts;
}

}  // namespace bw::view
