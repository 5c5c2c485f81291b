// The GPU replay has one scrubber (issue 15): the GPU panel's "GPU time" slider and the main
// window's timeline move one position (AppState::ui.gpu_replay). Driven through Dear ImGui with a
// simulated mouse, no window: a click on the timeline moves the panel's replay, a click on the
// panel's slider moves the timeline's; Space and the play buttons play and pause the replay while
// the panel is open and the lesson again once it is closed. Exact tile counts come from the
// recording itself (view::FrameAt), never from the panel.
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <memory>
#include <string>

#include "session/app_state.h"
#include "app/fonts.h"
#include "app/gpu_panel.h"
#include "app/panels.h"
#include "session/replay_clock.h"
#include "cuda/gpu_record_json.h"
#include "view/gpu_scene.h"

namespace bw::app {
namespace {

const std::string kRoot = BLOCKWISE_ROOT;
const std::string kRecording = kRoot + "/assets/gpu/recorded_run_h200.json";
constexpr float kW = 1600, kH = 1000;

class GpuReplay : public ::testing::Test {
 protected:
  void SetUp() override {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    fonts_ = LoadFonts(22, {});
    ASSERT_TRUE(OpenFile(s_, kRoot + "/lessons/rc-t3.json")) << s_.ui.error;
    s_.options.lang = "en";
    s_.ui.show_gpu = true;
    panel_ = std::make_unique<GpuPanel>(kRecording, s_.ui.gpu_replay);
  }
  void TearDown() override {
    panel_.reset();
    ImGui::DestroyContext();
  }

  // One frame: the timeline in a strip along the bottom (as the main window has it), the panel where
  // it opens; the mouse at `at`, its button down or not. `now` is the panel's clock (s).
  void Frame(ImVec2 at = {-1, -1}, bool down = false, double now = 0) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(kW, kH);
    io.DeltaTime = 1.0f / 60;
    io.MousePos = at;
    io.MouseDown[0] = down;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, kH - 60));
    ImGui::SetNextWindowSize(ImVec2(kW, 60));
    ImGui::Begin("timeline", nullptr, ImGuiWindowFlags_NoDecoration);
    DrawTimeline(s_);
    ImGui::End();
    panel_->Draw(s_, fonts_, now);  // placed by the panel itself: above the timeline
    ImGui::EndFrame();
  }
  // Clicks (down, then up) at `at`.
  void Click(ImVec2 at) {
    Frame(at, false);
    Frame(at, true);
    Frame(at, false);
  }
  // A point on the widget `label` of window `window`, `x_from_left` pixels in from the window's
  // content edge (or from its right edge when negative): found by moving the mouse down the window
  // until ImGui reports that widget hovered.
  ImVec2 Find(const char* window, const char* label, float x) {
    Frame();
    ImGuiWindow* w = ImGui::FindWindowByName(window);
    if (!w) return {-1, -1};
    const ImGuiID id = w->GetID(label);
    const float px = x >= 0 ? w->Pos.x + ImGui::GetStyle().WindowPadding.x + x : w->Pos.x + w->Size.x + x;
    for (float y = w->Pos.y; y < w->Pos.y + w->Size.y; y += 2) {
      Frame({px, y});
      if (GImGui->HoveredId == id) return {px, y};
    }
    return {-1, -1};
  }

  AppState s_;
  Fonts fonts_;
  std::unique_ptr<GpuPanel> panel_;
};

