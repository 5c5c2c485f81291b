// Two views of the single-query merge (issue 11), built as scene records like the rest:
//   - the merge equation strip, under the diagram: at a merge event (update:J) the three merge lines with the current
//     values substituted — m′ = max(m, m_b), α = e^(m−m′), β = e^(m_b−m′); l′ = α·l + β·l_b;
//     u′ = α·u + β·u_b — and at the write event o = u′/l′. Terms from the running state (the
//     accumulator box) are teal, terms from the block in SRAM dark amber (Palette::state_term,
//     block_term); the source is FlashAttention-2 §3.1, Algorithm 1 lines 8–10 and 12.
//   - the balance, for d_v = 1, in the heatmap's place: one bar per position, height ∝ its weight p_i (linear, not log),
//     with a bracket per block naming the block's weight; and a number line on which each block's
//     own output u_b/l_b sits with its weight, the weighted mean (the right merge, the output) and
//     the midpoint of the block outputs (the wrong average) marked. The merged points appear as the
//     trace merges them; the mean and the midpoint once every block is in (marked as answers).
// Every number comes from the run (exact fractions when the run is exact).
#pragma once

#include <string>

#include "engine/single_query.h"
#include "view/scene.h"

namespace bw::view {

inline constexpr float kMergeStripHeight = 3.3f;   // em: two lines at the default text size
inline constexpr float kBalanceWidth = 18.0f, kBalanceHeight = 16.4f;  // em: bars above, number line below
inline constexpr float kBalanceHeightProjector = 18.4f;  // em: its texts at a projector's floors (LabelFloors)
// The balance draws a bar per position and a label per block up to these counts; a larger file gets a
// note that says so, and the axis with the two means (issue 31: 65,536 bars and labels).
inline constexpr int kBalanceMaxPositions = 64, kBalanceMaxBlocks = 16;

// Appends the strip's texts with their top at y0 (em) across `width` em, at `text_scale` (1–2) × the
// default size, and returns the height used (em; kMergeStripHeight at the default). At the default the
// m′ line holds α and β and the l′ and u′ lines share a row; whatever does not fit `width` at the
// scale goes onto a line of its own (α, β as "strip.ab"). `floor_line`: the height (em) of a line at
// the text floor the painter holds the strip to (FloorLines::text; 0 = none) — the lines are spaced
// and fitted for it. `key_line` (FloorLines::key on a projector; 0 = none): the merged l′ and u′ and
// the written o are key texts (SceneText::key), on lines of that height, where l′ and u′ share a row at
// that size (raw mode) and o fits its line; else they stay at the text floor.
float AddMergeStrip(Scene& sc, const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                    float y0, float width, float text_scale = 1, float floor_line = 0, float key_line = 0);
// The balance on its own (`width` ≥ kBalanceWidth × kBalanceHeight em): the app shows it where the heatmap
// goes for a single-query scenario — one row of P on a six-decade log scale would show 2/7, 1/7 and
// 4/7 as the same colour; the balance's bars are linear. Empty (no records) when d_v ≠ 1.
// The scene takes its box: a wider box spreads the bars and labels over a wider scene.
// The plain mean of the block outputs equals the output for this input (blocks of equal weight, the
// historical 2,1,3 → 130/6): then it is marked "equal here, by coincidence", never "wrong". Exact
// runs compare the fractions; float runs to 12 significant digits (never a NaN).
bool PlainMeanEqualsOutput(const engine::SingleQueryRun& run);
// The output has been written by `event` (the trace's write event or after it). The wrong "plain mean
// of the block outputs" is shown from then on, beside the output written — not as soon as the last
// block is merged: N50/w2 (update:2) showed the purple 65/3 before w3 asks what went wrong.
bool OutputWrittenAt(const engine::SingleQueryRun& run, int event);

// `projector`: laid out for a projector's LabelFloors (Scene::floors; see AddBalance).
Scene BuildBalanceScene(const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                        float width = kBalanceWidth, bool projector = false);
// The balance's width in em for a box of box_w × box_h pixels whose text is text_px, and in `em` the
// pixels per em to paint it at: as large as the box's height allows, never below 0.7 × text_px (Ctrl +
// enlarges it; the box then scrolls).
float BalanceWidthFor(float box_w, float box_h, float text_px, float* em, bool projector = false);
// Appends the balance with its top at y0 across `width` em; nothing when d_v ≠ 1.
void AddBalance(Scene& sc, const engine::SingleQueryRun& run, int event, const std::string& lang, const Palette& pal,
                float y0, float width, bool projector = false);

}  // namespace bw::view
