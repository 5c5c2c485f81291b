// The one platform seam (issue 17 item 7, issue 35 item 7): everything the app asks of the window
// system, and everything that differs between the desktop app (X11/Wayland, desktop OpenGL 3.0, files
// on disk) and the web edition (a page's canvas, WebGL 2, the browser's storage and downloads). The
// rest of the app is the same source on both, and names neither the window library nor the compiler
// of the web edition: it holds an opaque platform::Window and asks these functions
// (tests/platform/check_platform_names.py fails otherwise; the key codes of shortcuts.cpp are the one
// exception).
// Desktop: platform_glfw.cpp, with platform_glfw_x11.cpp (how a frame reaches an X11 window); web:
// platform_web.cpp (built by scripts/web only). Both editions run on one window library (the web on
// Emscripten's port of it), and the calls they make alike (input callbacks, ImGui's platform backend,
// time, sizes, events) are platform_glfw_common.cpp's, compiled in both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/damage.h"

namespace bw::app {

struct AppState;
struct Painted;
class ClassHost;

namespace platform {

// A window of the platform's (the main window, the presenter's second window). Opaque: only the
// platform's files know what it is.
struct Window;

struct Size {
  int w = 0, h = 0;
};

// [window] Opens the main window, `width` × `height` logical pixels (desktop: grown with the monitor's
// content scale, kept inside its work area; web: the page's canvas), with its GL context current and
// `state` as the state its input goes to. It wires a dropped file (into OpenFile) and, on the desktop,
// the content scale; the input itself is wired with ImGui's backend (InitImGuiBackend). Null when no
// window can be opened (the reason is printed on stderr).
Window* OpenWindow(int width, int height, bool vsync, AppState* state);
// Calls `frame` once per frame until the window should close, then returns (desktop: a loop; web:
// the browser's main loop — the browser owns the loop, so on the web this never returns).
void RunFrameLoop(Window* window, const std::function<void()>& frame);
// Closes the main window and ends the platform's window system.
void CloseWindow(Window* window);
// The first launch (no saved settings) opens maximised, as a desktop app does (web: the canvas fills
// the page already: nothing).
void MaximizeWindow(Window* window);
// The window's size in logical pixels (what ImGui lays out in) and its framebuffer's in pixels; 0 × 0
// while minimised.
Size WindowSize(Window* window);
Size FramebufferSize(Window* window);
bool Iconified(Window* window);
// Whether the window was asked to close (its close button, a signal on the desktop), and the ask.
bool ShouldClose(Window* window);
void RequestClose(Window* window);
// [fullscreen] F11: the window full screen on monitor `monitor` (an index below MonitorCount(), at
// that monitor's video mode) when `on`, else back to the place and size it had before. False when the
// platform cannot (no monitor; web: the browser's own F11 is the page's full screen, so the app's
// toggle stays off).
bool SetFullscreen(Window* window, bool on, int monitor);

// [second window] The presenter's notes window (F5, notes_window.h): `width` × `height`, titled
// `title`, on monitor `monitor` modulo the count when there are two or more (not the projected one),
// its keys queued into `state`'s key queue as the main window's are and a click asking for a frame
// (it installs no ImGui input callbacks: ImGui 1.86's backend routes input to the current context).
// Null when it cannot open (web: the browser shows one canvas; presenter notes are desktop-only).
// The GL context current stays the main window's.
Window* OpenSecondWindow(int width, int height, const char* title, int monitor, AppState* state);
void DestroyWindow(Window* window);  // a second window (the main one: CloseWindow)
// The window whose GL context is current (null: none), and making `window`'s current.
Window* CurrentContext();
void MakeCurrent(Window* window);
// Shows what was drawn into `window`'s back buffer, whole (Present shows only what changed).
void SwapBuffers(Window* window);

// [imgui] ImGui's platform backend for `window`, in the current ImGui context. `main`: the main
// window, whose input (keys into AppState's key queue, mouse, scroll, characters, cursor, focus, a
// resize) goes to ImGui and marks the frame as needed (an idle window draws nothing), and whose lost
// picture (exposed, restored) is shown whole next (PictureLost). A second window: no input callbacks.
void InitImGuiBackend(Window* window, bool main);
void NewImGuiFrame();         // the current ImGui context's window: size, mouse, time (before ImGui::NewFrame)
void ShutdownImGuiBackend();  // the current ImGui context's

// [time] Seconds since the platform started, for animations, playback, toasts and the GPU replay.
double Now();

// [events] Handles the input that arrived and returns (PollEvents); sleeps until input arrives
// (WaitEvents()) or at most `timeout` seconds (WaitEvents(timeout)). Web: the browser delivers input
// between frames, so these return at once.
void PollEvents();
void WaitEvents();
void WaitEvents(double timeout);
// The idle wait: clears state.ui.input_seen, then sleeps until input arrives or `timeout` seconds
// pass (WaitEvents(timeout)), so the caller sees whether anything happened. The browser cannot sleep
// and delivers input between frames: there input_seen keeps what arrived since the last drawn frame
// (FramePainted clears it) and this returns at once.
void WaitForInput(AppState& state, double timeout);

// [redraw] Partial redraw (damage.h). How many frames ago the picture in the window's back buffer was
// drawn (1: the last frame's), so a frame may repaint only what changed since then; 0 when the
// platform cannot say (the frame is drawn whole). Desktop: with software OpenGL (llvmpipe, softpipe)
// and GLX_MESA_copy_sub_buffer, Present never swaps, so the back buffer always holds the last frame
// (1 once a frame was presented); else GLX_EXT_buffer_age after each swap; else 0. Web: 0 (the
// canvas is cleared after each frame it shows).
int BackBufferAge(Window* window);
// Whether BackBufferAge can ever be above 0 here (else the damage tracker need not run at all).
bool CanRedrawInPart(Window* window);
// Shows the frame just drawn in the back buffer; `changed`: the parts that differ from the picture on
// screen (framebuffer pixels, top-left origin), the whole window when everything may. Copies only
// those parts to the window with glXCopySubBufferMESA where BackBufferAge relies on it (the whole
// window after the window was exposed), else swaps buffers (SwapBuffers).
// `fb_w` × `fb_h`: the size the frame was drawn at; when the window's size has changed since (a
// resize arriving mid-frame), the frame is shown whole, cut to the window.
void Present(Window* window, const std::vector<PixelRect>& changed, int fb_w, int fb_h);
// The window's picture was lost (exposed, resized): the next Present shows the whole frame.
void PictureLost(Window* window);

// [keys] What `key` (a key code of the key table, shortcuts.cpp, with its scancode) types on the
// user's keyboard layout, or null when the platform cannot say (LayoutChar then uses the key's US
// position). Web: null — Emscripten's key-name call throws there, and its keys come from the
// browser's keyCode, which already follows the layout for letters and digits.
const char* KeyName(int key, int scancode);
// [monitors] How many monitors the desktop has (F5 on one screen: the notes window would open over
// the projected picture). Web: 1 (the browser shows one page).
int MonitorCount();
// Each monitor's name, in the order F11's index counts them (the settings window's list).
std::vector<std::string> MonitorNames();

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

// [home] The account's home folder from the password database, for the settings when neither
// XDG_CONFIG_HOME nor HOME is set (a service, `env -i`); "" when unknown (web: always).
std::string AccountHome();

// [memory] Hands the allocator's freed pages back to the system (desktop: glibc's malloc_trim), so
// the resident size is live memory; the web: nothing.
void ReturnFreedMemory();

// [threads] Whether the platform runs threads (desktop: yes; web: no — the page's build has none):
// large attention files then compute the reference and the other orders in the background.
bool CanComputeInBackground();

// [class] Whether this edition can host a live class (desktop: a class server on its own thread,
// live_class.h; web: no — a page cannot listen for students), and a new host (null when it cannot).
bool CanHostClass();
std::unique_ptr<ClassHost> NewClassHost();

// [page] Called once per drawn frame with what it painted: the web edition keeps both for the page's
// exported bw_scene_dump() (the JSON of --dump-scene, frame_helpers.h) and bw_open_file(); the
// desktop does nothing.
void FramePainted(AppState& state, const Painted& painted);

}  // namespace platform
}  // namespace bw::app
