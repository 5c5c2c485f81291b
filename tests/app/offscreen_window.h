// offscreen_window.h — what the tests that draw the app's main window off screen share (an ImGui
// context without a window, the real fonts): legibility_test, pager_test, geometry_test.
#pragma once

#include <gtest/gtest.h>

#include <imgui.h>

#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/painter.h"
#include "app/panels.h"
#include "session/app_state.h"

namespace bw::app {

// One ImGui context for the whole suite, no ini file.
class ImGuiSuite : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
  }
  static void TearDownTestSuite() { ImGui::DestroyContext(); }
};

// … and the main window drawn as the app draws it.
class MainWindowSuite : public ImGuiSuite {
 protected:
  // The fonts a window `h` rows high bakes at the logical size `font_px`, and every lesson's state
  // sized for them (projector mode or not).
  static Fonts SizedFonts(std::vector<AppState>& lessons, const std::vector<std::string>& texts, float h, float font_px, bool projector) {
    AppState sizing;
    sizing.options.projector = projector;
    sizing.options.font_px = font_px;
    UpdateFontSizes(sizing, h);
    for (auto& s : lessons) {
      s.options.projector = projector;
      s.options.font_px = font_px;
      s.ui.text_px = sizing.ui.text_px;
      s.ui.chrome_px = sizing.ui.chrome_px;
    }
    return LoadFonts(sizing.ui.text_px, texts, sizing.ui.text_px, sizing.ui.chrome_px);
  }

  // One frame as the app draws it, repeated while its layout settles (the pages found, the side
  // panel's fit: AppState's layout_settling, which makes the app draw another frame too).
  static Painted Frame(AppState& s, const Fonts& fonts, float w, float h) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(w, h);
    io.DeltaTime = 1.0f / 60;
    Painted p;
    for (int k = 0; k < 8; ++k) {
      s.ui.layout_settling = false;
      ImGui::NewFrame();
      p = DrawMainWindow(s, fonts, 1.0f, nullptr);
      ImGui::EndFrame();
      if (!s.ui.layout_settling) break;
    }
    return p;
  }
};

}  // namespace bw::app
