// The GPU panel's pictures as data (issue 15), shared by the app's GPU panel and `blockwise-cli gpu`:
//  - GpuFrame: what is known of a run at one moment — one cell per (head·Q tile, K/V tile) step,
//    pending, skipped (fully masked: nothing loaded) or done with its %globaltimer start/end and SM;
//    counts of computed and skipped tiles against their totals; bytes loaded and written so far.
//    Filled from live records (AddRecords) or from a recording up to a replay time (FrameAt).
//  - the tile grid: done cells coloured by start time (early = light, late = dark), skipped cells
//    hatched (a stripe pattern at any size), pending cells pale blue-grey;
//  - the SM × time lanes: one lane per streaming multiprocessor, one bar per computed tile from its
//    start to its end — waves, the tail, idle SMs.
// Times are GPU nanoseconds (%globaltimer), relative to the earliest start seen. Sizes in em.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda/gpu_types.h"
#include "view/scene.h"

namespace bw::view {

struct GpuCell {
  enum State : std::uint8_t { kPending = 0, kSkipped = 1, kDone = 2 };
  State state = kPending;
  std::uint32_t smid = 0;
  std::uint64_t t_start_ns = 0, t_end_ns = 0;  // absolute %globaltimer
  std::uint32_t bytes_loaded = 0, bytes_written = 0;  // the tile record's (measured counters)
};

// A tile of the grid: row = head·T_r + i, column j (0-based); -1 = none. The key by which the grid, the
// lanes and the warp timeline highlight one tile together.
struct GpuTileRef {
  int row = -1, col = -1;
  bool operator==(const GpuTileRef&) const = default;
  bool Valid() const { return row >= 0 && col >= 0; }
};
// A scene's rect ids with the tile each stands for (the lanes' bars, the warp timeline's bars).
using GpuBarTiles = std::vector<std::pair<std::string, GpuTileRef>>;

struct GpuFrame {
  int rows = 0, t_c = 0;               // rows = heads · T_r (the grid's height), T_c its width
  int per_head_t_r = 0;
  std::vector<GpuCell> cells;          // rows × T_c, row-major
  std::int64_t computed = 0, skipped = 0;              // tiles seen so far
  std::int64_t computed_total = 0, skipped_total = 0;  // of the whole run (the model's classification)
  std::int64_t loaded_bytes = 0, written_bytes = 0;    // summed from the records seen
  std::uint64_t t0_ns = 0, t_last_ns = 0;              // earliest start and latest end seen (absolute)
  bool any = false;
  int sm_count = 0;                    // lanes in the SM × time view (the device's SM count)
  cuda::MaskKind mask = cuda::MaskKind::None;  // why a skipped tile was skipped (the tooltip says)
  double Fraction() const { return computed_total > 0 ? static_cast<double>(computed) / static_cast<double>(computed_total) : 0.0; }
  int SmsUsed() const;                 // distinct SMs that computed a tile so far
};

// An empty frame for `shape` (sizes, tiling, heads, mask; `skipped_total` from the model or the counters).
GpuFrame MakeGpuFrame(const cuda::RunSummary& shape, std::int64_t skipped_total);
void AddRecords(GpuFrame& f, const std::vector<cuda::TileRecord>& records);
// The frame of recording `run` at `t_ns` GPU nanoseconds after its earliest tile start: every record
// that ended by then. t_ns ≥ RunSpanNs(run) gives the finished run.
GpuFrame FrameAt(const cuda::RunSummary& run, std::uint64_t t_ns);
std::uint64_t RunSpanNs(const cuda::RunSummary& run);  // latest end − earliest start

// The tile grid, in a width × height em box, with its axes: K/V tile j across the top, Q tile i down the
// left (kGridTop and kGridLeft em for them; the cells fill the rest, square). Rect ids "gpu.I,J" (1-based
// row and column), in row-major order and only those; texts "grid.axis.j", "grid.axis.i" (the titles),
// ticks "grid.j.K" and "grid.i.K" (K = 0..c: tile index ⌊K·(n−1)/c⌋ at its cell's centre, c = 4, 2 or 1,
// the most that leave each label a clear gap; only "0" where even the two ends would touch).
inline constexpr float kGridTop = 2.2f, kGridLeft = 3.0f;
// compact: for a thumbnail whose labels the painter will draw larger than their em (a lesson scene shrunk
// for the projector's floors): no tick numbers, one line "Q tile i ↓ · K/V tile j →" over the grid
// ("grid.axes") instead of the two titles, so nothing the floors enlarge can fall on another label. It
// gives no counts: FA3/h2 asks how many SMs worked, and the Q tiles' count (one CTA each) is the answer.
Scene BuildGpuGridScene(const GpuFrame& f, float width_em, float height_em, const std::string& lang, const Palette& palette,
                        bool compact = false);
// The cell size the grid scene uses for `f` in that box (em).
float GpuGridCellEm(const GpuFrame& f, float width_em, float height_em);

// One lane per SM (0 .. sm_count − 1, top to bottom), time left to right over [0, span_ns]; one rect
// per computed tile ("lane.SM.K", K = its order in that lane), a time axis below (ticks "lanes.tick.0..c",
// c = 4, 2 or 1 as the width allows, written by TimeTick). `span_ns` = 0: the frame's own span. Ids:
// "lanes.axis", "lanes.idle" (text with the count of SMs that have run no tile by the frame's time).
// `sms_per_lane` > 1 groups the SMs (issue 33: 132 lanes at 13 em are 0.1 em each): each SM keeps
// its own thin row, every group a band of its own shade with one label "SM a–b"; the label column is
// then 4.6 em wide. Texts "lanes.axis.y" (SM ↓, below the labels) and "lanes.axis.x" (the time axis's
// title, measured) in the axis strip, 2.8 em tall. `bar_tiles` (optional) gets each bar's id and tile.
// Each tick has a mark under the axis ("lanes.tick.mark.K"); the last one is at the axis's end, its label
// ending there. `label_scale`: how much larger than their em the painter will draw the labels (a
// projector's 1.6, SceneFrame::text_scale): the label column (3.2 or 4.6 em), the axis strip (1.2 em a
// row) and the labels' spacing grow with it, and where the count and the axis's title do not fit one
// row the title takes a third, ending under the axis's end. `axis_title`: the axis's title, where not
// "time → (measured)" (a lesson's replay names the span: first tile start → last tile end, 314.4 µs).
Scene BuildSmLanesScene(const GpuFrame& f, std::uint64_t span_ns, float width_em, float height_em, const std::string& lang,
                        const Palette& palette, int sms_per_lane = 1, GpuBarTiles* bar_tiles = nullptr, float label_scale = 1.0f,
                        const std::string& axis_title = {});
// What one SM did over a whole run (times after the run's first tile start): a lesson's lanes band by it.
struct SmUse {
  bool used = false;                      // computed at least one tile
  std::uint64_t first_ns = 0, last_ns = 0;  // its first tile's start, its last tile's end
};
// The lanes of BuildSmLanesScene (one SM a lane) regrouped for a lesson (a teacher's walkthrough of FA3/h2–h6:
// 132 lanes of 1.6 px on a 1080p projector hid the 68 SMs h3 points at): the SMs `use` marks used, in id
// order, on top; the others below in one grey band ("lanes.band.idle", its words "lanes.band.idle.note":
// no CTA, idle for the whole run); each band named by its count in the label column ("lanes.band.used.n",
// "lanes.band.idle.n": "64 SMs", "68 SMs") in place of the SM indices, the bars moved into their SM's row.
// `planned` (the replay's start, nothing run yet): each used SM's span, first start to last end, drawn pale
// ("lanes.plan.SM") with the used band's words ("lanes.band.used.note": CTAs, one per Q tile of `b_r` rows)
// — all of it, the bands and their counts too, the answer to FA3/h2's question (how many SMs get work?):
// held back until the reveal (before it, an empty frame, "lanes.band.all").
void BandSmLanes(Scene& lanes, const std::vector<SmUse>& use, std::uint64_t span_ns, bool planned, float label_scale,
                 const std::string& lang, const Palette& palette, int b_r = 0);
// The smallest group of SMs per lane that gives each group ≥ 1.25 em in `plot_h_em` (1 when every SM fits).
int SmsPerLane(int sm_count, float plot_h_em);

// A time-axis label for `t_ns` on an axis `span_ns` long: one unit per axis (µs for spans under 10 ms,
// ms under 10 s, else s), digits grouped from 100 units up, else one decimal: "1,880 µs", "2,567 ms".
std::string TimeTick(double t_ns, double span_ns);

// A text's width in em at `size` em, estimated: CJK and full-width forms 1 em a character, the rest 0.55
// (Noto Sans CJK's Latin digits and letters average about half an em; an estimate a little over).
float TextEm(const std::string& s, float size);

// Pending cells: a pale blue-grey, apart from the background, the grey stripes and the start-time ramp.
inline constexpr Color kGpuPendingColor{226, 233, 243};

// Start-time colour: frac 0 (first) → light yellow, 1 (last) → dark blue (a perceptual ramp, viridis).
Color StartTimeColor(float frac);

}  // namespace bw::view
