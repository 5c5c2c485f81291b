// The merge equation strip and the balance under the single-query diagram; see merge_views.h.
#include "view/merge_views.h"

#include <algorithm>
#include <cmath>

#include "view/format.h"

namespace bw::view {

namespace {

using engine::Rational;

// A number as the strip shows it: the exact fraction when the run is exact, else 4 digits.
std::string Num(double x, const Rational* ex) { return ex ? FormatFraction(*ex) : FormatDouble(x); }
std::string LogNum(double m, const Rational* M) { return M ? FormatLogOf(*M) : FormatDouble(m); }
std::string VecNum(const Eigen::VectorXd& v, const std::vector<Rational>* ex) {
  if (v.size() == 1) return Num(v(0), ex ? &(*ex)[0] : nullptr);
  std::string s = "(";
  for (Eigen::Index c = 0; c < v.size(); ++c)
    s += (c ? ", " : "") + Num(v(c), ex ? &(*ex)[static_cast<size_t>(c)] : nullptr);
  return s + ")";
}

// A strip line: the merge with its values, which answers most questions asked at a merge
// ("what happens to l and u?", "what is l_2?"), so it is held back while a question is open.
SceneText Line(std::string id, float x, float y, float size, const Palette& pal, std::vector<TextSpan> spans) {
  SceneText t{std::move(id), x, y, size, pal.text, ""};
  t.answer = true;
  for (const auto& s : spans) t.text += s.text;
  t.spans = std::move(spans);
  return t;
}

}  // namespace

float AddMergeStrip(Scene& sc, const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                    float y0, float width, float text_scale, float floor_line, float key_line) {
  const auto& ev = run.events[std::clamp(event, 0, static_cast<int>(run.events.size()) - 1)];
  const float ts = std::clamp(text_scale, 1.0f, 2.0f);
  const float x = 1.0f, size = 1.05f * ts, step = std::max(1.45f * ts, floor_line + 0.12f), x_u = 27.0f, room = width - 2 * x;
  const float pad = 0.4f * ts;   // below the last line
  // The width at the floor (a line's height over the font's 1.448 per em), where that is the larger.
  const float painted = std::max(size, floor_line / 1.448f);
  // The merged l′ and u′ and the written o are the numbers a merge step is about: key texts at the key
  // floor where one is given (a projector: 36 px em at 1080 rows), spaced and fitted for it.
  const bool key = key_line > 0;
  const float key_step = key ? std::max(step, key_line + 0.12f) : step, key_painted = std::max(painted, key_line / 1.448f);
  const auto fits = [&](const SceneText& t, float from) { return from + EstimateWidthEm(t.text) * painted <= x + room; };
  const auto fits_key = [&](const SceneText& t, float from) { return from + EstimateWidthEm(t.text) * key_painted <= x + room; };
  const Color txt = pal.text, st = pal.state_term, bl = pal.block_term;
  if (ev.kind == engine::QueryEventKind::kUpdate) {
    const auto& b = run.blocks[ev.block - 1];
    const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
    const Rational* alpha = ex ? &ex->alpha : nullptr;
    const Rational* beta = ex ? &ex->beta : nullptr;
    const std::string a = Num(b.factors.alpha, alpha), be = Num(b.factors.beta, beta);
    // FA-4's skipped rescale (engine: rescale_skipped): m′ is the kept m, not the max, and m_b − m ≤ τ
    // says why — the formula "m′ = max(m, m_b)" would be false there.
    const std::vector<TextSpan> m_spans =
        b.rescale_skipped
            ? std::vector<TextSpan>{{"m\u2032 = ", txt},
                                    {"m = " + LogNum(b.before.m, ex ? &ex->before.M : nullptr), st},
                                    {"  (", txt},
                                    {"m_b = " + LogNum(b.local.m, ex ? &ex->local.M : nullptr), bl},
                                    {", m_b \u2212 m \u2264 \u03c4 = " + FormatDouble(*run.problem.rescale_threshold) + ")", txt}}
            : std::vector<TextSpan>{{"m\u2032 = max(", txt},
                                    {"m = " + LogNum(b.before.m, ex ? &ex->before.M : nullptr), st},
                                    {", ", txt},
                                    {"m_b = " + LogNum(b.local.m, ex ? &ex->local.M : nullptr), bl},
                                    {") = " + LogNum(b.after.m, ex ? &ex->after.M : nullptr), txt}};
    const std::vector<TextSpan> ab_spans = {{"\u03b1 = e^(m\u2212m\u2032) = " + a, st},
                                            {"    ", txt},
                                            {"\u03b2 = e^(m_b\u2212m\u2032) = " + be, bl}};
    // Raw mode subtracts no maximum: m stays 0 and α = β = 1 at every merge, so the strip says what
    // the merge is there — add the numerators, add the denominators — and names no m, α or β (N50/w1
    // showed "m = 0, α = β = 1" before s1 introduces them, a walkthrough found).
    const bool raw = run.problem.mode == engine::SoftmaxMode::kRaw;
    const std::string a_ = raw ? "" : a + "\u00b7", b_ = raw ? "" : be + "\u00b7";
    SceneText l = Line("strip.l", x, 0, size, pal,
                       {{raw ? "l\u2032 = l + l_b = " : "l\u2032 = \u03b1\u00b7l + \u03b2\u00b7l_b = ", txt},
                        {a_ + Num(b.before.l, ex ? &ex->before.l : nullptr), st},
                        {" + ", txt},
                        {b_ + Num(b.local.l, ex ? &ex->local.l : nullptr), bl},
                        {" = " + Num(b.after.l, ex ? &ex->after.l : nullptr), txt}});
    SceneText u = Line("strip.u", x, 0, size, pal,
                       {{raw ? "u\u2032 = u + u_b = " : "u\u2032 = \u03b1\u00b7u + \u03b2\u00b7u_b = ", txt},
                        {a_ + VecNum(b.before.u, ex ? &ex->before.u : nullptr), st},
                        {" + ", txt},
                        {b_ + VecNum(b.local.u, ex ? &ex->local.u : nullptr), bl},
                        {" = " + VecNum(b.after.u, ex ? &ex->after.u : nullptr), txt}});
    float y = y0;
    if (!raw) {
      // The m′ line with α and β after it when it fits, else α and β on the next line.
      std::vector<TextSpan> joined = m_spans;
      joined.push_back({"    ", txt});
      joined.insert(joined.end(), ab_spans.begin(), ab_spans.end());
      SceneText m = Line("strip.m", x, y, size, pal, joined);
      if (fits(m, x)) {
        sc.texts.push_back(std::move(m));
      } else {
        sc.texts.push_back(Line("strip.m", x, y, size, pal, m_spans));
        y += step;
        sc.texts.push_back(Line("strip.ab", x, y, size, pal, ab_spans));
      }
      y += step;
    }
    // l′ and u′ side by side (u′ in the right column, moved right past a long l′ where the strip is wide
    // enough) when both fit, else one under the other.
    // At the key size only where the two share a row (raw mode's "l′ = l + l_b = 3 + 4 = 7"): stacked
    // at the key size, a stable merge's long lines made the diagram too tall for the floors' layout.
    l.y = y;
    u.x = std::max(x_u, x + EstimateWidthEm(l.text) * key_painted + 1.5f), u.y = y;
    const bool key_row = key && fits_key(l, x) && fits_key(u, u.x);
    if (!key_row) u.x = std::max(x_u, x + EstimateWidthEm(l.text) * painted + 1.5f);
    const bool one_row = key_row || (fits(l, x) && fits(u, u.x));
    const float row_step = key_row ? key_step : step;
    l.key = u.key = key_row;
    if (!one_row) u.x = x, u.y = y += step;
    sc.texts.push_back(std::move(l));
    sc.texts.push_back(std::move(u));
    return y + row_step - y0 + pad;
  }
  if (ev.kind == engine::QueryEventKind::kWriteOutput) {
    const auto& f = run.blocks.back();
    const engine::QueryBlockStep::Exact* ex = f.exact ? &*f.exact : nullptr;
    // A fraction divided by a fraction reads "(75/8) / (9/4)", not "75/8 / 9/4".
    const auto group = [](std::string v) { return v.find('/') != std::string::npos && v.front() != '(' ? "(" + v + ")" : v; };
    sc.texts.push_back(Line("strip.o", x, y0, size, pal,
                            {{"o = u/l = ", txt},
                             {group(VecNum(f.after.u, ex ? &ex->after.u : nullptr)), st},
                             {" / ", txt},
                             {group(Num(f.after.l, ex ? &ex->after.l : nullptr)), st},
                             {" = " + VecNum(run.output, run.exact ? &run.exact->output : nullptr), txt}}));
    sc.texts.back().key = key && fits_key(sc.texts.back(), x);
  } else {
    sc.texts.push_back({"strip.hint", x, y0, 0.9f * ts, pal.text_muted, UiText(Str::strip_hint, lang)});
  }
  // The line it draws (the caller keeps the strip as tall as its tallest event, so that stepping does
  // not move the diagram).
  return std::max(kMergeStripHeight, (sc.texts.back().key ? key_step : step) + pad);
}

Scene BuildBalanceScene(const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal, float width,
                        bool projector) {
  Scene sc;
  sc.width = std::max(kBalanceWidth, width);
  sc.height = projector ? kBalanceHeightProjector : kBalanceHeight;
  sc.background = pal.background;
  sc.floors = projector;
  AddBalance(sc, run, event, lang, pal, 0, sc.width, projector);
  return sc;
}

float BalanceWidthFor(float box_w, float box_h, float text_px, float* em, bool projector) {
  // As large as the box allows, and never smaller than 0.7 of the panel text (the box scrolls).
  const float e = std::max(box_h / (projector ? kBalanceHeightProjector : kBalanceHeight), 0.7f * text_px);
  if (em) *em = e;
  return std::max(kBalanceWidth, box_w / std::max(e, 1.0f));
}

namespace {

// A text's width estimated in em (the painter measures the real one and moves it if needed).
float BalanceTextWidth(const std::string& t, float size) {
  float w = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(t[i]);
    if ((c & 0xC0) != 0x80) w += c < 0x80 ? 0.55f : 1.0f;   // a CJK or symbol glyph ≈ 1 em
  }
  return w * size;
}

// The balance being drawn at one event: what its parts read and the scene they add to. Left the
// weights (AddWeightBars), below them the number line of the values (AddValueAxis) with each merged
// block's output on it (AddBlockOutputs) and, once every block is in, the mean and the plain mean of
// the block outputs (AddMeans).
struct Balance {
  Scene& sc;
  const engine::SingleQueryRun& run;
  const int event;
  const std::string& lang;
  const Palette& pal;
  const float y0, width;
  const bool projector;
  const engine::SingleQueryProblem& p = run.problem;
  const int n = static_cast<int>(p.scores.size());
  const int merged = run.BlocksMergedAt(event);
  const int in_sram = run.BlockInSramAt(event);
  const bool weights = p.score_kind == engine::ScoreKind::kWeights;
  std::vector<double> share{};   // each position's true weight p_i ∝ e^{s_i} (masked: 0)
  double p_max = 0;              // the largest of them
  // A projector's (LabelFloors, ≈ 23 px per em at 1920×1080): texts 1.55 em (24 px em), the two means
  // 2.3 em (36 px em), each an exact fraction without its decimal; the bars without their numbers, the block outputs without their weights (the
  // block's label has it), the axis without its ends, the means on rows of their own under the axis,
  // no legend (the side panel names both means, and says when they are equal by coincidence).
  const float text = projector ? 1.55f : 0.9f;
  const float base = y0 + (projector ? 4.6f : 5.0f);   // the weights' baseline
  // A bar per position and a label per block only while they can be told apart: beyond that (a file
  // may hold 65,536 of each) a note says so, and the axis keeps the two means.
  const bool drawn = n <= kBalanceMaxPositions && run.BlockCount() <= kBalanceMaxBlocks;
  double v_lo = INFINITY, v_hi = -INFINITY;   // the number line's ends
  const float line0 = 2.0f, line1 = width - 2.0f;

