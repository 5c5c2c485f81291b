// The desktop side of the platform seam (platform.h): a GLFW window with an OpenGL 3.0 context, a
// blocking frame loop, Noto Sans CJK found through fontconfig, settings and saves as files on disk.
#include "app/platform.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <fontconfig/fontconfig.h>

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

namespace platform {


GLFWwindow* OpenWindow(int width, int height, bool vsync, AppState* state) {
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
  return window;
}

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;
}

void RunFrameLoop(GLFWwindow* window, const std::function<void()>& frame) {
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
  while (!glfwWindowShouldClose(window) && !g_stop_signal) frame();
}

void CloseWindow(GLFWwindow* window) {
  glfwDestroyWindow(window);
  glfwTerminate();
}

void WaitForInput(AppState& state, double timeout) {
  state.ui.input_seen = false;
  glfwWaitEventsTimeout(timeout);
}

const char* KeyName(int key, int scancode) { return glfwGetKeyName(key, scancode); }

void MaximizeWindow(GLFWwindow* window) { glfwMaximizeWindow(window); }

int MonitorCount() {
  int count = 0;
  glfwGetMonitors(&count);
  return count;
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

}  // namespace platform
}  // namespace bw::app
