// blockwise: the lesson player. GLFW window + Dear ImGui (1.86, Debian's libimgui.a with its GLFW and
// OpenGL3 backends) + FreeType fonts. main() owns the one AppState; each frame reads it, builds the
// scene from the engine's run, paints it, and applies input through AppState's actions.
// [SECTION] Arguments  [SECTION] Main loop   (frame helpers: frame_helpers.h)
// Headless use: --screenshot FILE.png renders the chosen step, writes the PNG (and --dump-scene
// JSON with every rectangle's pixel box and state), and exits. --soak N steps one event per frame.
#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <malloc.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string_view>
#include <nlohmann/json.hpp>
#include <utility>

#include "data/json_file.h"
#include "session/app_state.h"
#include "classroom/student.h"
#include "app/damage.h"
#include "app/export.h"
#include "app/fill_shader.h"
#include "app/fonts.h"
#include "app/glyphs.h"
#include "app/gpu_panel.h"
#include "app/notes_window.h"
#include "app/panels.h"
#include "app/paths.h"
#include "app/platform.h"
#include "app/settings.h"
#include "app/settings_window.h"
#include "app/shortcuts.h"
#include "app/toast.h"
#include "app/window_geometry.h"
#include "view/format.h"
#include "view/ui_text.h"
#ifndef __EMSCRIPTEN__
#include "app/class_panel.h"
#include "app/live_class.h"
#endif
#include "session/shown.h"
#include "app/frame_helpers.h"
#include "data/atomic_write.h"
#include "view/attention_model.h"