  void ComputeShares();
  // A block's weight: e^{m_b}·l_b exactly (M_b·l_b) when the run is exact, else its share of Σ.
  std::string BlockWeight(const engine::QueryBlockStep& b) const {
    if (b.exact) return FormatFraction(b.exact->local.M * b.exact->local.l);
    double s = 0;
    for (int i = b.begin; i < b.end; ++i) s += share[i];
    return FormatDouble(100 * s) + "%";
  }
  TileState StateOf(const engine::QueryBlockStep& b) const {
    if (b.all_masked) return TileState::kMasked;
    if (b.block <= merged) return TileState::kProcessed;   // merged (at its own update too): done, as in scene.cpp
    return b.block == in_sram ? TileState::kInSram : TileState::kPending;
  }
  float At(double v) const { return line0 + static_cast<float>((v - v_lo) / (v_hi - v_lo)) * (line1 - line0); }
  float AddWeightBars();
  void AddValueAxis(float axis_y);
  void AddBlockOutputs(float axis_y);
  void AddMeans(float axis_y);
};

// Each position's true weight p_i ∝ e^{s_i} (masked: 0), max-shifted so nothing overflows.
void Balance::ComputeShares() {
  std::vector<double> logit(n);
  share.assign(n, 0.0);
  double s_max = -INFINITY;
  for (int i = 0; i < n; ++i) {
    logit[i] = weights ? (p.scores[i] > 0 ? std::log(p.scores[i]) : -INFINITY) : p.scores[i];
    s_max = std::max(s_max, logit[i]);
  }
  double total = 0;
  for (int i = 0; i < n; ++i) total += std::isinf(s_max) ? 0.0 : std::exp(logit[i] - s_max);
  p_max = 0;
  for (int i = 0; i < n; ++i) {
    share[i] = total > 0 ? std::exp(logit[i] - s_max) / total : 0.0;
    p_max = std::max(p_max, share[i]);
  }
}

// Left: the weights, linear, one bar per position, bracketed by block (or the note that there are too
// many to draw). Returns the bottom of the note's lines, under which the axis goes when there is one.
float Balance::AddWeightBars() {
  const float left0 = 1.0f, left_w = width - 2.0f, bar_max = 3.6f;
  const float slot = std::min(3.0f, left_w / static_cast<float>(std::max(n, 1)));
  float note_bottom = y0 + 0.5f;   // the note's lines, then the axis under them
  if (!drawn) {
    const std::string note = UiFormat(Str::balance_too_many, lang, {FormatInt(kBalanceMaxPositions), FormatInt(kBalanceMaxBlocks),
                                                                     FormatInt(n), FormatInt(run.BlockCount())});
    int k = 0;
    for (const auto& line : WrapEstimated(note, left_w / text)) {
      sc.texts.push_back({"balance.note." + std::to_string(++k), left0, note_bottom, text, pal.text_muted, line});
      note_bottom += text * 1.45f;
    }
  }
  for (const auto& b : run.blocks) {
    if (!drawn) break;
    const TileStyle style = Style(StateOf(b), pal);
    for (int i = b.begin; i < b.end; ++i) {
      const float h = p_max > 0 ? std::max(0.08f, bar_max * static_cast<float>(share[i] / p_max)) : 0.08f;
      SceneRect r;
      r.id = "balance.w." + std::to_string(i + 1);
      r.x = left0 + slot * static_cast<float>(i) + slot * 0.15f;
      r.w = slot * 0.7f;
      r.y = base - h;
      r.h = h;
      r.fill = style.fill;
      r.border = pal.border;
      r.border_em = 0.05f;
      r.hatched = style.hatched;  // the state in a symbol on the block's bracket label, not on each thin bar
      sc.rects.push_back(r);
      const std::string w = weights ? (p.exact_weights ? FormatFraction((*p.exact_weights)[i]) : FormatDouble(p.scores[i]))
                                    : FormatDouble(p.scores[i]);
      if (!projector) sc.texts.push_back({"balance.wl." + std::to_string(i + 1), r.x, base - h - 1.0f, 0.9f, pal.text, w});
    }
    SceneRect br;
    br.id = "balance.bracket." + std::to_string(b.block);
    br.x = left0 + slot * static_cast<float>(b.begin) + slot * 0.1f;
    br.w = slot * static_cast<float>(b.end - b.begin) - slot * 0.2f;
    br.y = base + 0.25f;
    br.h = 0.14f;
    br.fill = pal.border;
    br.border = pal.border;
    br.border_em = 0;
    sc.rects.push_back(br);
    // A block's weight is its l_b (RC-T3/N50 ask for it): held back while a question is open.
    SceneText bl{"balance.block." + std::to_string(b.block), br.x, base + (projector ? 0.4f : 0.5f), text, pal.text,
                 std::string(StateBadge(StateOf(b))) + (projector ? "" : " " + UiText(Str::block, lang) + " ") + std::to_string(b.block) +
                     ": " + BlockWeight(b)};
    bl.answer = true;
    sc.texts.push_back(std::move(bl));
  }
  return note_bottom;
}

// Below: the number line of the values, with its ends (not on a projector).
void Balance::AddValueAxis(float axis_y) {
  SceneRect axis;
  axis.id = "balance.axis";
  axis.x = line0, axis.y = axis_y, axis.w = line1 - line0, axis.h = 0.12f;
  axis.fill = pal.border, axis.border = pal.border, axis.border_em = 0;
  sc.rects.push_back(axis);
  if (!projector) {
    sc.texts.push_back({"balance.lo", line0 - 0.5f, axis_y + 0.4f, 0.85f, pal.text_muted, FormatDouble(v_lo)});
    sc.texts.push_back({"balance.hi", line1 - 1.5f, axis_y + 0.4f, 0.85f, pal.text_muted, FormatDouble(v_hi)});
  }
}

// Each merged block's output on the line, its label above it on the lower of two levels where
// it clears the labels already placed there (left to right by value, 1 em apart).
void Balance::AddBlockOutputs(float axis_y) {
  std::vector<const engine::QueryBlockStep*> placed_blocks;
  for (const auto& b : run.blocks)
    if (drawn && b.block <= merged && !b.local.IsEmpty()) placed_blocks.push_back(&b);  // not merged yet: nothing to place
  std::stable_sort(placed_blocks.begin(), placed_blocks.end(),
                   [](const auto* a, const auto* b) { return a->local_output(0) < b->local_output(0); });
  float level_end[2] = {-1e9f, -1e9f};
  for (const auto* bp : placed_blocks) {
    const auto& b = *bp;
    const engine::QueryBlockStep::Exact* ex = b.exact ? &*b.exact : nullptr;
    const float cx = At(b.local_output(0));
    SceneRect dot;
    dot.id = "balance.out." + std::to_string(b.block);
    dot.x = cx - 0.4f, dot.y = axis_y - 0.35f, dot.w = 0.8f, dot.h = 0.8f;
    dot.fill = Style(TileState::kProcessed, pal).fill;
    dot.border = pal.border;
    dot.border_em = 0.06f;
    dot.answer = true;   // a block's output u_b/l_b and weight: held back while a question is open
    sc.rects.push_back(dot);
    std::string label = Num(b.local_output(0), ex ? &ex->local_output[0] : nullptr);
    if (!projector) label += " (" + UiText(Str::weight_word, lang) + " " + BlockWeight(b) + ")";
    const float size = projector ? text : 0.95f, w = BalanceTextWidth(label, size);
    const float x = std::clamp(cx - 1.5f, 0.0f, std::max(0.0f, width - w));
    const int level = x >= level_end[0] ? 0 : x >= level_end[1] ? 1 : (level_end[0] <= level_end[1] ? 0 : 1);
    level_end[level] = x + w + 1.0f;
    const float y = projector ? axis_y - 2.2f - 2.0f * static_cast<float>(level) : axis_y - 1.9f - 1.3f * static_cast<float>(level);
    SceneText ol{"balance.outl." + std::to_string(b.block), x, y, size, pal.text, std::move(label)};
    ol.answer = true;
    sc.texts.push_back(std::move(ol));
  }
}

// Once every block is in: the mean (the output) and, once the output is written, the plain mean of
// the block outputs, each a line across the axis with its label, and their legend.
void Balance::AddMeans(float axis_y) {
  const bool exact = run.exact.has_value();
  const std::string right = exact ? FormatExact(run.exact->output[0]) : FormatDouble(run.output(0));
  const std::string mid = exact ? FormatExact(run.exact->average_of_block_outputs[0]) : FormatDouble(run.average_of_block_outputs(0));
  // Each label sits beside its own line, on the side away from the other line, so neither line
  // strikes through the other's label (the right mean is often just beside the plain mean).
  auto marker = [&](const std::string& id, double v, Color c, float dy, const std::string& text, bool right_side) {
    SceneRect m;
    m.id = id;
    m.x = At(v) - 0.1f, m.y = axis_y - 0.9f, m.w = 0.2f, m.h = 1.9f + dy;
    m.fill = c, m.border = c, m.border_em = 0;
    m.answer = true;
    sc.rects.push_back(m);
    if (projector) {  // its line crosses the axis; its label on a row of its own below, from the left,
      // without its decimal ("✓ 160/7": the side panel has "160/7 ≈ 22.86" at the same size)
      sc.rects.back().h = 1.8f;
      const size_t approx = text.find(" \u2248 ");
      SceneText t{id + ".label", 0.5f, axis_y + 1.1f + dy, 2.3f, c, approx == std::string::npos ? text : text.substr(0, approx)};
      t.answer = true;
      t.key = true;
      sc.texts.push_back(t);
      return;
    }
    const float size = 1.0f, w = BalanceTextWidth(text, size);
    float x = right_side ? At(v) + 0.35f : At(v) - 0.35f - w;
    if (x < 0) {  // no room on its side: beside its line on the other side, a row below the other label
      x = At(v) + 0.35f;
      dy += 2.8f;
    } else if (x + w > width) {
      x = At(v) - 0.35f - w;
      dy += 2.8f;
    }
    sc.rects.back().h = 1.9f + dy;   // the line reaches down to its label
    SceneText t{id + ".label", std::max(0.0f, x), axis_y + 0.2f + dy, size, c, text};
    t.answer = true;
    sc.texts.push_back(t);
  };
  const bool mean_right = run.output(0) >= run.average_of_block_outputs(0);
  // A plain mean that happens to equal the output is not wrong here: "=" in the text colour, and the
  // legend says it is a coincidence of this input (N50/h1's 130/6), not the rule.
  const bool coincide = PlainMeanEqualsOutput(run);
  const std::string mid_mark = coincide ? "= " : "\u00d7 ";
  // A non-finite output is never marked right (weights 1e308: "✓ +∞" while the true output is
  // 1e308): "!" and the numerics report beside it names why (issue 31).
  const std::string right_mark = std::isfinite(run.output(0)) ? "\u2713 " : "! ";
  marker("balance.mean", run.output(0), pal.text, 0, right_mark + right, mean_right);
  if (!projector)
    sc.texts.push_back({"balance.legend.mean", 1, y0 + 14.3f, 0.85f, pal.text_muted, "\u2713 " + UiText(Str::balance_mean, lang)});
  if (!OutputWrittenAt(run, event)) return;
  marker("balance.midpoint", run.average_of_block_outputs(0), coincide ? pal.text_muted : pal.wrong, projector ? 3.0f : 1.4f,
         mid_mark + mid, !mean_right);
  if (!projector)
    sc.texts.push_back({"balance.legend.midpoint", 1, y0 + 15.3f, 0.85f, pal.text_muted,
                        mid_mark + UiText(coincide ? Str::balance_coincidence : Str::balance_midpoint, lang)});
}

}  // namespace

