// The web side of the platform seam (platform.h), built only by the web edition (web/CMakeLists.txt,
// scripts/web): Emscripten's GLFW on the page's canvas with a WebGL 2 context, the browser's frame
// loop, the build-time CJK subset packaged with the page, settings in local storage, saves as
// downloads; no full screen of the app's own, no second window, no threads, no class to host. The
// calls the desktop makes alike (input, ImGui's backend, time, sizes, events) are
// platform_glfw_common.cpp's. The page (web/index.html) talks to the app through the exported bw_*
// functions below.
#include "data/json_file.h"
#include "app/platform_glfw.h"
#include "classroom/student.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "session/app_state.h"
#include "app/class_host.h"
#include "app/frame_helpers.h"
#include "app/painter.h"
#include "view/ui_text.h"

namespace bw::app::platform {

namespace {

GLFWwindow* g_window = nullptr;
std::function<void()> g_frame;
AppState* g_state = nullptr;
Painted g_painted;  // the last frame's, for bw_scene_dump()

void Tick() {
  g_frame();
  if (glfwWindowShouldClose(g_window)) emscripten_cancel_main_loop();
}

// clang-format off
EM_JS(char*, JsStorageGet, (const char* key), {
  const v = window.localStorage ? window.localStorage.getItem(UTF8ToString(key)) : null;
  if (v === null) return 0;
  const n = lengthBytesUTF8(v) + 1;
  const p = _malloc(n);
  stringToUTF8(v, p, n);
  return p;
});
EM_JS(int, JsStorageSet, (const char* key, const char* value), {
  try { window.localStorage.setItem(UTF8ToString(key), UTF8ToString(value)); return 1; } catch (e) { return 0; }
});
EM_JS(void, JsDownload, (const char* path, const char* name), {
  const bytes = FS.readFile(UTF8ToString(path));
  const url = URL.createObjectURL(new Blob([bytes]));
  const a = document.createElement('a');
  a.href = url;
  a.download = UTF8ToString(name);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
  if (Module.onDownload) Module.onDownload(UTF8ToString(name), bytes.length);
});
// Start-up milestones as performance marks (scripts/bench-web prints them): each name once, the first time.
EM_JS(void, JsMarkOnce, (const char* name), {
  const n = UTF8ToString(name);
  if (performance.getEntriesByName(n, 'mark').length === 0) performance.mark(n);
});
// clang-format on

}  // namespace

Window* OpenWindow(int width, int height, bool, AppState* state) {
  JsMarkOnce("bw:opened");  // main() has parsed the arguments and loaded the lesson
  glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
  if (!glfwInit()) return nullptr;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);  // WebGL 2
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(width, height, "Blockwise", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "error: no WebGL 2 context on this page\n");
    return nullptr;
  }
  glfwMakeContextCurrent(window);
  JsMarkOnce("bw:webgl");
  glfwSetWindowUserPointer(window, state);
  // Drag and drop: Emscripten's GLFW writes the dropped file into the in-memory file system first.
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    auto* s = static_cast<AppState*>(glfwGetWindowUserPointer(w));
    s->ui.input_seen = true;
    if (count > 0) OpenFile(*s, paths[0]);
  });
  state->ui.content_scale = 1;  // CSS pixels: the canvas is laid out like a desktop window at scale 1
  g_window = window;
  g_state = state;
  return WindowOf(window);
}

void RunFrameLoop(Window* window, const std::function<void()>& frame) {
  g_window = GlfwOf(window);
  g_frame = frame;
  // The browser calls Tick once per animation frame; main() does not return (its locals stay valid).
  emscripten_set_main_loop(Tick, 0, /*simulate_infinite_loop=*/1);
}

void CloseWindow(Window* window) {
  glfwDestroyWindow(GlfwOf(window));
  glfwTerminate();
}

void WaitForInput(AppState&, double) {}

