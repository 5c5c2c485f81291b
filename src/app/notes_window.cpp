// Presenter notes window; see notes_window.h.
#include "app/notes_window.h"

#include "app/glyphs.h"

#include <GL/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>

#include "app/panels.h"
#include "app/platform.h"
#include "app/shortcuts.h"
#include "view/scene.h"

namespace bw::app {

bool NotesWindow::Open(platform::Window* main, AppState* state) {
  if (window_) return true;
  // On a monitor other than the projected one when there are two; null on the web (one canvas:
  // presenter notes are desktop-only).
  window_ = platform::OpenSecondWindow(1100, 800, "Blockwise \u2014 presenter notes", state->options.monitor + 1, state);
  if (!window_) return false;
  state_ = state;
  platform::MakeCurrent(window_);
  ImGuiContext* main_ctx = ImGui::GetCurrentContext();
  ctx_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx_);
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsLight();
  platform::InitImGuiBackend(window_, /*main=*/false);
  ImGui_ImplOpenGL3_Init(platform::GlslVersion());
  ImGui::SetCurrentContext(main_ctx);
  platform::MakeCurrent(main);
  fonts_dirty_ = true;
  opened_at_ = platform::Now();
  return true;
}

void NotesWindow::Close() {
  if (!window_) return;
  platform::Window* prev = platform::CurrentContext();  // the main window's (Close runs from main)
  ImGuiContext* prev_ctx = ImGui::GetCurrentContext();
  platform::MakeCurrent(window_);
  ImGui::SetCurrentContext(ctx_);
  ImGui_ImplOpenGL3_Shutdown();
  platform::ShutdownImGuiBackend();
  ImGui::DestroyContext(ctx_);
  ImGui::SetCurrentContext(prev_ctx != ctx_ ? prev_ctx : nullptr);
  ctx_ = nullptr;
  platform::Window* closing = window_;
  window_ = nullptr;
  platform::DestroyWindow(closing);
  if (prev && prev != closing) platform::MakeCurrent(prev);
}

bool NotesWindow::CloseRequested() const { return window_ && platform::ShouldClose(window_); }

void NotesWindow::RequestGlyphs(const std::vector<std::string>& texts) {
  if (window_ && fonts_.body && !MissingGlyphs(fonts_, texts).empty()) fonts_dirty_ = true;
}

void NotesWindow::Frame(platform::Window* main, ImGuiContext* main_ctx, const std::vector<std::string>& texts) {
  if (!window_) return;
  const auto [w, h] = platform::FramebufferSize(window_);
  if (w == 0 || h == 0) return;  // minimised
  platform::MakeCurrent(window_);
  ImGui::SetCurrentContext(ctx_);
  if (fonts_dirty_) {
    fonts_ = LoadFonts(state_->FontPx() * 1.1f, texts);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    fonts_dirty_ = false;
  }
  ImGui_ImplOpenGL3_NewFrame();
  platform::NewImGuiFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin("notes", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
  DrawPresenterNotes(*state_, fonts_, platform::Now() - opened_at_);
  ImGui::End();
  ImGui::Render();
  glViewport(0, 0, w, h);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  platform::SwapBuffers(window_);
  ImGui::SetCurrentContext(main_ctx);
  platform::MakeCurrent(main);
}

}  // namespace bw::app