namespace {

using Clock = std::chrono::steady_clock;
const auto kProcessStart = Clock::now();

// [SECTION] Arguments ------------------------------------------------------------------------------

struct Args {
  std::string file, lesson, scenario, step, position, screenshot, dump_scene, lang, open_after, state_file, export_dir, show, class_at, class_state;
  int width = 1600, height = 1000;
  bool projector = false, presenter = false, no_settings = false, reveal = false, link = false;
  float font_px = 0;     // 0 = from settings
  float scale = 1;       // --screenshot at this scale (re-laid out with a scaled font)
  double gpu_replay_at = -1;  // open the GPU panel replaying the H200 recording at this many seconds
  bool gpu_open = false;      // --gpu: open the GPU panel in its default state
  std::string gpu_live;       // --gpu-live: open it and start a live run (screenshots on a GPU machine)
  double screenshot_after = 0;  // --screenshot-after: seconds to wait before the capture
  int soak = 0;          // [soak] issue 7: frames to step through the lesson, printing RSS (0 = off)
  bool full_redraw = false;   // --full-redraw: every frame drawn whole (damage.h)
  bool check_redraw = false;  // --check-redraw: [soak] each partial frame compared with a full redraw
  bool imgui_fills = false;  // --imgui-fills: the diagram's fills through ImGui's program (the picture must not change)
};

using bw::app::Root;  // the data root: BLOCKWISE_ROOT, the installed share/blockwise, or the source tree

// Every shipped lesson and scenario, for the library (the start screen and Ctrl+O).
std::vector<std::string> ShippedFiles() {
  std::vector<std::string> files;
  for (const char* dir : {"lessons", "assets/scenarios"}) {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(Root() + "/" + dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".json") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}


}  // namespace

// [SECTION] Main loop -------------------------------------------------------------------------------------

int main(int argc, char** argv) {
  Args args;
  CLI::App cli{"blockwise — FlashAttention, block by block"};
  cli.footer("Exit status: 0; 2 when the file it was asked to open (or --step, --position) is refused, after the window has shown "
             "the one-line error (with --screenshot: at once); 1 when the window or a --soak or --screenshot check fails.");
  cli.add_option("file", args.file, "A lesson or scenario JSON file to open (as from the file manager)");
  cli.add_option("--lesson", args.lesson, "Lesson or course JSON file (default: the shipped course, lessons/course.json)");
  cli.add_option("--scenario", args.scenario, "Open a single scenario JSON file instead of a lesson");
  cli.add_option("--step", args.step, "Start at this step id, e.g. RC-T3/b2 (in the lesson open, else in the lesson of its course that owns it); a lesson id of the course (MASK) starts at its title card");
  cli.add_option("--position", args.position, "Then go to this trace position (1-based, e.g. update:2, tile:2,1, event:17)");
  cli.add_flag("--reveal", args.reveal, "Then reveal the step's predict answer, as the first PageDown or R does");
  cli.add_option("--lang", args.lang, "Language: zh or en (default: the saved setting; at a first launch the locale's, zh_* → zh, else en; with --no-settings zh)")
      ->check(CLI::IsMember({"zh", "en"}));
  cli.add_flag("--link", args.link,
               "The options come from a web link: a step or position that does not exist is shown as an error over the library, "
               "instead of exit status 2");
  cli.add_flag("--projector,!--no-projector", args.projector,
               "Projector palette (white background, thick lines, larger text); --no-projector: not, whatever the saved setting. "
               "--lang, --projector and --font-px are for this run: the saved settings keep their own values");
  cli.add_flag("--presenter", args.presenter, "Presenter mode: teacher notes in a second window (F5)");
  cli.add_option("--font-px", args.font_px, "Base font size in logical pixels, before the screen's content scale (default: the saved setting, else 22)")
      ->check(CLI::Range(10.0f, 96.0f));
  cli.add_option("--screenshot", args.screenshot, "Render, save this PNG, and exit");
  cli.add_option("--scale", args.scale, "With --screenshot: render at this multiple of the window size")
      ->check(CLI::Range(1.0f, 4.0f));
  cli.add_option("--dump-scene", args.dump_scene, "With --screenshot: write the painted scene as JSON");
  cli.add_option("--open-after", args.open_after, "Then open this file as if dropped (tests: a bad file keeps the scenario)");
  cli.add_option("--gpu-replay-at", args.gpu_replay_at, "Open the GPU panel replaying the H200 recording, this many seconds in");
  cli.add_flag("--gpu", args.gpu_open, "Open the GPU panel (G) as a user would: live with a GPU, else a paused replay");
  cli.add_option("--gpu-live", args.gpu_live, "Open the GPU panel and start a live run: ALG,N,D,CAUSAL,PACE_MS (e.g. fp32,8192,128,1,0.02)");
  cli.add_option("--screenshot-after", args.screenshot_after, "With --screenshot: capture no sooner than this many seconds after start (a live GPU run mid-way)");
#ifndef __EMSCRIPTEN__
  cli.add_option("--class-state", args.class_state, "The live class's state file (default: class-state.json beside the settings; none with --no-settings): a class the app left running resumes from it with the same code and answers");
  cli.add_option("--class", args.class_at, "Start a live class: serve the web edition and the class channel on ADDRESS[:PORT] (the interface the students reach, e.g. 192.168.1.20:8080; 127.0.0.1 for a test; no port: any free one); J hides the join card");
#endif
  cli.add_option("--state-file", args.state_file, "Write the app's state (step, event, …) as JSON here whenever it changes");
  cli.add_option("--export-dir", args.export_dir, "Ctrl+E writes its files here (default: the saved setting, else the XDG pictures folder)");
  cli.add_option("--show", args.show, "Open this window at start: settings, open (Ctrl+O), help (?) or library (the start screen); for screenshots")
      ->check(CLI::IsMember({"settings", "open", "help", "library"}));
  cli.add_flag("--no-settings", args.no_settings, "Neither read nor write the saved settings");
  cli.add_flag("--full-redraw", args.full_redraw, "Draw every frame whole and swap buffers, not only the parts that changed since the picture the back buffer holds (for tests and benchmarks)");
  cli.add_flag("--check-redraw", args.check_redraw, "With --soak: after each partially drawn frame draw it whole too and count the frames whose pixels differ (a test)");
  cli.add_flag("--imgui-fills", args.imgui_fills, "Draw the diagram's fills with ImGui's own shader, not the flat-fill one (the same pixels, slower on software OpenGL; for tests and benchmarks)");
  cli.add_option("--width", args.width, "Window width in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--height", args.height, "Window height in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--soak", args.soak, "Soak test: step one trace event per frame through every step for N frames, print RSS and frame times, exit")
      ->check(CLI::Range(1, 100000000));
  CLI11_PARSE(cli, argc, argv);

  bw::app::AppState state;
  const bool headless = !args.screenshot.empty();
  const auto settings_path = bw::app::SettingsPath();
  const bool use_settings = !args.no_settings && !headless && args.soak == 0 && !settings_path.empty();
  bool settings_save_failed = false;  // a failed save is named once (see the save below)
  if (!args.no_settings && settings_path.empty()) std::cerr << "warning: no home folder (HOME, XDG_CONFIG_HOME) is known; settings are not saved\n";
  // The first launch (no saved settings yet) speaks the locale's language and opens maximised.
  std::error_code settings_ec;
  const bool first_launch = use_settings && !std::filesystem::exists(settings_path, settings_ec);
  if (first_launch) state.options.lang = bw::app::LanguageFromLocale(std::getenv("LC_ALL"), std::getenv("LC_MESSAGES"), std::getenv("LANG"));
  if (use_settings) {
    const std::string warn = bw::app::LoadSettings(state, settings_path);
    if (!warn.empty()) {
      std::cerr << "warning: " << warn << "\n";
      // … and in the window, once, for twice a toast's time (the window takes a moment to appear).
      bw::app::ShowToast(state, warn, bw::app::kToastSeconds);
    }
  }
  // Given for this run only: saved settings keep their own values unless changed in the app.
  const bw::app::Options options_before = state.options;
  bw::app::RunOverrides overrides;
  if (!args.lang.empty()) state.options.lang = *(overrides.lang = args.lang);
  if (cli.get_option("--projector")->count() > 0) state.options.projector = *(overrides.projector = args.projector);
  if (args.font_px > 0) state.options.font_px = *(overrides.font_px = args.font_px);
  if (!args.export_dir.empty()) state.options.export_dir = std::filesystem::absolute(args.export_dir).string();
  state.ui.presenter = args.presenter;
  state.ui.show_settings = args.show == "settings";
  state.ui.show_open = args.show == "open";
  state.ui.show_help = args.show == "help";

#ifndef __EMSCRIPTEN__
  // Large attention files show their own run first; the reference and the other orders follow from
  // a background thread (the panels say "computing" meanwhile). Screenshots wait for everything.
  if (!headless) bw::view::SetDefaultComparisonMode(bw::view::ComparisonMode::kBackground);
#endif
  // `--lesson ""` is a mistake (an empty variable in a script), not a request for the default course.
  if (cli.get_option("--lesson")->count() > 0 && args.lesson.empty()) {
    std::cerr << "error: --lesson: no file given (an empty name)\n";
    return 2;
  }
  const std::string lesson = args.lesson.empty() ? Root() + "/lessons/course.json" : args.lesson;
  const std::string asked = !args.file.empty() ? args.file : !args.scenario.empty() ? args.scenario : lesson;
  // The file the app was asked to open failed: the window still opens (on the library, with the
  // error), and the app exits with status 2, so a script can tell (issue 32: it exited 0).
  const bool startup_failed = !bw::app::OpenFile(state, asked);
  if (startup_failed) {
    std::cerr << "error: " << state.ui.error << "\n";
    // Behind the error, the library on the shipped course (a double-clicked bad file left an empty
    // window): the error stays on screen until the next open.
    const std::string refused = state.ui.error;
    const std::string course = Root() + "/lessons/course.json";
    if (asked != course && bw::app::OpenFile(state, course)) state.ui.error = refused;
    state.ui.error_library_instead = true;
  }
  // A web link's step or position that does not exist (--link): its error over what opens instead,
  // the library (the page was a blank grey one, the reason only in the browser's console: issue 32).
  bool link_failed = false;
  const auto link_error = [&](const std::string& reason) {
    state.ui.error = "link: " + reason;
    state.ui.error_library_instead = link_failed = true;
  };
  if (!args.step.empty() && !bw::app::GoToStepId(state, args.step)) {
    if (!state.ui.error.empty()) std::cerr << "error: " << state.ui.error << "\n";
    // Echoed as one escaped line, cut (an ESC sequence or a newline in the argument reached the
    // terminal raw: issue 31).
    std::string lessons;
    if (state.model.course)
      for (const auto& l : state.model.course->outlines) lessons += (lessons.empty() ? "" : ", ") + l.id;
    const std::string reason = "no step \"" + bw::data::LoadError::OneLine(args.step, 200) + "\" in " +
                               (state.ui.opened_path.empty() ? asked : state.ui.opened_path) +
                               (state.model.course ? " or its course " + state.model.course->course.file + " (lessons: " + lessons + ")" : std::string());
    std::cerr << "error: " << reason << "\n";
    if (!args.link) return 2;
    link_error(reason);
  }
  if (!args.position.empty() && !link_failed) {
    const auto* cur = state.Current();
    const int e = cur ? cur->FindPosition(args.position) : -1;
    if (e < 0) {
      const std::string reason = "no position \"" + bw::data::LoadError::OneLine(args.position, 200) + "\"" + (cur ? " (use " + cur->PositionHelp() + ")" : "");
      std::cerr << "error: " << reason << "\n";
      if (!args.link) return 2;
      link_error(reason);
    } else {
      bw::app::SetEvent(state, e);
    }
  }
  if (args.reveal) bw::app::Reveal(state);
  // The library of what there is to teach, the course's lessons as cards: the start screen when no
  // file, lesson, scenario or step was named (the course is open behind it: Esc shows its first step).
  state.model.library = bw::view::BuildLibrary(ShippedFiles(), state.model.course ? &*state.model.course : nullptr);
  // (A soak steps through the lessons themselves.)
  state.ui.show_library = args.show == "library" || link_failed ||
                         (args.soak == 0 && args.step.empty() && args.position.empty() &&
                          (startup_failed || (args.file.empty() && args.lesson.empty() && args.scenario.empty())));
  if (!args.open_after.empty() && !bw::app::OpenFile(state, args.open_after))
    std::cerr << "error: " << state.ui.error << "\n";
#ifndef __EMSCRIPTEN__
  // Hand the parser's freed memory (a 4096-token file's JSON tree is tens of MB) back to the system
  // before the window and the fonts take theirs: otherwise the peak RSS holds both.
  malloc_trim(0);
#endif

#ifndef __EMSCRIPTEN__
  // A live class: no port is opened without --class; its server runs on its own thread.
  // --class at start, or the settings window's Start (state.ui.class_setup) later: one way in.
  bw::app::LiveClass live_class;
  const auto start_class = [&](const std::string& where) {
    const std::string class_state = !args.class_state.empty() ? args.class_state
                                    : use_settings            ? (bw::app::SettingsPath().parent_path() / "class-state.json").string()
                                                              : "";
    std::string warning;
    if (std::string err = live_class.Start(where, state, class_state, &warning); !err.empty()) return err;
    if (!warning.empty()) std::cerr << "warning: " << warning << "\n";
    const bool resumed = state.ui.live_class.resumed;
    std::cout << "class: " << state.ui.live_class.url << " code " << state.ui.live_class.code << (resumed ? " (resumed)" : "")
              << std::endl;
    state.ui.status = bw::view::UiFormat(resumed ? bw::view::Str::class_resumed : bw::view::Str::class_started, state.options.lang,
                                         {state.ui.live_class.url, state.ui.live_class.code});
    return std::string();
  };
  if (!args.class_at.empty()) {
    if (const std::string err = start_class(args.class_at); !err.empty()) {
      std::cerr << "error: " << err << "\n";
      return 2;
    }
  }
  state.ui.class_setup.addresses = bw::app::ClassAddresses();
  const auto class_changed = [&](double now) { return live_class.Poll(state, now); };
#else
  const auto class_changed = [](double) { return false; };
#endif

  GLFWwindow* window = bw::app::platform::OpenWindow(args.width, args.height, /*vsync=*/args.soak == 0, &state);
  if (!window) return 1;
  if (first_launch) bw::app::platform::MaximizeWindow(window);

  IMGUI_CHECKVERSION();
  ImGuiContext* main_ctx = ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsLight();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init(bw::app::platform::GlslVersion());
  // Keys go to ImGui (text fields) and into AppState's queue (stepping), so no press is lost.
  glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int scancode, int action, int mods) {
    ImGui_ImplGlfw_KeyCallback(w, key, scancode, action, mods);
    auto* s = static_cast<bw::app::AppState*>(glfwGetWindowUserPointer(w));
    s->ui.input_seen = true;
    if (action == GLFW_PRESS || action == GLFW_REPEAT) s->ui.keys.push_back({key, mods, bw::app::LayoutChar(key, scancode)});
  });
  // Every other kind of input marks the frame as needed too (then ImGui's own handler runs), so an
  // idle window draws nothing at all: ~0 % CPU while a teacher talks.
  static auto seen = [](GLFWwindow* w) { static_cast<bw::app::AppState*>(glfwGetWindowUserPointer(w))->ui.input_seen = true; };
  glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int b, int a, int m) { seen(w); ImGui_ImplGlfw_MouseButtonCallback(w, b, a, m); });
  glfwSetScrollCallback(window, [](GLFWwindow* w, double x, double y) { seen(w); ImGui_ImplGlfw_ScrollCallback(w, x, y); });
  glfwSetCharCallback(window, [](GLFWwindow* w, unsigned c) { seen(w); ImGui_ImplGlfw_CharCallback(w, c); });
  glfwSetCursorEnterCallback(window, [](GLFWwindow* w, int e) { seen(w); ImGui_ImplGlfw_CursorEnterCallback(w, e); });
  glfwSetWindowFocusCallback(window, [](GLFWwindow* w, int f) { seen(w); ImGui_ImplGlfw_WindowFocusCallback(w, f); });
  glfwSetCursorPosCallback(window, [](GLFWwindow* w, double, double) { seen(w); });
  glfwSetFramebufferSizeCallback(window, [](GLFWwindow* w, int, int) { seen(w); });
  // Uncovered, shown again or resized: X has lost the window's picture, so the next frame is shown
  // whole, not only what changed (platform.h, PictureLost; a helper saw a covering window's pixels stay).
  glfwSetWindowRefreshCallback(window, [](GLFWwindow* w) { seen(w); bw::app::platform::PictureLost(w); });
  glfwSetWindowIconifyCallback(window, [](GLFWwindow* w, int) { seen(w); bw::app::platform::PictureLost(w); });

  bw::app::GpuPanel gpu(Root() + "/assets/gpu/recorded_run_h200.json", state.ui.gpu_replay);
  if (args.gpu_replay_at >= 0) {
    state.ui.show_gpu = true;
    gpu.StartReplay(glfwGetTime(), args.gpu_replay_at);
  }
  if (args.gpu_open) state.ui.show_gpu = true;
  if (!args.gpu_live.empty()) {
    state.ui.show_gpu = true;
    if (const std::string err = gpu.StartLiveFromSpec(args.gpu_live, glfwGetTime()); !err.empty()) {
      std::cerr << "error: --gpu-live: " << err << "\n";
      return 1;
    }
  }
  bw::app::HeatmapRenderer heatmap;
  if (const std::string err = heatmap.Init(); !err.empty()) std::cerr << "warning: heatmap disabled: " << err << "\n";
  bw::app::FillShader fill_shader;  // the diagram's fills without ImGui's texture fetch (painter.h: FillPass)
  if (!args.imgui_fills) bw::app::SetFillPass({&bw::app::FillShader::Callback, &fill_shader});
  bw::app::Fonts fonts;
  bw::app::NotesWindow notes;
  bool is_fullscreen = false;
  int saved_geometry[4] = {0, 0, args.width, args.height};
  int frame = 0;
  int redraw_frames = 2;
  int unsettled_frames = 0;  // frames drawn in a row and not shown while the layout settles
  std::set<unsigned> glyphs_tried;  // characters already added on demand (or found missing from the font)
  std::string last_state;
  // --state-file: the state after each frame, when it changed (also after a frame that settles and
  // is not shown: what a key did is there at once, as a test or a script waits for it).
  const auto write_state_file = [&] {
    if (args.state_file.empty()) return;
    const std::string js = bw::data::DumpJson(bw::app::StateJson(state), 2) + "\n";
    if (js == last_state) return;
    try {
      bw::data::WriteFileAtomically(args.state_file, js);
    } catch (const std::exception& e) {
      std::cerr << "warning: " << e.what() << "\n";
    }
    last_state = js;
  };
  int last_event = -1, last_step = -1;
  int soak_frame = 0;                          // [soak]
  long soak_rss_first = 0, soak_rss_warm = 0;  // [soak] after frame 1 and after the warm-up
  int soak_warm_frame = std::min(args.soak / 10, 1000);
  // [soak] Every lesson in the lesson's folder, in name order: at the end of one the soak opens the
  // next (wrapping); the warm-up is then the first pass through all of them.
  std::vector<std::string> soak_lessons;
  size_t soak_next = 0;
  if (args.soak > 0 && args.scenario.empty()) {
    std::error_code ec;
    for (const auto& f : std::filesystem::directory_iterator(std::filesystem::path(lesson).parent_path(), ec))
      if (f.path().extension() == ".json") soak_lessons.push_back(f.path().string());
    std::sort(soak_lessons.begin(), soak_lessons.end());
    for (size_t i = 0; i < soak_lessons.size(); ++i)
      if (std::filesystem::equivalent(soak_lessons[i], lesson, ec)) soak_next = i;
    if (soak_lessons.size() > 1) soak_warm_frame = -1;
  }
  const size_t soak_first = soak_next;
  std::vector<double> frame_ms;                // [soak] CPU time per frame, for the benchmark
  // [soak] What the slowest frames did: each frame's time with what it did besides drawing (a font
  // atlas rebuild, a file opened), and the pixels the rasteriser was asked to cover (frame_helpers.h).
  std::vector<std::pair<double, std::string>> frame_log;
  std::string frame_did, last_frame_did, soak_next_draws;  // soak_next_draws: what the next frame shows first (a step, a lesson)
  double drawn_fill_px = 0, drawn_textured_px = 0, redrawn_screens = 0;
  int redrawn_whole = 0, checked_frames = 0, check_failures = 0;  // [soak] partial redraw (damage.h)
  bw::app::DamageTracker damage;
  std::uint64_t atlas_revision = 0;  // the font atlas' pictures: a rebuild may reuse its texture name
  long drawn_triangles = 0, drawn_frames = 0;
  double first_frame_ms = -1;
  int exit_code = 0;
  const double start_time = glfwGetTime();
  constexpr double kAnimSeconds = 0.3;  // transfer arrows grow over this long, eased, then stay still
  float drawn_progress = 1.0f;         // the arrows' length in the last frame drawn (0–1)

  // One frame per call: a loop on the desktop, the browser's animation frames on the web (platform.h).
  bw::app::platform::RunFrameLoop(window, [&] {
    // Event-driven: sleep until input arrives, a playback step or animation frame is due, or the
    // watched files need a look (once a second). The screenshot and soak paths never wait.
    // Iconified: no frames, no playback, no file checks — sleep until the window comes back, then
    // resume playing from that moment (not with the missed steps).
    if (!headless && args.soak == 0 && glfwGetWindowAttrib(window, GLFW_ICONIFIED)) {
      glfwWaitEvents();
      state.ui.last_advance = glfwGetTime();
      redraw_frames = 2;
      return;
    }
    const double now = glfwGetTime();
    // Until a frame has shown the arrows' full length: a frame drawn just before the end (woken
    // early by input) left them a pixel short until the next input (a helper saw it).
    const bool animating = (state.ui.anim_start >= 0 && (now - state.ui.anim_start < kAnimSeconds || drawn_progress < 1.0f)) ||
                           (state.ui.show_gpu && gpu.Busy());  // tiles arriving: keep drawing
    if (headless || args.soak > 0 || unsettled_frames > 0) {  // (the frame not shown: draw the next at once)
      glfwPollEvents();
    } else if (state.ui.playing) {
      const double due = state.ui.last_advance + 1.0 / state.options.play_speed;
      glfwWaitEventsTimeout(std::max(0.0, std::min(due - now, animating ? 1.0 / 60 : 1.0)));
      if (glfwGetTime() >= due) {
        const std::string said = state.ui.status;
        bw::app::PlayTick(state);  // stops at the next step's mark, at the end and before leaving an open question
        // What playing says when it refuses to go on (reveal the question first) goes where the class
        // sees it: the toolbar's status line alone is too small and pale on a projector.
        if (state.ui.status != said) bw::app::ShowToast(state, state.ui.status, glfwGetTime());
        state.ui.last_advance = glfwGetTime();
      }
    } else if (animating || redraw_frames > 0) {
      glfwWaitEventsTimeout(animating ? 1.0 / 60 : 0.0);  // a few frames after input settle ImGui's layout
      if (!animating) --redraw_frames;
    } else {
      // While the model computes in the background, look ten times a second whether it is done.
      const auto* computing = state.Current() && state.Current()->Computing() ? state.Current() : nullptr;
      // A live class looks four times a second whether students joined or answered (the notes window).
      bw::app::platform::WaitForInput(state, computing ? 0.1 : state.ui.live_class.live ? 0.25 : 1.0);  // clears input_seen first (web: input since the last drawn frame)
      state.ui.last_advance = glfwGetTime();
      const bool arrived = computing && state.Current() == computing && !computing->Computing();
      const bool reloaded = bw::app::ReloadIfChanged(state);
      // Woken by the once-a-second file check and nothing changed: draw nothing.
      if (!state.ui.input_seen && !reloaded && !arrived && state.ui.presenter == notes.IsOpen() && !notes.CloseRequested() &&
          state.ui.fullscreen == is_fullscreen && state.ui.toast.empty() &&  // a toast redraws until it expires
          !class_changed(glfwGetTime()))
        return;
      redraw_frames = 2;
    }
    if (state.ui.presenter != notes.IsOpen()) {
      if (state.ui.presenter) {
        if (!notes.Open(window, &state)) state.ui.presenter = false;
      } else {
        notes.Close();
      }
    }
    if (notes.CloseRequested()) {
      state.ui.presenter = false;
      notes.Close();
    }
    bw::app::ApplyFullscreen(state, window, is_fullscreen, saved_geometry);

    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    if (fb_w == 0 || fb_h == 0) {  // minimised: nothing to draw, and nothing to spin on
      if (!headless && args.soak == 0) glfwWaitEventsTimeout(0.5);
      return;
    }
    const auto frame_start = Clock::now();
    last_frame_did = std::exchange(frame_did, std::exchange(soak_next_draws, ""));  // [soak] what the frame now measured did
    {
      int win_w = 0, win_h = 0;
      glfwGetWindowSize(window, &win_w, &win_h);
      bw::app::UpdateFontSizes(state, static_cast<float>(win_h));
    }
    if (state.ui.fonts_dirty) {
      auto texts = bw::app::ShownTexts(state);
      const auto runtime = bw::app::RuntimeTexts(state);  // glyphs on demand (glyphs.h)
      texts.insert(texts.end(), runtime.begin(), runtime.end());
      if (bw::app::AtlasCovers(fonts, texts, state.ui.text_px, state.ui.diagram_px, state.ui.chrome_px)) {
        state.ui.fonts_dirty = false;  // nothing new to bake: the same sizes, every glyph already there
        notes.RequestGlyphs(texts);     // the F5 window's atlas holds only the shown texts
      } else {
        // The other lessons of the course too: switching lessons then finds its glyphs (glyphs.h).
        // Not in the very first bake (no diagram size yet): the second frame rebakes anyway with the
        // diagram's size, and the first frame comes sooner without them.
        const std::vector<std::string>* folder = nullptr;
        if (state.model.lesson && state.ui.diagram_px > 0) folder = &bw::app::FolderTexts(state.ui.opened_path);
        const auto atlas_start = Clock::now();
        const bw::app::Fonts was = fonts;  // [soak] the sizes before, for the log (its ImFont pointers die below)
        std::string new_glyphs;
        if (args.soak > 0 && fonts.body)
          for (unsigned c : bw::app::MissingGlyphs(fonts, texts)) {
            ImWchar w[2] = {static_cast<ImWchar>(c), 0};
            char u[8] = {};
            ImTextStrToUtf8(u, sizeof u, w, w + 1);
            new_glyphs += u;
          }
        fonts = bw::app::LoadFonts(state.ui.text_px, texts, state.ui.diagram_px, state.ui.chrome_px, folder);
        if (args.soak > 0) {
          char why[160];
          std::snprintf(why, sizeof why, "diagram %.2f → %.2f px, text %.2f → %.2f px, chrome %.2f → %.2f", was.diagram_px, fonts.diagram_px, was.body_px, fonts.body_px, was.chrome_px, fonts.chrome_px);
          if (!new_glyphs.empty()) frame_did += "new glyphs \"" + new_glyphs.substr(0, 60) + "\" ";
          frame_did += "font atlas rebuilt (" +
                       std::to_string(std::lround(std::chrono::duration<double, std::milli>(Clock::now() - atlas_start).count())) + " ms; " +
                       why + ") ";
        }
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
        ++atlas_revision;
        state.ui.fonts_dirty = false;
        notes.MarkFontsDirty();
        if (!fonts.error.empty()) std::cerr << "warning: " << fonts.error << "\n";
        if (!fonts.missing.empty()) state.ui.status = fonts.missing;  // web: characters the font subset lacks
        // Characters left out by the atlas budget are not asked for again (each ask rebaked 8,000
        // characters at six sizes for nothing: seconds per bake with a 49,000-character title).
        // The budget's cut is named, never a silent "?" (fonts.h).
        if (fonts.dropped_glyphs > 0) {
          for (unsigned c : bw::app::MissingGlyphs(fonts, texts)) glyphs_tried.insert(c);
          state.ui.status = bw::view::UiFormat(bw::view::Str::glyphs_dropped, state.options.lang,
                                               {bw::view::FormatInt(fonts.dropped_glyphs), bw::view::FormatInt(fonts.glyph_capacity)});
        }
      }
    }
    // A new event starts its transfer animation.
    if (state.ui.event != last_event || state.ui.step != last_step) {
      state.ui.anim_start = (last_event < 0 || headless || args.soak > 0) ? -1 : glfwGetTime();
      last_event = state.ui.event;
      last_step = state.ui.step;
    }
    float progress = 1.0f;
    if (state.ui.anim_start >= 0) {
      const double t = std::min(1.0, (glfwGetTime() - state.ui.anim_start) / kAnimSeconds);
      progress = static_cast<float>(1.0 - (1.0 - t) * (1.0 - t) * (1.0 - t));  // ease-out cubic
    }
    drawn_progress = progress;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    bw::app::HandleKeys(state);
    bw::classroom::AfterInput(state);  // a student of a live class: a key that moved away from the teacher
    if (state.ui.show_gpu) gpu.Tick(state, glfwGetTime());  // the timeline shows the replay's position now
    bw::app::Painted painted = bw::app::DrawMainWindow(state, fonts, progress, &heatmap);
    bw::classroom::AfterInput(state);  // … or a click, a drag of the timeline
    bw::app::DrawOpenBrowser(state);
    if (state.ui.show_gpu) {
      bw::app::Painted gp = gpu.Draw(state, fonts, glfwGetTime());
      painted.rects.insert(painted.rects.end(), gp.rects.begin(), gp.rects.end());
    }
    bw::app::DrawSettingsWindow(state);
    bw::app::DrawToast(state, glfwGetTime());
#ifndef __EMSCRIPTEN__
    bw::app::DrawJoinCard(state, ImGui::GetIO().DisplaySize.y / 1080.0f);
    bw::app::DrawClassAnswers(state, fonts, ImGui::GetIO().DisplaySize.y / 1080.0f);
#endif
    // Ctrl+E: the view as PNG at 2×; Ctrl+Shift+E: the numbers as CSV and the trace as JSON. The keys
    // come through AppState's queue (HandleKeys), so a tap inside one frame still exports.
    const auto export_request = std::exchange(state.ui.export_request, bw::app::Transient::Export::kNone);
    if (export_request == bw::app::Transient::Export::kData) {
      const std::string stem = bw::app::ExportPath(state, "");
      std::string err = bw::app::MakeExportFolder(state);
      if (err.empty()) err = bw::app::ExportPanelsCsv(state, stem + "-counters.csv");
      if (err.empty()) err = bw::app::ExportTraceJson(state, stem + "-trace.json");
      if (err.empty()) bw::app::ShowToast(state, state.ui.status = "wrote " + stem + "-counters.csv, " + stem + "-trace.json", glfwGetTime());
      else state.ui.error = err;
    }
    const bool export_png = export_request == bw::app::Transient::Export::kPng;
    ImGui::Render();
    // A character this frame showed that the atlas lacks: rebuild it before the next frame.
    bw::app::RequestGlyphs(state, fonts, glyphs_tried);
    // A frame whose layout is still settling (the text's pages or the side panel's fit moved, a
    // new table sized its columns, a glyph is missing from the atlas) is not shown: the next one is
    // drawn at once. A reveal that switched the side panel flashed a table of sliced characters and
    // the text on its last page for about half a second (issue 29's walk-through). At most three in
    // a row, so a layout that never settles still reaches the screen.
    if (!headless && args.soak == 0 && !export_png && unsettled_frames < 3) {
      if (state.ui.layout_settling || state.ui.fonts_dirty) {
        write_state_file();
        ++unsettled_frames;
        state.ui.layout_settling = false;
        redraw_frames = std::max(redraw_frames, 2);
        return;
      }
    }
    unsettled_frames = 0;
    // The main window draws no background of its own (fill-rate matters with software GL): the
    // clear colour is ImGui's window background.
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    ImDrawData* draw_data = ImGui::GetDrawData();
    // Only what changed since the picture the back buffer holds (damage.h); screenshots draw whole.
    std::vector<bw::app::PixelRect> redraw{{0, 0, fb_w, fb_h}};
    if (!headless && !args.full_redraw && draw_data->FramebufferScale.x == 1.0f && draw_data->FramebufferScale.y == 1.0f &&
        bw::app::platform::CanRedrawInPart(window)) {
      const float seed_parts[4] = {bg.x, bg.y, bg.z, static_cast<float>(atlas_revision)};
      damage.Record(*draw_data, fb_w, fb_h, std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(seed_parts), sizeof seed_parts)),
                    bw::app::DescribeCallback);
      redraw = damage.Damage(bw::app::platform::BackBufferAge(window));
    }
    bw::app::DrawnArea drawn;
    bw::app::DrawFrame(draw_data, redraw, fb_w, fb_h, bg, args.soak > 0 ? &drawn : nullptr, &damage.TriangleBoxes());
    if (args.soak > 0) {  // [soak] how much of the window was drawn again
      long area = 0;
      for (const auto& r : redraw) area += r.Area();
      redrawn_screens += static_cast<double>(area) / (static_cast<double>(fb_w) * fb_h);
      if (redraw.size() == 1 && area == static_cast<long>(fb_w) * fb_h) ++redrawn_whole;
      if (args.check_redraw && area < static_cast<long>(fb_w) * fb_h) {  // the same frame drawn whole
        ++checked_frames;
        std::vector<unsigned char> part(static_cast<std::size_t>(fb_w) * fb_h * 4), whole(part.size());
        glPixelStorei(GL_PACK_ALIGNMENT, 1);
        glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, part.data());
        bw::app::DrawFrame(draw_data, {{0, 0, fb_w, fb_h}}, fb_w, fb_h, bg, nullptr);
        glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, whole.data());
        if (part != whole) {
          const auto at = static_cast<long>(std::mismatch(part.begin(), part.end(), whole.begin()).first - part.begin()) / 4;
          if (check_failures++ == 0)
            std::printf("redraw check: frame %d (%s) differs from a full redraw first at pixel (%ld, %ld) from the top-left\n",
                        soak_frame + 1, last_frame_did.c_str(), at % fb_w, fb_h - 1 - at / fb_w);
        }
      }
    }
    bw::app::platform::FramePainted(state, painted);  // web: what bw_scene_dump() reports
    if (state.ui.fonts_dirty || std::exchange(state.ui.layout_settling, false)) redraw_frames = std::max(redraw_frames, 2);
    if (first_frame_ms < 0)
      first_frame_ms = std::chrono::duration<double, std::milli>(Clock::now() - kProcessStart).count();

    if (export_png) {
      const std::string path = bw::app::ExportPath(state, "@2x.png");
      std::string err = bw::app::MakeExportFolder(state);
      if (err.empty()) err = bw::app::ExportScaledPng(state, window, 2.0f, path, &heatmap, nullptr);
      if (err.empty()) bw::app::ShowToast(state, state.ui.status = "wrote " + path, glfwGetTime());
      else state.ui.error = err;
    }

    // [soak] One trace event per frame, on to the next step (wrapping) at the end of each trace.
    if (args.soak > 0) {
      ++soak_frame;
      // Whole loop iteration, swap included (vsync is off while soaking): what a user waits for.
      static auto last = frame_start;
      if (soak_frame > 1) {
        frame_ms.push_back(std::chrono::duration<double, std::milli>(frame_start - last).count());
        frame_log.emplace_back(frame_ms.back(), last_frame_did);
      }
      last = frame_start;
      drawn_fill_px += drawn.fill_px;
      drawn_textured_px += drawn.textured_px;
      drawn_triangles += drawn.triangles;
      ++drawn_frames;
      const auto* cur = state.Current();
      bool soak_pass_done = soak_lessons.size() <= 1;  // [soak] measurements compare whole passes
      if (cur && state.ui.event + 1 < cur->EventCount()) bw::app::StepEvent(state, +1);
      else if (state.InLesson() && state.ui.step + 1 < static_cast<int>(state.model.lesson->lesson.steps.size())) {
        bw::app::GoToStep(state, state.ui.step + 1);
        soak_next_draws = "first frame of " + state.model.lesson->lesson.steps[static_cast<size_t>(state.ui.step)].id + " ";
      } else if (soak_lessons.size() > 1) {  // [soak] next lesson (a file that is no lesson is skipped)
        soak_next = (soak_next + 1) % soak_lessons.size();
        if (soak_next == soak_first) {
          soak_pass_done = true;
          std::printf("soak: every lesson stepped through by frame %d, rss_kb = %ld\n", soak_frame, bw::app::RssKb());
          if (soak_warm_frame < 0) soak_warm_frame = soak_frame;
        }
        bw::app::OpenFile(state, soak_lessons[soak_next]);
        frame_did += "opened " + std::filesystem::path(soak_lessons[soak_next]).filename().string() + " ";
        soak_next_draws = "first frame of " + std::filesystem::path(soak_lessons[soak_next]).filename().string() + " ";
      } else if (state.InLesson()) bw::app::GoToStep(state, 0);
      else bw::app::SetEvent(state, 0);
      const int warm = soak_warm_frame;
      if (soak_frame == 1) soak_rss_first = bw::app::RssKb();
      if (soak_frame == warm) soak_rss_warm = bw::app::RssKb();
      if (soak_frame >= args.soak && soak_pass_done) {  // ends after a whole pass, as the warm-up did
        const long end = bw::app::RssKb();
        std::printf("soak: %d frames, rss_kb after frame 1 = %ld, after frame %d = %ld, at the end = %ld, "
                    "growth after warm-up = %ld kB\n", soak_frame, soak_rss_first, warm, soak_rss_warm, end, end - soak_rss_warm);
        if (frame_ms.empty()) frame_ms.push_back(0);
        std::sort(frame_ms.begin(), frame_ms.end());
        std::printf("frames: start to first frame = %.1f ms, frame time median = %.2f ms, p99 = %.2f ms (%dx%d), "
                    "peak RSS = %ld MB\n", first_frame_ms, frame_ms[frame_ms.size() / 2], frame_ms[frame_ms.size() * 99 / 100],
                    fb_w, fb_h, bw::app::PeakRssKb() / 1024);
        // CPU time the process (the software rasteriser's threads included) spent per frame: less
        // sensitive than wall time to other programs sharing the cores.
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        const double cpu_ms = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
        std::printf("cpu: %.2f ms of CPU time per frame on average, start-up included\n", cpu_ms / soak_frame);
        const double screen = static_cast<double>(fb_w) * fb_h * std::max<long>(drawn_frames, 1);
        std::printf("drawn: %.2f screens of fills and %.2f of glyphs and images per frame, %ld triangles\n",
                    drawn_fill_px / screen, drawn_textured_px / screen, drawn_triangles / std::max<long>(drawn_frames, 1));
        std::printf("redrawn: %.2f screens per frame on average, %d of %d frames whole%s\n", redrawn_screens / std::max(soak_frame, 1),
                    redrawn_whole, soak_frame, args.full_redraw ? " (--full-redraw)" : "");
        if (args.check_redraw) {
          std::printf("redraw check: %d frames drawn in part, %d differ from a full redraw\n", checked_frames, check_failures);
          if (check_failures > 0 || checked_frames == 0) exit_code = 1;
        }
        std::sort(frame_log.begin(), frame_log.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::printf("slowest frames:");
        for (size_t k = 0; k < std::min<size_t>(frame_log.size(), 10); ++k)
          std::printf(" %.0f ms%s%s%s", frame_log[k].first, frame_log[k].second.empty() ? "" : " (",
                      frame_log[k].second.empty() ? "" : frame_log[k].second.substr(0, frame_log[k].second.size() - 1).c_str(),
                      frame_log[k].second.empty() ? "" : ")");
        std::printf("\n");
        glfwSetWindowShouldClose(window, 1);
      }
    }
    // A few frames let ImGui settle its layout (window sizes, table widths) before the capture.
    if (headless && ++frame >= 4 && glfwGetTime() - start_time >= args.screenshot_after) {
      bw::app::Painted scaled;
      std::string err;
      if (args.scale > 1.0f) {
        err = bw::app::ExportScaledPng(state, window, args.scale, args.screenshot, &heatmap, &scaled);
        painted = std::move(scaled);
      } else {
        err = bw::app::WritePixelsPng(args.screenshot, 0, 0, fb_w, fb_h);
      }
      if (!err.empty()) {
        std::cerr << "error: " << err << "\n";
        exit_code = 1;
      }
      if (!args.dump_scene.empty()) {
        if (const std::string derr = bw::app::DumpScene(args.dump_scene, state, painted); !derr.empty()) {
          std::cerr << "error: " << derr << "\n";
          exit_code = 1;
        }
      }
      glfwSetWindowShouldClose(window, 1);
    }
    if (headless || args.full_redraw) glfwSwapBuffers(window);
    else bw::app::platform::Present(window, redraw, fb_w, fb_h);
    if (notes.IsOpen()) notes.Frame(window, main_ctx, bw::app::ShownTexts(state));

#ifndef __EMSCRIPTEN__
    if (auto& setup = state.ui.class_setup; !setup.start_at.empty()) setup.error = start_class(std::exchange(setup.start_at, ""));
    live_class.Frame(state, glfwGetTime());   // the class follows what this frame showed
#endif
    write_state_file();
    if (use_settings && state.ui.settings_dirty) {
      const std::string err = bw::app::SaveSettings(bw::app::OptionsToSave(state.options, options_before, overrides), settings_path);
      // Named once, in the window and on stderr, with the file (an unwritable HOME printed a bare
      // "filesystem error" on stderr at every change, and the window said nothing: issue 31).
      if (!err.empty() && !settings_save_failed) {
        settings_save_failed = true;
        state.ui.status = bw::view::UiFormat(bw::view::Str::settings_not_saved, state.options.lang,
                                             {settings_path.string(), err});
        std::cerr << "warning: " << state.ui.status << "\n";
      }
      if (err.empty()) settings_save_failed = false;
      state.ui.settings_dirty = false;
    }
  });

#ifndef __EMSCRIPTEN__
  live_class.Stop(state);
#endif
  notes.Close();
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  bw::app::platform::CloseWindow(window);
  return exit_code != 0 ? exit_code : startup_failed ? 2 : 0;
}