int BackBufferAge(Window*) { return 0; }  // WebGL's canvas is cleared after each frame it shows
void Present(Window* window, const std::vector<PixelRect>&, int, int) { glfwSwapBuffers(GlfwOf(window)); }  // the browser shows it
void PictureLost(Window*) {}
bool CanRedrawInPart(Window*) { return false; }

const char* KeyName(int, int) { return nullptr; }  // glfwGetKeyName throws "not implemented" here
int MonitorCount() { return 1; }
void MaximizeWindow(Window*) {}
// Emscripten's GLFW has no glfwSetWindowMonitor (it throws, which stops the page's main loop): in the
// browser, full screen is the browser's own (F11), so the app's toggle stays off.
bool SetFullscreen(Window*, bool, int) { return false; }
// The browser has one canvas (Emscripten's GLFW: one window): presenter notes are desktop-only.
Window* OpenSecondWindow(int, int, const char*, int, AppState*) { return nullptr; }

const char* GlslVersion() { return "#version 300 es"; }
std::string ShaderPrelude() { return std::string(GlslVersion()) + "\nprecision highp float;\n"; }

FontBytes CjkFontBytes() {
  JsMarkOnce("bw:fonts");  // LoadFonts starts (the shown texts are collected)
  FontBytes out = ReadFontFile("/fonts/blockwise-cjk.otf");  // packaged by web/CMakeLists.txt (scripts/font-subset)
  out.subset = true;
  return out;
}

std::optional<std::string> ReadSettingsText(const std::filesystem::path& path) {
  char* v = JsStorageGet(("blockwise:" + path.filename().string()).c_str());
  if (!v) return std::nullopt;
  std::string text(v);
  std::free(v);
  return text;
}

std::string WriteSettingsText(const std::filesystem::path& path, const std::string& text) {
  if (!JsStorageSet(("blockwise:" + path.filename().string()).c_str(), text.c_str()))
    return "settings not saved: the browser's local storage refused them";
  return "";
}

std::string SaveUserFile(const std::string& path, const std::string& bytes) {
  std::error_code ec;
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) return path + ": not saved: the page's file system refused it";
  }
  JsDownload(path.c_str(), p.filename().string().c_str());
  return "";
}

void FramePainted(AppState& state, const Painted& painted) {
  JsMarkOnce("bw:painted");  // the first frame's ImGui draw lists are submitted
  state.ui.input_seen = false;  // drawn: input from here on asks for the next frame (WaitForInput)
  g_state = &state;
  g_painted = painted;
}

std::string AccountHome() { return ""; }  // no password database (Emscripten sets HOME)
void ReturnFreedMemory() {}               // the browser's memory tools measure the page
bool CanComputeInBackground() { return false; }  // built without threads
bool CanHostClass() { return false; }     // a page cannot listen for students (it joins as one)
std::unique_ptr<ClassHost> NewClassHost() { return nullptr; }

}  // namespace bw::app::platform

