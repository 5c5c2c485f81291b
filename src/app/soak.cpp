// [soak] The --soak driver; see soak.h.
#include "app/soak.h"

#include <GL/gl.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "session/app_state.h"

namespace bw::app {

void SoakInit(Soak& soak, int frames, bool check_redraw, bool full_redraw, bool scenario_given, const std::string& lesson) {
  soak.frames = frames;
  soak.check_redraw = check_redraw;
  soak.full_redraw = full_redraw;
  soak.warm_frame = std::min(frames / 10, 1000);
  if (frames > 0 && !scenario_given) {
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(lesson).parent_path(), ec))
      if (f.path().extension() == ".json") soak.lessons.push_back(f.path().string());
    std::sort(soak.lessons.begin(), soak.lessons.end());
    for (size_t i = 0; i < soak.lessons.size(); ++i)
      if (std::filesystem::equivalent(soak.lessons[i], lesson, ec)) soak.next = i;
    if (soak.lessons.size() > 1) soak.warm_frame = -1;
  }
  soak.first = soak.next;
}

void SoakMeasureDraw(Soak& soak, ImDrawData* draw_data, const std::vector<PixelRect>& redraw, int fb_w, int fb_h, const ImVec4& bg) {
  long area = 0;
  for (const auto& r : redraw) area += r.Area();
  soak.redrawn_screens += static_cast<double>(area) / (static_cast<double>(fb_w) * fb_h);
  if (redraw.size() == 1 && area == static_cast<long>(fb_w) * fb_h) ++soak.redrawn_whole;
  if (!soak.check_redraw || area >= static_cast<long>(fb_w) * fb_h) return;
  // The same frame drawn whole.
  ++soak.checked_frames;
  std::vector<unsigned char> part(static_cast<std::size_t>(fb_w) * fb_h * 4), whole(part.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, part.data());
  DrawFrame(draw_data, {{0, 0, fb_w, fb_h}}, fb_w, fb_h, bg, nullptr);
  glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, whole.data());
  if (part != whole) {
    const auto at = static_cast<long>(std::mismatch(part.begin(), part.end(), whole.begin()).first - part.begin()) / 4;
    if (soak.check_failures++ == 0)
      std::printf("redraw check: frame %d (%s) differs from a full redraw first at pixel (%ld, %ld) from the top-left\n",
                  soak.frame + 1, soak.last_frame_did.c_str(), at % fb_w, fb_h - 1 - at / fb_w);
  }
}

