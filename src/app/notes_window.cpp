// Presenter notes window; see notes_window.h.
#include "app/notes_window.h"

#include "app/glyphs.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <cstdio>

#include "app/panels.h"
#include "app/platform.h"
#include "app/shortcuts.h"
#include "view/scene.h"

namespace bw::app {

namespace {

// The notes window steps the lesson with the same keys as the main window: they join its queue.
// They count as input, so the main loop draws a frame and handles them at once (else they waited in
// the queue until the mouse next moved over the main window: a helper's clicker went dead after F5).
void KeyCallback(GLFWwindow* w, int key, int scancode, int action, int mods) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
  s->ui.keys.push_back({key, mods, LayoutChar(key, scancode)});  // by character too: B blanks from here
  s->ui.input_seen = true;
  glfwPostEmptyEvent();
}

}  // namespace

bool NotesWindow::Open(GLFWwindow* main, AppState* state) {
#ifdef __EMSCRIPTEN__
  return false;  // the browser has one canvas (Emscripten's GLFW: one window); presenter notes are desktop-only
#endif
  if (window_) return true;
  state_ = state;
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  // Hidden until placed, then shown. (The window hints are global: the main window is opened hidden,
  // and this window, created with that hint still set, was never shown — a helper found F5 showed
  // nothing.)
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  window_ = glfwCreateWindow(1100, 800, "Blockwise \u2014 presenter notes", nullptr, nullptr);
  if (!window_) return false;
  // Put it on a monitor other than the projected one when there are two.
  if (count > 1) {
    int mx = 0, my = 0;
    glfwGetMonitorPos(monitors[(state->options.monitor + 1) % count], &mx, &my);
    glfwSetWindowPos(window_, mx + 40, my + 40);
  }
  glfwShowWindow(window_);
  glfwSetWindowUserPointer(window_, state);
  glfwSetKeyCallback(window_, KeyCallback);
  // A click there asks for a frame too (the step list, the folded answer): the backend polls the
  // button, so without a frame while it is held the click was missed.
  glfwSetMouseButtonCallback(window_, [](GLFWwindow* w, int, int, int) {
    static_cast<AppState*>(glfwGetWindowUserPointer(w))->ui.input_seen = true;
    glfwPostEmptyEvent();
  });
  glfwMakeContextCurrent(window_);
  ImGuiContext* main_ctx = ImGui::GetCurrentContext();
  ctx_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(ctx_);
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsLight();
  ImGui_ImplGlfw_InitForOpenGL(window_, /*install_callbacks=*/false);
  ImGui_ImplOpenGL3_Init(platform::GlslVersion());
  ImGui::SetCurrentContext(main_ctx);
  glfwMakeContextCurrent(main);
  fonts_dirty_ = true;
  opened_at_ = glfwGetTime();
  return true;
}

void NotesWindow::Close() {
  if (!window_) return;
  GLFWwindow* prev = glfwGetCurrentContext();        // the main window's (Close runs from main)
  ImGuiContext* prev_ctx = ImGui::GetCurrentContext();
  glfwMakeContextCurrent(window_);
  ImGui::SetCurrentContext(ctx_);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext(ctx_);
  ImGui::SetCurrentContext(prev_ctx != ctx_ ? prev_ctx : nullptr);
  ctx_ = nullptr;
  GLFWwindow* closing = window_;
  window_ = nullptr;
  glfwDestroyWindow(closing);
  if (prev && prev != closing) glfwMakeContextCurrent(prev);
}

bool NotesWindow::CloseRequested() const { return window_ && glfwWindowShouldClose(window_); }

void NotesWindow::RequestGlyphs(const std::vector<std::string>& texts) {
  if (window_ && fonts_.body && !MissingGlyphs(fonts_, texts).empty()) fonts_dirty_ = true;
}

void NotesWindow::Frame(GLFWwindow* main, ImGuiContext* main_ctx, const std::vector<std::string>& texts) {
  if (!window_) return;
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  if (w == 0 || h == 0) return;  // minimised
  glfwMakeContextCurrent(window_);
  ImGui::SetCurrentContext(ctx_);
  if (fonts_dirty_) {
    fonts_ = LoadFonts(state_->FontPx() * 1.1f, texts);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    fonts_dirty_ = false;
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
  ImGui::Begin("notes", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
  DrawPresenterNotes(*state_, fonts_, glfwGetTime() - opened_at_);
  ImGui::End();
  ImGui::Render();
  glViewport(0, 0, w, h);
  glClearColor(1, 1, 1, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glfwSwapBuffers(window_);
  ImGui::SetCurrentContext(main_ctx);
  glfwMakeContextCurrent(main);
}

}  // namespace bw::app