// [page] What web/index.html and the browser test call (Module.ccall / cwrap).
extern "C" {

// The scene dump of the last drawn frame: the same JSON as the desktop's --dump-scene.
EMSCRIPTEN_KEEPALIVE const char* bw_scene_dump() {
  using namespace bw::app;
  static std::string text;
  if (!platform::g_state) return "";
  text = bw::data::DumpJson(SceneDumpJson(*platform::g_state, platform::g_painted), 2);
  return text.c_str();
}

// Opens a file the page wrote into the in-memory file system (the file input), as if dropped.
// Returns 1 when it opened; on 0 the error line shows and the previous document stays.
EMSCRIPTEN_KEEPALIVE int bw_open_file(const char* path) {
  using namespace bw::app;
  if (!platform::g_state) return 0;
  platform::g_state->ui.input_seen = true;
  return OpenFile(*platform::g_state, path) ? 1 : 0;
}

// The page's size changed (CSS pixels): the canvas follows, and the app lays out again.
EMSCRIPTEN_KEEPALIVE void bw_resize(int width, int height) {
  using namespace bw::app;
  if (!platform::g_window) return;
  glfwSetWindowSize(platform::g_window, width, height);
  if (platform::g_state) platform::g_state->ui.input_seen = true;
}

// [class] A live class's student (classroom/student.h): the page's WebSocket opened (with the join code)
// or closed, one frame it received, and the frames to send now (one per line; a frame is compact
// JSON, which holds no raw newline).
EMSCRIPTEN_KEEPALIVE void bw_class_connected(const char* code) {
  if (!bw::app::platform::g_state) return;
  bw::classroom::Connected(*bw::app::platform::g_state, code);
  bw::app::platform::g_state->ui.input_seen = true;
}

EMSCRIPTEN_KEEPALIVE void bw_class_disconnected() {
  if (!bw::app::platform::g_state) return;
  bw::classroom::Disconnected(*bw::app::platform::g_state);
  bw::app::platform::g_state->ui.input_seen = true;
}

EMSCRIPTEN_KEEPALIVE int bw_class_frame(const char* text) {
  if (!bw::app::platform::g_state) return 0;
  bw::app::platform::g_state->ui.input_seen = true;   // draw what it changed
  return bw::classroom::OnServerFrame(*bw::app::platform::g_state, text) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE const char* bw_class_outbox() {
  static std::string text;
  text.clear();
  if (!bw::app::platform::g_state) return "";
  for (const auto& f : bw::classroom::TakeOutbox(*bw::app::platform::g_state)) text += f + "\n";
  return text.c_str();
}

// The page's answer field (phones): what it should show now, as JSON {"typed", "step", "round",
// "sent", "verdict", "wrong"} (classroom::QuestionForPage), and the text it sends (1 = it went to the class).
EMSCRIPTEN_KEEPALIVE const char* bw_class_question() {
  static std::string text;
  if (!bw::app::platform::g_state) return "{}";
  const auto q = bw::classroom::QuestionForPage(*bw::app::platform::g_state);
  text = nlohmann::json{{"typed", q.typed}, {"step", q.step}, {"round", q.round}, {"sent", q.sent},
                        {"verdict", q.verdict}, {"wrong", q.wrong}}
             .dump();
  return text.c_str();
}

EMSCRIPTEN_KEEPALIVE int bw_class_answer(const char* answer) {
  if (!bw::app::platform::g_state) return 0;
  bw::app::platform::g_state->ui.input_seen = true;
  return bw::classroom::AnswerFromPage(*bw::app::platform::g_state, answer) ? 1 : 0;
}

// "Back to the class" / "Explore on my own", as the class bar's buttons do (the browser test).
EMSCRIPTEN_KEEPALIVE void bw_class_follow(int follow) {
  if (!bw::app::platform::g_state) return;
  bw::app::platform::g_state->ui.input_seen = true;
  if (follow) bw::classroom::Follow(*bw::app::platform::g_state);
  else bw::classroom::Detach(*bw::app::platform::g_state);
}

// The join form's and the answer field's words in the app's language (the UI string table), as JSON.
EMSCRIPTEN_KEEPALIVE const char* bw_class_texts() {
  using bw::view::Str;
  static std::string text;
  const std::string lang = bw::app::platform::g_state ? bw::app::platform::g_state->options.lang : "en";
  const auto t = [&](Str k) { return bw::view::UiText(k, lang); };
  text = nlohmann::json{{"lang", lang},
                        {"title", t(Str::class_form_title)},
                        {"code", t(Str::class_form_code)},
                        {"nickname", t(Str::class_form_nickname)},
                        {"join", t(Str::class_form_join)},
                        {"wrong_code", t(Str::class_form_wrong_code)},
                        {"answer", t(Str::class_form_answer)},
                        {"send", t(Str::class_form_send)},
                        {"reconnecting", t(Str::student_reconnecting)},
                        {"full", t(Str::student_class_full)},
                        {"ended", t(Str::student_ended)}}
             .dump();
  return text.c_str();
}

}  // extern "C"