namespace {

// One trace event on, to the next step (wrapping) at the end of each trace, the next lesson at the end
// of one. True when this frame ended a whole pass (measurements compare whole passes).
bool SoakAdvance(AppState& state, Soak& soak) {
  const auto* cur = state.Current();
  bool pass_done = soak.lessons.size() <= 1;
  if (cur && state.ui.event + 1 < cur->EventCount()) {
    StepEvent(state, +1);
  } else if (state.InLesson() && state.ui.step + 1 < static_cast<int>(state.model.lesson->lesson.steps.size())) {
    GoToStep(state, state.ui.step + 1);
    soak.next_draws = "first frame of " + state.model.lesson->lesson.steps[static_cast<size_t>(state.ui.step)].id + " ";
  } else if (soak.lessons.size() > 1) {  // the next lesson (a file that is no lesson is skipped)
    soak.next = (soak.next + 1) % soak.lessons.size();
    if (soak.next == soak.first) {
      pass_done = true;
      std::printf("soak: every lesson stepped through by frame %d, rss_kb = %ld\n", soak.frame, RssKb());
      if (soak.warm_frame < 0) soak.warm_frame = soak.frame;
    }
    OpenFile(state, soak.lessons[soak.next]);
    soak.frame_did += "opened " + std::filesystem::path(soak.lessons[soak.next]).filename().string() + " ";
    soak.next_draws = "first frame of " + std::filesystem::path(soak.lessons[soak.next]).filename().string() + " ";
  } else if (state.InLesson()) {
    GoToStep(state, 0);
  } else {
    SetEvent(state, 0);
  }
  return pass_done;
}

void SoakReport(const Soak& soak, int fb_w, int fb_h, double first_frame_ms, int& exit_code) {
  const long end = RssKb();
  std::printf("soak: %d frames, rss_kb after frame 1 = %ld, after frame %d = %ld, at the end = %ld, "
              "growth after warm-up = %ld kB\n", soak.frame, soak.rss_first, soak.warm_frame, soak.rss_warm, end, end - soak.rss_warm);
  std::vector<double> frame_ms = soak.frame_ms;
  if (frame_ms.empty()) frame_ms.push_back(0);
  std::sort(frame_ms.begin(), frame_ms.end());
  std::printf("frames: start to first frame = %.1f ms, frame time median = %.2f ms, p99 = %.2f ms (%dx%d), "
              "peak RSS = %ld MB\n", first_frame_ms, frame_ms[frame_ms.size() / 2], frame_ms[frame_ms.size() * 99 / 100],
              fb_w, fb_h, PeakRssKb() / 1024);
  // CPU time the process (the software rasteriser's threads included) spent per frame: less
  // sensitive than wall time to other programs sharing the cores.
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const double cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
  std::printf("cpu: %.2f ms of CPU time per frame on average, start-up included\n", cpu_ms / soak.frame);
  const double screen = static_cast<double>(fb_w) * fb_h * std::max<long>(soak.drawn_frames, 1);
  std::printf("drawn: %.2f screens of fills and %.2f of glyphs and images per frame, %ld triangles\n",
              soak.drawn_fill_px / screen, soak.drawn_textured_px / screen, soak.drawn_triangles / std::max<long>(soak.drawn_frames, 1));
  std::printf("redrawn: %.2f screens per frame on average, %d of %d frames whole%s\n", soak.redrawn_screens / std::max(soak.frame, 1),
              soak.redrawn_whole, soak.frame, soak.full_redraw ? " (--full-redraw)" : "");
  if (soak.check_redraw) {
    std::printf("redraw check: %d frames drawn in part, %d differ from a full redraw\n", soak.checked_frames, soak.check_failures);
    if (soak.check_failures > 0 || soak.checked_frames == 0) exit_code = 1;
  }
  std::vector<std::pair<double, std::string>> frame_log = soak.frame_log;
  std::sort(frame_log.begin(), frame_log.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::printf("slowest frames:");
  for (size_t k = 0; k < std::min<size_t>(frame_log.size(), 10); ++k)
    std::printf(" %.0f ms%s%s%s", frame_log[k].first, frame_log[k].second.empty() ? "" : " (",
                frame_log[k].second.empty() ? "" : frame_log[k].second.substr(0, frame_log[k].second.size() - 1).c_str(),
                frame_log[k].second.empty() ? "" : ")");
  std::printf("\n");
}

}  // namespace

bool SoakStep(AppState& state, Soak& soak, std::chrono::steady_clock::time_point frame_start, const DrawnArea& drawn, int fb_w, int fb_h,
              double first_frame_ms, int& exit_code) {
  ++soak.frame;
  // Whole loop iteration, swap included (vsync is off while soaking): what a user waits for.
  if (soak.frame > 1) {
    soak.frame_ms.push_back(std::chrono::duration<double, std::milli>(frame_start - soak.last).count());
    soak.frame_log.emplace_back(soak.frame_ms.back(), soak.last_frame_did);
  }
  soak.last = frame_start;
  soak.drawn_fill_px += drawn.fill_px;
  soak.drawn_textured_px += drawn.textured_px;
  soak.drawn_triangles += drawn.triangles;
  ++soak.drawn_frames;
  const bool pass_done = SoakAdvance(state, soak);
  if (soak.frame == 1) soak.rss_first = RssKb();
  if (soak.frame == soak.warm_frame) soak.rss_warm = RssKb();
  if (soak.frame < soak.frames || !pass_done) return false;  // ends after a whole pass, as the warm-up did
  SoakReport(soak, fb_w, fb_h, first_frame_ms, exit_code);
  return true;
}

}  // namespace bw::app
