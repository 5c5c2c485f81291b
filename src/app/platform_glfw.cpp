// The desktop side of the platform seam (platform.h): a GLFW window with an OpenGL 3.0 context, a
// blocking frame loop, full screen on a chosen monitor, the presenter's second window, Noto Sans CJK
// found through fontconfig, settings and saves as files on disk, a live class's server. How a frame
// reaches the window: platform_glfw_x11.cpp; the calls the web makes alike: platform_glfw_common.cpp.
#include "app/platform_glfw.h"

#include <GLFW/glfw3.h>
#include <fontconfig/fontconfig.h>
#include <malloc.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "session/app_state.h"
#include "app/fonts.h"
#include "app/live_class.h"
#include "app/shortcuts.h"
#include "app/window_geometry.h"
#include "data/atomic_write.h"
#include "data/user_file.h"

namespace bw::app {

FontFile FindCjkFont() {
  FontFile out;
  if (!FcInit()) return out;
  FcPattern* pat = FcNameParse(reinterpret_cast<const FcChar8*>("Noto Sans CJK SC:style=Regular"));
  FcConfigSubstitute(nullptr, pat, FcMatchPattern);
  FcDefaultSubstitute(pat);
  FcResult result;
  FcPattern* match = FcFontMatch(nullptr, pat, &result);
  if (match) {
    FcChar8* file = nullptr;
    FcChar8* family = nullptr;
    int index = 0;
    if (FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch &&
        FcPatternGetString(match, FC_FAMILY, 0, &family) == FcResultMatch &&
        std::string(reinterpret_cast<char*>(family)).find("CJK") != std::string::npos) {
      FcPatternGetInteger(match, FC_INDEX, 0, &index);
      out.path = reinterpret_cast<char*>(file);
      out.index = index;
    }
    FcPatternDestroy(match);
  }
  FcPatternDestroy(pat);
  return out;
}

namespace {

// FitWindow on the primary monitor (GLFW initialised).
WindowGeometry FirstWindowGeometry(int logical_w, int logical_h) {
  WorkArea area;
  float sx = 1, sy = 1;
  if (GLFWmonitor* m = glfwGetPrimaryMonitor()) {
    glfwGetMonitorContentScale(m, &sx, &sy);
    glfwGetMonitorWorkarea(m, &area.x, &area.y, &area.w, &area.h);
  }
  return FitWindow(logical_w, logical_h, std::max(sx, 0.5f), area);
}

}  // namespace

namespace platform {

Window* OpenWindow(int width, int height, bool vsync, AppState* state) {
  glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // HiDPI: --width/--height are logical; the window grows with the monitor's content scale but never
  // past its work area (a 1600 × 1000 window at 125 % would be 2000 × 1250 on a 1920 × 1080 screen).
  const WindowGeometry geometry = FirstWindowGeometry(width, height);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);  // placed first, then shown
  GLFWwindow* window = glfwCreateWindow(geometry.w, geometry.h, "Blockwise", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "error: could not open a window (is there a display? try xvfb-run)\n");
    glfwTerminate();
    return nullptr;
  }
  if (geometry.placed) glfwSetWindowPos(window, geometry.x, geometry.y);
  glfwShowWindow(window);
  glfwMakeContextCurrent(window);
  glfwSwapInterval(vsync ? 1 : 0);
  glfwSetWindowUserPointer(window, state);
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
    s->ui.input_seen = true;
    if (count > 0) OpenFile(*s, paths[0]);
  });
  // HiDPI: on a screen with content scale 2 the text is laid out twice as large (font_px stays
  // logical in the settings; AppState::FontPx() applies the scale), and re-baked when it changes.
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);
  state->ui.content_scale = std::max(0.5f, xscale);
  glfwSetWindowContentScaleCallback(window, [](GLFWwindow* w, float x, float) {
    auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
    s->ui.content_scale = std::max(0.5f, x);
    s->ui.fonts_dirty = s->ui.input_seen = true;
  });
  return WindowOf(window);
}

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;
}

void RunFrameLoop(Window* window, const std::function<void()>& frame) {
  // SIGTERM (a logout, `kill`) and SIGINT (Ctrl+C in the terminal) end the loop as the close button
  // does: main() then saves what it saves and returns its own exit status (2 after a refused file;
  // the signal's default killed the app with 143). The idle wait wakes within a second.
  // A second signal kills at once (the handler puts the default back).
  const auto stop = [](int sig) {
    g_stop_signal = 1;
    std::signal(sig, SIG_DFL);
  };
  std::signal(SIGTERM, stop);
  std::signal(SIGINT, stop);
  while (!glfwWindowShouldClose(GlfwOf(window)) && !g_stop_signal) frame();
}