void AddBalance(Scene& sc, const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                float y0, float width, bool projector) {
  if (run.problem.values.cols() != 1) return;
  Balance b{.sc = sc, .run = run, .event = event, .lang = lang, .pal = pal, .y0 = y0, .width = width, .projector = projector};
  b.ComputeShares();
  const float note_bottom = b.AddWeightBars();
  for (int i = 0; i < b.n; ++i) {
    b.v_lo = std::min(b.v_lo, b.p.values(i, 0));
    b.v_hi = std::max(b.v_hi, b.p.values(i, 0));
  }
  if (!(b.v_hi > b.v_lo)) b.v_lo -= 1, b.v_hi += 1;
  const float axis_y = b.drawn ? (projector ? b.base + 6.7f : y0 + 10.0f) : note_bottom + 1.5f;
  b.AddValueAxis(axis_y);
  b.AddBlockOutputs(axis_y);
  const bool all_in = b.merged == run.BlockCount();
  if (!all_in || run.all_masked) return;
  b.AddMeans(axis_y);
}

bool OutputWrittenAt(const engine::SingleQueryRun& run, int event) {
  for (int e = 0; e <= event && e < static_cast<int>(run.events.size()); ++e)
    if (run.events[static_cast<size_t>(e)].kind == engine::QueryEventKind::kWriteOutput) return true;
  return false;
}

bool PlainMeanEqualsOutput(const engine::SingleQueryRun& run) {
  if (run.exact) return run.exact->average_of_block_outputs[0] == run.exact->output[0];
  const double a = run.average_of_block_outputs(0), o = run.output(0);
  return std::isfinite(a) && std::isfinite(o) && std::abs(a - o) <= 5e-13 * std::max(std::abs(o), 1e-300);
}

}  // namespace bw::view
