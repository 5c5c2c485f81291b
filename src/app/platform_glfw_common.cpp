// The platform seam's calls both editions make alike (platform.h): both run on GLFW — the desktop on
// the system's (platform_glfw.cpp), the web on Emscripten's (platform_web.cpp) — so the main window's
// input callbacks, ImGui's GLFW backend, the clock, sizes, events and contexts are one source,
// compiled in both builds. Only calls Emscripten's GLFW 3.2 has belong here.
#include "app/platform_glfw.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>

#include <string>
#include <vector>

#include "app/shortcuts.h"
#include "session/app_state.h"

namespace bw::app::platform {

namespace {

AppState* StateOfMainWindow(GLFWwindow* w) { return static_cast<AppState*>(glfwGetWindowUserPointer(w)); }

// Every kind of input marks the frame as needed (then ImGui's own handler runs), so an idle window
// draws nothing at all: ~0 % CPU while a teacher talks.
void MarkMainInputSeen(GLFWwindow* w) { StateOfMainWindow(w)->ui.input_seen = true; }

// The main window's input, set after ImGui's backend installed its own (they call it themselves).
void InstallMainInputCallbacks(GLFWwindow* window) {
  // Keys go to ImGui (text fields) and into AppState's queue (stepping), so no press is lost.
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
    auto* s = StateOfMainWindow(w);
    s->ui.input_seen = true;
    if (action == GLFW_PRESS || action == GLFW_REPEAT) s->ui.keys.push_back({key, mods, LayoutChar(key, scancode)});
  });
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int b, int a, int m) { MarkMainInputSeen(w); ImGui_ImplGlfw_MouseButtonCallback(w, b, a, m); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double x, double y) { MarkMainInputSeen(w); ImGui_ImplGlfw_ScrollCallback(w, x, y); });
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned c) { MarkMainInputSeen(w); ImGui_ImplGlfw_CharCallback(w, c); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int e) { MarkMainInputSeen(w); ImGui_ImplGlfw_CursorEnterCallback(w, e); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int f) { MarkMainInputSeen(w); ImGui_ImplGlfw_WindowFocusCallback(w, f); });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { MarkMainInputSeen(w); });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) { MarkMainInputSeen(w); });
  // Uncovered, shown again or resized: X has lost the window's picture, so the next frame is shown
  // whole, not only what changed (PictureLost; a helper saw a covering window's pixels stay).
  glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { MarkMainInputSeen(w); PictureLost(WindowOf(w)); });
  glfwSetWindowIconifyCallback(window, [](GLFWwindow* w, int) { MarkMainInputSeen(w); PictureLost(WindowOf(w)); });
}

}  // namespace

Size WindowSize(Window* window) {
  Size s;
  glfwGetWindowSize(GlfwOf(window), &s.w, &s.h);
  return s;
}

Size FramebufferSize(Window* window) {
  Size s;
  glfwGetFramebufferSize(GlfwOf(window), &s.w, &s.h);
  return s;
}

bool Iconified(Window* window) { return glfwGetWindowAttrib(GlfwOf(window), GLFW_ICONIFIED) != 0; }
bool ShouldClose(Window* window) { return glfwWindowShouldClose(GlfwOf(window)) != 0; }
void RequestClose(Window* window) { glfwSetWindowShouldClose(GlfwOf(window), 1); }

void DestroyWindow(Window* window) { glfwDestroyWindow(GlfwOf(window)); }
Window* CurrentContext() { return WindowOf(glfwGetCurrentContext()); }
void MakeCurrent(Window* window) { glfwMakeContextCurrent(GlfwOf(window)); }
void SwapBuffers(Window* window) { glfwSwapBuffers(GlfwOf(window)); }

void InitImGuiBackend(Window* window, bool main) {
  ImGui_ImplGlfw_InitForOpenGL(GlfwOf(window), /*install_callbacks=*/main);
  if (main) InstallMainInputCallbacks(GlfwOf(window));
}

void NewImGuiFrame() { ImGui_ImplGlfw_NewFrame(); }
void ShutdownImGuiBackend() { ImGui_ImplGlfw_Shutdown(); }

double Now() { return glfwGetTime(); }

void PollEvents() { glfwPollEvents(); }
void WaitEvents() { glfwWaitEvents(); }
void WaitEvents(double timeout) { glfwWaitEventsTimeout(timeout); }

std::vector<std::string> MonitorNames() {
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i) {
    const char* name = glfwGetMonitorName(monitors[i]);
    names.push_back(name ? name : "?");
  }
  return names;
}

}  // namespace bw::app::platform