void CloseWindow(Window* window) {
  glfwDestroyWindow(GlfwOf(window));
  glfwTerminate();
}

void WaitForInput(AppState& state, double timeout) {
  state.ui.input_seen = false;
  glfwWaitEventsTimeout(timeout);
}

const char* KeyName(int key, int scancode) { return glfwGetKeyName(key, scancode); }

void MaximizeWindow(Window* window) { glfwMaximizeWindow(GlfwOf(window)); }

int MonitorCount() {
  int count = 0;
  glfwGetMonitors(&count);
  return count;
}

namespace {
int g_windowed[4] = {0, 0, 1600, 1000};  // the main window's place and size before F11: x, y, w, h
}

bool SetFullscreen(Window* window, bool on, int monitor) {
  GLFWwindow* w = GlfwOf(window);
  if (!on) {
    glfwSetWindowMonitor(w, nullptr, g_windowed[0], g_windowed[1], g_windowed[2], g_windowed[3], 0);
    return true;
  }
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  if (count == 0) return false;
  GLFWmonitor* m = monitors[monitor % count];
  const GLFWvidmode* mode = glfwGetVideoMode(m);
  if (!glfwGetWindowMonitor(w)) {  // windowed now (not moving between monitors): remember where
    glfwGetWindowPos(w, &g_windowed[0], &g_windowed[1]);
    glfwGetWindowSize(w, &g_windowed[2], &g_windowed[3]);
  }
  glfwSetWindowMonitor(w, m, 0, 0, mode->width, mode->height, mode->refreshRate);
  return true;
}

namespace {

// The notes window steps the lesson with the same keys as the main window: they join its queue.
// They count as input, so the main loop draws a frame and handles them at once (else they waited in
// the queue until the mouse next moved over the main window: a helper's clicker went dead after F5).
void SecondWindowKey(GLFWwindow* w, int key, int scancode, int action, int mods) {
  if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
  auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
  s->ui.keys.push_back({key, mods, LayoutChar(key, scancode)});  // by character too: B blanks from here
  s->ui.input_seen = true;
  glfwPostEmptyEvent();
}

}  // namespace

Window* OpenSecondWindow(int width, int height, const char* title, int monitor, AppState* state) {
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  // Hidden until placed, then shown. (The window hints are global: the main window is opened hidden,
  // and this window, created with that hint still set, was never shown — a helper found F5 showed
  // nothing.)
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* window = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (!window) return nullptr;
  // Put it on a monitor other than the projected one when there are two.
  if (count > 1) {
    int mx = 0, my = 0;
    glfwGetMonitorPos(monitors[monitor % count], &mx, &my);
    glfwSetWindowPos(window, mx + 40, my + 40);
  }
  glfwShowWindow(window);
  glfwSetWindowUserPointer(window, state);
  glfwSetKeyCallback(window, SecondWindowKey);
  // A click there asks for a frame too (the step list, the folded answer): the backend polls the
  // button, so without a frame while it is held the click was missed.
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int, int, int) {
    static_cast<AppState*>(glfwGetWindowUserPointer(w))->ui.input_seen = true;
    glfwPostEmptyEvent();
  });
  return WindowOf(window);
}

const char* GlslVersion() { return "#version 130"; }
std::string ShaderPrelude() { return std::string(GlslVersion()) + "\n"; }

FontBytes CjkFontBytes() {
  static const FontFile file = FindCjkFont();  // fontconfig is asked once per process
  if (file.path.empty()) return {};
  FontBytes out = ReadFontFile(file.path);
  out.index = file.index;
  return out;
}

std::optional<std::string> ReadSettingsText(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return std::nullopt;
  // A FIFO, a folder or /dev/zero in its place is refused by name, never waited on or read whole.
  return data::ReadUserFile(path, kMaxSettingsBytes, "the settings file");
}

std::string WriteSettingsText(const std::filesystem::path& path, const std::string& text) {
  try {
    std::filesystem::create_directories(path.parent_path());
    data::WriteFileAtomically(path, text);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string SaveUserFile(const std::string& path, const std::string& bytes) {
  try {
    data::WriteFileAtomically(path, bytes);
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

void FramePainted(AppState&, const Painted&) {}

std::string AccountHome() {
  const passwd* pw = ::getpwuid(::getuid());
  return pw && pw->pw_dir ? pw->pw_dir : "";
}

void ReturnFreedMemory() { malloc_trim(0); }

bool CanComputeInBackground() { return true; }

bool CanHostClass() { return true; }
std::unique_ptr<ClassHost> NewClassHost() { return std::make_unique<LiveClass>(); }

}  // namespace platform
}  // namespace bw::app
