// The diagram of a recorded GPU run at one replay moment (GpuRunModel::BuildScene): a title, the tile
// grid and the SM × time lanes of gpu_scene.h side by side, and a line of what is done; at "compare"
// both runs' lanes on one time axis. See gpu_run_model.h.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "view/format.h"
#include "view/gpu_run_model.h"
#include "view/gpu_text.h"
#include "view/gpu_warps.h"
#include "view/ui_text.h"

namespace bw::view {

namespace {

// Layout, in em, at full size (tests and the CLI, where the box is not known).
constexpr float kWidth = 46.0f, kTitleH = 2.0f, kGridSide = 17.0f, kGap = 1.6f, kLineH = 2.2f;
// The smallest label gpu_scene.h draws (the lanes' SM labels), in em.
constexpr float kSmallestLabelEm = 0.7f;

// A line of `size` em text as the painter draws it: the font's line height (Noto Sans CJK 1.448 em) times
// the text scale the painter applies (a projector's 1.6 enlarges every label).
float LineEm(float size, const SceneFrame& frame) { return size * frame.line_per_em * std::max(1.0f, frame.text_scale); }
// The layout for the frame's box: full size (kWidth × FixedH + kGridSide em) where that puts the smallest
// label (the lanes' 0.7 em SM labels) at the frame's floor or above, and where the box is not known
// (tests, the CLI); else laid out at the em the floor needs (a laptop's 14 px em at 720 rows, a
// projector's 24 at 1080) to fill the box: the title and the line of what is done at 0.8 em, each on one
// line where it fits the width, else on two (cut at a " · "), the grid a square of the height left, the
// lanes the width beside it. (Shrunk to kWidth·k × kGridSide·k, the scene left a third of a projector's
// box empty beside it; with two lines each a projector's lanes had a plot 3 em high.)
struct Fit {
  bool full = true;
  float width = kWidth, side = kGridSide, gap = kGap;
  int title_lines = 1, now_lines = 1;
};
// The title and the lines of what is done as drawn, and all the height that is not the grid's (the gap
// of 0.5 em above what is done). (Laid out for lines 1 em high, a projector's two title lines, 2 em each
// as drawn, fell on the lanes.)
float TitleH(const Fit& fit, const SceneFrame& frame) {
  if (fit.full) return std::max(kTitleH, 0.2f + LineEm(1.1f, frame) + 0.1f);
  return 0.1f + (fit.title_lines == 1 ? LineEm(0.8f, frame) : LineEm(0.9f, frame) + LineEm(0.8f, frame)) + 0.1f;
}
float NowLineEm(const SceneFrame& frame) { return LineEm(0.8f, frame) + 0.05f; }
float FixedH(const Fit& fit, const SceneFrame& frame) {
  if (fit.full) return TitleH(fit, frame) + std::max(kLineH, 0.5f + LineEm(0.95f, frame) + 0.1f);
  return TitleH(fit, frame) + 0.5f + static_cast<float>(fit.now_lines) * NowLineEm(frame) + 0.1f;
}
// The px per em that draws a label of `smallest_em` at the frame's floor (the box known).
float EmForFloor(const SceneFrame& frame, float smallest_em) {
  const float floor_px = frame.floor_text_px > 0 ? frame.floor_text_px : (frame.projector ? 24.0f : 14.0f);
  // The floors are ink ems (an ideograph's advance, 1 / line_per_em of the font size: Noto Sans CJK's
  // 1 / 1.448), the labels' sizes font sizes: without the ratio the SM labels came out at 17.7 px em on
  // a 1920×1080 projector (0.69 of the 24 floor, less the placer's step back). The painter draws every
  // label text_scale times its em (a projector's 1.6): that much less em_px is needed — the default scale
  // only (1.6 on a projector, else 1): with Ctrl + the labels grow past the floor, as other scenes' do,
  // and the lines' heights (LineEm) make room for them (fitted at the larger scale, Ctrl + drew FA3/h8a's
  // labels no larger: Geometry.LabelsNeverCollideAtAnySizeAndFont).
  const float ts = std::max(1.0f, frame.text_scale);
  return 1.08f * floor_px * frame.line_per_em / (smallest_em * std::min(ts, frame.projector ? 1.6f : 1.0f));
}

Fit FitFor(const SceneFrame& frame, const std::string& title, const std::string& now) {
  if (frame.width_px <= 0 || frame.height_px <= 0) return {};
  const float ts = std::max(1.0f, frame.text_scale);
  const float em_needed = EmForFloor(frame, kSmallestLabelEm);
  if (std::min(frame.width_px / kWidth, frame.height_px / (FixedH(Fit{}, frame) + kGridSide)) >= em_needed) return {};
  const float w = frame.width_px / em_needed, h = frame.height_px / em_needed;
  Fit fit;
  fit.full = false;
  fit.width = std::max(w, 12.0f);
  const auto lines = [&](const std::string& s) { return TextEm(s, 0.8f) * ts / frame.line_per_em <= fit.width ? 1 : 2; };
  fit.title_lines = lines(title);
  fit.now_lines = lines(now);
  fit.side = std::clamp(std::min(h - FixedH(fit, frame), 0.36f * fit.width), 4.0f, kGridSide);
  fit.gap = std::min(kGap, 0.1f * fit.side);
  return fit;
}

std::string Fixed1(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

// Appends `from` to `to`, moved by (dx, dy), its ids prefixed with `prefix`.
void Append(Scene& to, Scene from, float dx, float dy, const std::string& prefix = "") {
  for (auto& r : from.rects) {
    r.id = prefix + r.id;
    r.x += dx, r.y += dy;
    to.rects.push_back(std::move(r));
  }
  for (auto& a : from.arrows) {
    a.id = prefix + a.id;
    for (auto& p : a.points) p.x += dx, p.y += dy;
    a.label_at.x += dx, a.label_at.y += dy;
    to.arrows.push_back(std::move(a));
  }
  for (auto& t : from.texts) {
    t.id = prefix + t.id;
    t.x += dx, t.y += dy;
    to.texts.push_back(std::move(t));
  }
}

SceneText Text(const std::string& id, float x, float y, float size, Color c, std::string s) {
  SceneText t{id, x, y, size, c, std::move(s)};
  return t;
}

std::string LanesTitle(const cuda::RunSummary& r, const GpuRunStats& s, const std::string& lang) {
  return GpuFormat(GpuStr::lanes_title_events, lang,
                  {KernelWords(r, lang), Fixed1(r.kernel_ms * 1e3), std::to_string(s.sms_used), std::to_string(r.sm_count), Fixed1(100 * s.idle_share)});
}

}  // namespace

Scene GpuRunModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  const Event& ev = events_.at(static_cast<size_t>(e));
  if (ev.kind == Event::kCompare) return CompareScene(lang, pal);
  if (scenario_.warps) return WarpScene(lang, pal, frame);
  // Shrunk for the frame's floors, the title and the line of what is done take two lines each.
  Scene sc;
  sc.background = pal.background;
  const std::string title = UiFormat(Str::grun_scene_title, lang, {KernelWords(run_, lang), run_.device_name});
  // Nothing is done at the start: a frame at t = 0 would hold the first tiles that end at once.
  const GpuFrame f = ev.kind == Event::kStart ? MakeGpuFrame(run_, run_.counters.tiles_skipped) : FrameAt(run_, ev.t_ns);
  const auto now_at = [&](bool start, std::uint64_t t, std::int64_t done, int busy) {
    return UiFormat(Str::grun_scene_now, lang,
                    {Fixed1(static_cast<double>(start ? 0 : t) / 1e3) + " µs", Fixed1(static_cast<double>(stats_.span_ns) / 1e3) + " µs",
                     FormatInt(start ? 0 : done), FormatInt(stats_.tiles_computed), std::to_string(start ? 0 : busy)});
  };
  const std::string now = now_at(ev.kind == Event::kStart, ev.t_ns, f.computed, ev.kind == Event::kStart ? 0 : BusySmsAt(run_, ev.t_ns));
  // Laid out for the longest line of what is done (the end's, with every count at its largest), so that
  // the layout does not change from one moment of the replay to the next.
  const Fit fit = FitFor(frame, title, now_at(false, stats_.span_ns, stats_.tiles_computed, run_.sm_count));
  const float width = fit.width, side = fit.side, title_h = TitleH(fit, frame);
  const float ts = std::max(1.0f, frame.text_scale);
  sc.width = width;
  // A line cut at its middle " · " into two texts (the painter does not wrap a free text).
  const auto split = [](const std::string& s) -> std::pair<std::string, std::string> {
    const std::string sep = " \u00b7 ";
    size_t best = std::string::npos;
    for (size_t at = s.find(sep); at != std::string::npos; at = s.find(sep, at + 1))
      if (best == std::string::npos || std::abs(static_cast<long>(at) - static_cast<long>(s.size() / 2)) <
                                           std::abs(static_cast<long>(best) - static_cast<long>(s.size() / 2)))
        best = at;
    if (best == std::string::npos) return {s, ""};
    return {s.substr(0, best), s.substr(best + sep.size())};
  };
  if (fit.full) {
    sc.texts.push_back(Text("run.title", 0, 0.2f, 1.1f, pal.text, title));
  } else if (fit.title_lines == 1) {
    sc.texts.push_back(Text("run.title", 0, 0.1f, 0.8f, pal.text, title));
  } else {
    const auto [t1, t2] = split(title);
    sc.texts.push_back(Text("run.title", 0, 0.1f, 0.9f, pal.text, t1));
    if (!t2.empty()) sc.texts.push_back(Text("run.title.2", 0, 0.1f + LineEm(0.9f, frame), 0.8f, pal.text_muted, t2));
  }
  // The grid's tick numbers sit in kGridTop / kGridLeft em; labels drawn much larger than their em (shrunk,
  // or a projector's text scale) fall on each other and on the grid there: one caption line instead.
  const bool compact_grid = !fit.full || frame.text_scale > 1.2f;
  Append(sc, BuildGpuGridScene(f, side, side, lang, pal, compact_grid), 0, title_h);
  const float lanes_x = side + fit.gap;
  // The axis names what it spans (the tile records' first start to last end), apart from the kernel's
  // time the side panel gives (CUDA events, a little longer: launch and the last write included).
  const std::string axis_title = GpuFormat(GpuStr::replay_axis, lang, {Fixed1(static_cast<double>(stats_.span_ns) / 1e3) + " µs"});
  // The SMs that compute in this run on top, the rest in one band below, each band named by its count
  // (gpu_scene.h BandSmLanes); at the start, before anything has run, that split is FA3/h2's answer.
  Scene lanes = BuildSmLanesScene(f, stats_.span_ns, width - lanes_x, side, lang, pal, 1, nullptr, ts, axis_title);
  BandSmLanes(lanes, SmUses(run_), stats_.span_ns, ev.kind == Event::kStart, ts, lang, pal, run_.b_r);
  Append(sc, std::move(lanes), lanes_x, title_h);
  const float y = title_h + side + 0.5f;
  if (fit.full) {
    sc.texts.push_back(Text("run.now", 0, y, 0.95f, pal.text, now));
  } else if (fit.now_lines == 1) {
    sc.texts.push_back(Text("run.now", 0, y, 0.8f, pal.text, now));
  } else {
    // A line of 0.8 em text is 0.8 · 1.448 em high as the painter draws it (Noto Sans CJK) times its
    // text scale: the second line stood 1.15 em below the first, the two zh lines overlapped and the
    // placer moved the second one above the first, onto the grid.
    const auto [n1, n2] = split(now);
    sc.texts.push_back(Text("run.now", 0, y, 0.8f, pal.text, n1));
    if (!n2.empty()) sc.texts.push_back(Text("run.now.2", 0, y + NowLineEm(frame), 0.8f, pal.text, n2));
  }
  sc.height = side + FixedH(fit, frame);
  return sc;
}

Scene GpuRunModel::WarpScene(const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  // The panel's warp timeline (gpu_warps.h), zoomed on three tiles of one CTA, laid out as the panel lays
  // it out for labels drawn at their em, then every position and size but the texts' multiplied by the
  // text scale the painter applies (a projector's 1.6): the rows, the label column and the legend's wrap
  // grow with the labels. Its smallest labels (the rows', the ticks', the legend's) are 0.8 em: where the
  // box is known the scene is as wide as puts them at the frame's floor (FitFor's rule).
  const float ts = std::max(1.0f, frame.text_scale);
  float width = kWidth;
  if (frame.width_px > 0 && frame.height_px > 0) width = std::max(frame.width_px / EmForFloor(frame, 0.8f), 12.0f * ts);
  Scene sc = BuildWarpTimelineScene(run_, 1, width / ts, lang, pal, nullptr, /*zoom_only=*/true);
  for (auto& t : sc.texts) {
    if (t.id == "warps.title") t.text = GpuFormat(GpuStr::warps_measured_on, lang, {run_.device_name});
    t.x *= ts, t.y *= ts;
  }
  for (auto& r : sc.rects) r.x *= ts, r.y *= ts, r.w *= ts, r.h *= ts;
  sc.width *= ts, sc.height *= ts;
  return sc;
}

Scene GpuRunModel::CompareScene(const std::string& lang, const Palette& pal) const {
  Scene sc;
  sc.width = kWidth;
  sc.background = pal.background;
  const std::uint64_t span = std::max(stats_.span_ns, compare_stats_.span_ns);
  const float lanes_h = 9.0f;
  float y = 0.2f;
  const cuda::RunSummary* runs[2] = {&run_, &*compare_};
  const GpuRunStats* stats[2] = {&stats_, &compare_stats_};
  for (int i = 0; i < 2; ++i) {
    sc.texts.push_back(Text("cmp.title." + std::to_string(i + 1), 0, y, 1.0f, pal.text, LanesTitle(*runs[i], *stats[i], lang)));
    y += 1.8f;
    const GpuFrame f = FrameAt(*runs[i], span);
    Append(sc, BuildSmLanesScene(f, span, kWidth, lanes_h, lang, pal), 0, y, i == 0 ? "" : "cmp.");
    y += lanes_h + 1.0f;
  }
  sc.height = y;
  return sc;
}

}  // namespace bw::view
