// The one platform seam (issue 17 item 7): everything that differs between the desktop app (GLFW on
// X11/Wayland, desktop OpenGL 3.0, files on disk) and the web edition (Emscripten's GLFW on a canvas,
// WebGL 2, the browser's storage and downloads). The rest of the app is the same source on both.
// Desktop implementation: platform_glfw.cpp; web: platform_web.cpp (built by scripts/web only).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct GLFWwindow;

#include "app/damage.h"

namespace bw::app {

struct AppState;
struct Painted;

namespace platform {

// [window] Opens the main window, `width` × `height` logical pixels (desktop: grown with the monitor's
// content scale, kept inside its work area; web: the page's canvas), with its GL context current and
// `state` as its user pointer. It wires only a dropped file (into OpenFile) and, on the desktop, the
// content scale; the input callbacks (keys into the queue, mouse, scroll, characters, focus, refresh)
// are the app's (startup.cpp, InstallInputCallbacks), set after ImGui's GLFW backend. Null when no
// window can be opened (the reason is printed on stderr).
GLFWwindow* OpenWindow(int width, int height, bool vsync, AppState* state);
// Calls `frame` once per frame until the window should close, then returns (desktop: a loop; web:
// emscripten_set_main_loop — the browser owns the loop, so on the web this never returns).
void RunFrameLoop(GLFWwindow* window, const std::function<void()>& frame);
void CloseWindow(GLFWwindow* window);
// The first launch (no saved settings) opens maximised, as a desktop app does (web: the canvas fills
// the page already: nothing).
void MaximizeWindow(GLFWwindow* window);
// [events] The idle wait: clears state.ui.input_seen, then sleeps until input arrives or `timeout`
// seconds pass (desktop: glfwWaitEventsTimeout), so the caller sees whether anything happened. The
// browser cannot sleep and delivers input between frames: there input_seen keeps what arrived since
// the last drawn frame (FramePainted clears it) and this returns at once.
void WaitForInput(AppState& state, double timeout);

// [redraw] Partial redraw (damage.h). How many frames ago the picture in the window's back buffer was
// drawn (1: the last frame's), so a frame may repaint only what changed since then; 0 when the
// platform cannot say (the frame is drawn whole). Desktop: with software OpenGL (llvmpipe, softpipe)
// and GLX_MESA_copy_sub_buffer, Present never swaps, so the back buffer always holds the last frame
// (1 once a frame was presented); else GLX_EXT_buffer_age after each swap; else 0. Web: 0 (the
// canvas is cleared after each frame it shows).
int BackBufferAge(GLFWwindow* window);
// Whether BackBufferAge can ever be above 0 here (else the damage tracker need not run at all).
bool CanRedrawInPart(GLFWwindow* window);
// Shows the frame just drawn in the back buffer; `changed`: the parts that differ from the picture on
// screen (framebuffer pixels, top-left origin), the whole window when everything may. Copies only
// those parts to the window with glXCopySubBufferMESA where BackBufferAge relies on it (the whole
// window after the window was exposed), else swaps buffers (glfwSwapBuffers).
// `fb_w` × `fb_h`: the size the frame was drawn at; when the window's size has changed since (a
// resize arriving mid-frame), the frame is shown whole, cut to the window.
void Present(GLFWwindow* window, const std::vector<PixelRect>& changed, int fb_w, int fb_h);
// The window's picture was lost (exposed, resized): the next Present shows the whole frame.
void PictureLost(GLFWwindow* window);

// [keys] What `key` (a GLFW_KEY_*, with its scancode) types on the user's keyboard layout, or null when
// the platform cannot say (LayoutChar then uses the key's US position). Desktop: glfwGetKeyName; web:
// null — Emscripten's GLFW has no glfwGetKeyName (it throws), and its keys come from the browser's
// keyCode, which already follows the layout for letters and digits.
const char* KeyName(int key, int scancode);
// [monitors] How many monitors the desktop has (F5 on one screen: the notes window would open over
// the projected picture). Web: 1 (the browser shows one page).
int MonitorCount();

// [shaders] The GLSL version line for ImGui's OpenGL3 backend and our shaders: "#version 130"
// (OpenGL 3.0) on the desktop, "#version 300 es" (WebGL 2) on the web.
const char* GlslVersion();
// What our own shaders (shaders/*.vert|frag, written without a version line) are prefixed with:
// GlslVersion() plus, for GLSL ES, the default float precision.
std::string ShaderPrelude();

// [fonts] The CJK face's bytes (Noto Sans CJK SC): desktop through fontconfig (the whole .ttc, face
// `index`); web the build-time subset packaged with the page (fonts/blockwise-cjk.otf, index 0).
// The bytes sit in one ImGui::MemAlloc buffer that LoadFonts hands to the font atlas as they are
// (a 19 MB face copied into a std::vector, then into the atlas once per size, cost ~0.3 s at start).
struct FontBytes {
  char* data = nullptr;      // ImGui::MemAlloc'd, `size` bytes; nullptr when no font was found
  std::size_t size = 0;
  int index = 0;             // face index inside a collection
  std::string source;        // the file it came from, for messages
  bool subset = false;       // only the characters the lessons and UI use (see scripts/font-subset)
  char* Release() { size = 0; return std::exchange(data, nullptr); }  // the caller frees it now
  FontBytes() = default;
  FontBytes(FontBytes&& o) noexcept;
  FontBytes& operator=(FontBytes&&) = delete;
  FontBytes(const FontBytes&) = delete;
  ~FontBytes();              // ImGui::MemFree(data)
};
FontBytes CjkFontBytes();
// `path` read whole into a FontBytes (both builds; defined in fonts.cpp). Empty when unreadable.
FontBytes ReadFontFile(const std::string& path);

// [settings] The settings document's text at `path` (desktop: the file; web: the browser's local
// storage under that key), or nullopt when none is stored. Throws std::runtime_error on a read error
// (desktop: data::ReadUserFile's LoadError — a pipe, a folder, more than kMaxSettingsBytes).
inline constexpr std::uintmax_t kMaxSettingsBytes = 1u << 20;  // 1 MiB: ten recent paths need ~40 KiB
std::optional<std::string> ReadSettingsText(const std::filesystem::path& path);
// Stores it (desktop: atomically, data::WriteFileAtomically). Returns "" or an error line.
std::string WriteSettingsText(const std::filesystem::path& path, const std::string& text);

// [save] A file the user asked for (Save As, Ctrl+E exports): desktop writes `path` atomically; web
// writes it into the page's in-memory file system and hands it to the browser as a download named
// after the path's file name. Returns "" or an error line.
std::string SaveUserFile(const std::string& path, const std::string& bytes);

// [page] Called once per drawn frame with what it painted: the web edition keeps both for the page's
// exported bw_scene_dump() (the JSON of --dump-scene, frame_helpers.h) and bw_open_file(); the
// desktop does nothing.
void FramePainted(AppState& state, const Painted& painted);

}  // namespace platform
}  // namespace bw::app
