// The presenter's second window (F5): teacher notes, the simulated Q&A, the next step and a clock,
// for the laptop screen while the main window is projected. It has its own ImGui context; Dear
// ImGui 1.86's platform backend routes input to the current context, so this window installs no
// ImGui callbacks: its keys join the main window's queue (platform::OpenSecondWindow).
#pragma once

#include <string>
#include <vector>

#include "session/app_state.h"
#include "app/fonts.h"
#include "app/platform.h"

struct ImGuiContext;

namespace bw::app {

class NotesWindow {
 public:
  ~NotesWindow() { Close(); }
  bool IsOpen() const { return window_ != nullptr; }
  // Opens beside `main` (on another monitor when there is one). Returns false when the platform
  // refuses (the web edition always: one canvas).
  bool Open(platform::Window* main, AppState* state);
  void Close();
  bool CloseRequested() const;
  // Draws one frame; restores `main`'s GL and ImGui contexts before returning.
  void Frame(platform::Window* main, ImGuiContext* main_ctx, const std::vector<std::string>& texts);
  void MarkFontsDirty() { fonts_dirty_ = true; }
  // The main window found its atlas complete for `texts` and kept it: this window rebuilds its own
  // only if it lacks one of their glyphs (it bakes the shown texts, not the whole course).
  void RequestGlyphs(const std::vector<std::string>& texts);

 private:
  platform::Window* window_ = nullptr;
  ImGuiContext* ctx_ = nullptr;
  AppState* state_ = nullptr;
  Fonts fonts_;
  bool fonts_dirty_ = true;
  double opened_at_ = 0;
};

}  // namespace bw::app
