// The diagram of a recorded GPU run at one replay moment (GpuRunModel::BuildScene): a title, the tile
// grid and the SM × time lanes of gpu_scene.h side by side, and a line of what is done; at "compare"
// both runs' lanes on one time axis. See gpu_run_model.h.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "view/format.h"
#include "view/gpu_run_model.h"
#include "view/ui_text.h"

namespace bw::view {

namespace {

// Layout, in em, at full size (tests and the CLI, where the box is not known).
constexpr float kWidth = 46.0f, kTitleH = 2.0f, kGridSide = 17.0f, kGap = 1.6f, kLineH = 2.2f;
// The smallest label gpu_scene.h draws (the lanes' SM labels), in em.
constexpr float kSmallestLabelEm = 0.7f;

// How much to shrink the layout (≤ 1) so that, fitted to the frame's box, its smallest label is painted
// at the frame's floor (a laptop's 14 px em at 720 rows, a projector's 24 at 1080): the labels keep their
// em, the grid and the lanes take fewer em, so the painter's scale grows. 1 where the box is not known.
// Shrunk, the scene is kWidth·k wide and kShrunkFixedH + kGridSide·k high (two lines of title, two of
// what is done).
// One line of what is done, shrunk: 0.85 em text as the painter draws it, its line height (Noto Sans CJK
// 1.448 em) times the text scale the painter still applies (a projector enlarges every label).
float NowLineEm(const SceneFrame& frame) { return 0.85f * frame.line_per_em * std::max(1.0f, frame.text_scale) + 0.05f; }
constexpr float kShrunkFixedH = 2.2f + 0.5f + 2.4f;
float Shrink(const SceneFrame& frame) {
  if (frame.width_px <= 0 || frame.height_px <= 0) return 1.0f;
  const float floor_px = frame.floor_text_px > 0 ? frame.floor_text_px : (frame.projector ? 24.0f : 14.0f);
  // the painter draws every label text_scale times its em (a projector's 1.6): that much less em_px is needed
  const float em_needed = 1.08f * floor_px / (kSmallestLabelEm * std::max(1.0f, frame.text_scale));
  if (std::min(frame.width_px / kWidth, frame.height_px / (kTitleH + kGridSide + kLineH)) >= em_needed) return 1.0f;
  const float k = std::min(frame.width_px / (kWidth * em_needed), (frame.height_px / em_needed - kShrunkFixedH) / kGridSide);
  return std::clamp(k, 0.45f, 0.99f);
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
  return UiFormat(Str::grun_scene_lanes, lang,
                  {KernelWords(r, lang), Fixed1(r.kernel_ms * 1e3), std::to_string(s.sms_used), std::to_string(r.sm_count), Fixed1(100 * s.idle_share)});
}

}  // namespace

Scene GpuRunModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame& frame) const {
  const Event& ev = events_.at(static_cast<size_t>(e));
  if (ev.kind == Event::kCompare) return CompareScene(lang, pal);
  // Shrunk for the frame's floors, the title and the line of what is done take two lines each.
  const float k = Shrink(frame);
  const bool two_lines = k < 1.0f;
  const float width = kWidth * k, side = kGridSide * k, title_h = two_lines ? 2.2f : kTitleH;
  Scene sc;
  sc.width = width;
  sc.background = pal.background;
  const std::string title = UiFormat(Str::grun_scene_title, lang, {KernelWords(run_, lang), run_.device_name});
  // Nothing is done at the start: a frame at t = 0 would hold the first tiles that end at once.
  const GpuFrame f = ev.kind == Event::kStart ? MakeGpuFrame(run_, run_.counters.tiles_skipped) : FrameAt(run_, ev.t_ns);
  const std::string now = UiFormat(Str::grun_scene_now, lang,
                                   {Fixed1(static_cast<double>(ev.kind == Event::kStart ? 0 : ev.t_ns) / 1e3) + " µs",
                                    Fixed1(static_cast<double>(stats_.span_ns) / 1e3) + " µs", FormatInt(ev.kind == Event::kStart ? 0 : f.computed),
                                    FormatInt(stats_.tiles_computed), std::to_string(ev.kind == Event::kStart ? 0 : BusySmsAt(run_, ev.t_ns))});
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
  if (two_lines) {
    const auto [t1, t2] = split(title);
    sc.texts.push_back(Text("run.title", 0, 0.1f, 0.9f, pal.text, t1));
    if (!t2.empty()) sc.texts.push_back(Text("run.title.2", 0, 1.1f, 0.8f, pal.text_muted, t2));
  } else {
    sc.texts.push_back(Text("run.title", 0, 0.2f, 1.1f, pal.text, title));
  }
  // The grid's tick numbers sit in kGridTop / kGridLeft em; labels drawn much larger than their em (shrunk,
  // or a projector's text scale) fall on each other and on the grid there: one caption line instead.
  const bool compact_grid = two_lines || frame.text_scale > 1.2f;
  Append(sc, BuildGpuGridScene(f, side, side, lang, pal, compact_grid), 0, title_h);
  const float lanes_x = side + kGap * k;
  Append(sc, BuildSmLanesScene(f, stats_.span_ns, width - lanes_x, side, lang, pal), lanes_x, title_h);
  const float y = title_h + side + 0.5f;
  if (two_lines) {
    // A line of 0.85 em text is 0.85 · 1.448 em high as the painter draws it (Noto Sans CJK): the second
    // line stood 1.15 em below the first, the two zh lines overlapped and the placer moved the second
    // one above the first, onto the grid.
    const float line = NowLineEm(frame);
    const auto [n1, n2] = split(now);
    sc.texts.push_back(Text("run.now", 0, y, 0.85f, pal.text, n1));
    if (!n2.empty()) sc.texts.push_back(Text("run.now.2", 0, y + line, 0.85f, pal.text, n2));
    sc.height = y + 2.0f * line + 0.1f;
  } else {
    sc.texts.push_back(Text("run.now", 0, y, 0.95f, pal.text, now));
    sc.height = kTitleH + kGridSide + kLineH;
  }
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