TEST_F(GpuReplay, TheTimelineAndThePanelMoveOnePosition) {
  const cuda::RunSummary run = cuda::LoadRecordedRun(kRecording);
  const double span = static_cast<double>(view::RunSpanNs(run));
  ASSERT_GT(span, 0.0);
  panel_->StartReplay(0, 0);  // playing from 0 (with or without a GPU here)
  Frame();
  ASSERT_TRUE(TimelineScrubsGpu(s_));
  EXPECT_TRUE(s_.ui.gpu_replay.playing);
  TogglePlay(s_);  // Space: pauses the replay the timeline shows, not the lesson
  EXPECT_FALSE(s_.ui.gpu_replay.playing);
  EXPECT_FALSE(s_.ui.playing);
  const int lesson_event = s_.ui.event, lesson_step = s_.ui.step;

  // Click the timeline at its right end: the replay is at its end, the panel shows the whole run.
  const ImVec2 end = Find("timeline", "##gpu_timeline", -12);
  ASSERT_GE(end.x, 0) << "timeline slider not found";
  Click(end);
  EXPECT_EQ(s_.ui.gpu_replay.position_ns, span);
  Frame();
  EXPECT_EQ(s_.ui.gpu.position_us, span * 1e-3);
  EXPECT_EQ(s_.ui.gpu.computed, s_.ui.gpu.computed_total);
  EXPECT_EQ(s_.ui.gpu.computed_total, 128 * 129 / 2);  // N = 8192, 64 × 64 tiles, causal
  EXPECT_TRUE(s_.ui.gpu.paused);

  // Half-way along the timeline: the panel shows exactly the recording's tiles at that time.
  const ImVec2 mid{kW / 2, end.y};
  Click(mid);
  const double at = s_.ui.gpu_replay.position_ns;
  EXPECT_GT(at, span * 0.3);
  EXPECT_LT(at, span * 0.7);
  Frame();
  const view::GpuFrame expect = view::FrameAt(run, static_cast<std::uint64_t>(at));
  EXPECT_EQ(s_.ui.gpu.position_us, at * 1e-3);
  EXPECT_EQ(s_.ui.gpu.computed, expect.computed);
  EXPECT_GT(expect.computed, 0);
  EXPECT_LT(expect.computed, expect.computed_total);
  // The lesson's own position did not move.
  EXPECT_EQ(s_.ui.event, lesson_event);
  EXPECT_EQ(s_.ui.step, lesson_step);

  // The panel's own scrubber, clicked at its left end: the timeline's position is 0 too.
  const ImVec2 start = Find(view::UiText(view::Str::gpu_title, "en").c_str(), view::UiText(view::Str::gpu_time_at, "en").c_str(), 2);
  ASSERT_GE(start.x, 0) << "panel scrubber not found";
  Click(start);
  EXPECT_EQ(s_.ui.gpu_replay.position_ns, 0.0);
  EXPECT_EQ(GpuTimelineLabel(s_).rfind("GPU time 0.0 / ", 0), 0u) << GpuTimelineLabel(s_);
  EXPECT_NE(GpuTimelineLabel(s_).find("recorded_run_h200.json"), std::string::npos);
  Frame();
  EXPECT_EQ(s_.ui.gpu.computed, 0);

  // The timeline's play button plays the replay; the panel advances it by wall time ÷ slow-down.
  const ImVec2 play = Find("timeline", "##play", 2);  // PlayPauseButton's id while paused
  ASSERT_GE(play.x, 0) << "timeline play button not found";
  Click(play);
  ASSERT_TRUE(s_.ui.gpu_replay.playing);
  EXPECT_FALSE(s_.ui.playing);
  s_.ui.gpu_replay.slow_down = 1e6f;
  Frame({-1, -1}, false, 0.0);
  Frame({-1, -1}, false, 0.25);  // a quarter of a wall second = 250 ns of GPU time
  EXPECT_NEAR(s_.ui.gpu_replay.position_ns, 250.0, 1e-6);
  EXPECT_EQ(s_.ui.gpu.position_us, s_.ui.gpu_replay.position_ns * 1e-3);

  // Closing the panel gives the timeline and Space back to the lesson.
  s_.ui.show_gpu = false;
  EXPECT_FALSE(TimelineScrubsGpu(s_));
  TogglePlay(s_);
  EXPECT_TRUE(s_.ui.playing);
}

TEST(GpuReplayClock, PlaysToTheEndThenStartsAgain) {
  AppState s;
  ReplayClock& c = s.ui.gpu_replay;
  ToggleGpuReplay(s);
  EXPECT_FALSE(c.playing);  // nothing loaded: nothing to play
  c.loaded = true;
  c.span_ns = 1000;
  c.slow_down = 1e6f;
  ToggleGpuReplay(s);
  ASSERT_TRUE(c.playing);
  AdvanceGpuReplay(s, 0.4);  // 0.4 wall seconds ÷ 1e6 = 400 ns of GPU time
  EXPECT_NEAR(c.position_ns, 400.0, 1e-9);
  AdvanceGpuReplay(s, 1.0);     // past the end: stops there, paused
  EXPECT_EQ(c.position_ns, 1000.0);
  EXPECT_FALSE(c.playing);
  ToggleGpuReplay(s);           // play at the end starts again from 0
  EXPECT_EQ(c.position_ns, 0.0);
  EXPECT_TRUE(c.playing);
  ScrubGpuReplay(s, -5);
  EXPECT_EQ(c.position_ns, 0.0);
  ScrubGpuReplay(s, 5000);
  EXPECT_EQ(c.position_ns, 1000.0);
  EXPECT_TRUE(c.playing);       // scrubbing neither starts nor stops playing
  // A slider's maximum is the span exactly, whatever float rounding does to it.
  EXPECT_EQ(SliderUsToNs(static_cast<float>(997.937 * 1.0), 997937.0), 997937.0);
  EXPECT_EQ(SliderUsToNs(500.0f, 997937.0), 500000.0);
}

}  // namespace
}  // namespace bw::app
