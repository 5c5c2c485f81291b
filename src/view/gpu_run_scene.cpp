// The diagram of a recorded GPU run at one replay moment (GpuRunModel::BuildScene): a title, the tile
// grid and the SM × time lanes of gpu_scene.h side by side, and a line of what is done; at "compare"
// both runs' lanes on one time axis. See gpu_run_model.h.
#include <algorithm>
#include <cstdio>

#include "view/format.h"
#include "view/gpu_run_model.h"
#include "view/ui_text.h"

namespace bw::view {

namespace {

// Layout, in em.
constexpr float kWidth = 46.0f, kTitleH = 2.0f, kGridSide = 17.0f, kGap = 1.6f, kLineH = 2.2f;

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

std::string KernelOf(const cuda::RunSummary& r) { return r.kernel.empty() ? cuda::AlgorithmName(r.algorithm) : r.kernel; }

std::string LanesTitle(const cuda::RunSummary& r, const GpuRunStats& s, const std::string& lang) {
  return UiFormat(Str::grun_scene_lanes, lang,
                  {KernelOf(r), Fixed1(r.kernel_ms * 1e3), std::to_string(s.sms_used), std::to_string(r.sm_count), Fixed1(100 * s.idle_share)});
}

}  // namespace

Scene GpuRunModel::BuildScene(int e, const std::string& lang, const Palette& pal, const SceneFrame&) const {
  const Event& ev = events_.at(static_cast<size_t>(e));
  if (ev.kind == Event::kCompare) return CompareScene(lang, pal);
  Scene sc;
  sc.width = kWidth;
  sc.height = kTitleH + kGridSide + kLineH;
  sc.background = pal.background;
  sc.texts.push_back(Text("run.title", 0, 0.2f, 1.1f, pal.text, UiFormat(Str::grun_scene_title, lang, {KernelOf(run_), run_.device_name})));
  // Nothing is done at the start: a frame at t = 0 would hold the first tiles that end at once.
  const GpuFrame f = ev.kind == Event::kStart ? MakeGpuFrame(run_, run_.counters.tiles_skipped) : FrameAt(run_, ev.t_ns);
  Append(sc, BuildGpuGridScene(f, kGridSide, kGridSide, lang, pal), 0, kTitleH);
  const float lanes_x = kGridSide + kGap;
  Append(sc, BuildSmLanesScene(f, stats_.span_ns, kWidth - lanes_x, kGridSide, lang, pal), lanes_x, kTitleH);
  const std::string now = UiFormat(Str::grun_scene_now, lang,
                                   {Fixed1(static_cast<double>(ev.kind == Event::kStart ? 0 : ev.t_ns) / 1e3) + " µs",
                                    Fixed1(static_cast<double>(stats_.span_ns) / 1e3) + " µs", FormatInt(ev.kind == Event::kStart ? 0 : f.computed),
                                    FormatInt(stats_.tiles_computed), std::to_string(ev.kind == Event::kStart ? 0 : BusySmsAt(run_, ev.t_ns))});
  sc.texts.push_back(Text("run.now", 0, kTitleH + kGridSide + 0.5f, 0.95f, pal.text, now));
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
