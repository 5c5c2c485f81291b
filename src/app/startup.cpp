// [start] [platform] [end] The run's opening and closing phases; see app_run.h.
#include "app/app_run.h"

#include <GL/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "app/paths.h"
#include "app/platform.h"
#include "app/shortcuts.h"
#include "app/toast.h"
#include "data/json_file.h"
#include "session/app_state.h"
#include "view/attention_model.h"
#include "view/ui_text.h"

namespace bw::app {

namespace {

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

// The saved settings, then this run's own options over them (saved settings keep their own values
// unless changed in the app).
void ApplySettings(AppState& state, AppRun& run) {
  const Args& args = run.args;
  run.headless = !args.screenshot.empty();
  run.settings_path = SettingsPath();
  run.use_settings = !args.no_settings && !run.headless && args.soak == 0 && !run.settings_path.empty();
  if (!args.no_settings && run.settings_path.empty()) std::cerr << "warning: no home folder (HOME, XDG_CONFIG_HOME) is known; settings are not saved\n";
  // The first launch (no saved settings yet) speaks the locale's language and opens maximised.
  std::error_code settings_ec;
  run.first_launch = run.use_settings && !std::filesystem::exists(run.settings_path, settings_ec);
  if (run.first_launch) state.options.lang = LanguageFromLocale(std::getenv("LC_ALL"), std::getenv("LC_MESSAGES"), std::getenv("LANG"));
  if (run.use_settings) {
    const std::string warn = LoadSettings(state, run.settings_path);
    if (!warn.empty()) {
      std::cerr << "warning: " << warn << "\n";
      // … and in the window, once, for twice a toast's time (the window takes a moment to appear).
      ShowToast(state, warn, kToastSeconds);
    }
  }
  // Given for this run only: saved settings keep their own values unless changed in the app.
  run.options_before = state.options;
  if (!args.lang.empty()) state.options.lang = *(run.overrides.lang = args.lang);
  if (args.projector_given) state.options.projector = *(run.overrides.projector = args.projector);
  if (args.font_px > 0) state.options.font_px = *(run.overrides.font_px = args.font_px);
  if (!args.export_dir.empty()) state.options.export_dir = std::filesystem::absolute(args.export_dir).string();
  state.ui.presenter = args.presenter;
  state.ui.show_settings = args.show == "settings";
  state.ui.show_open = args.show == "open";
  state.ui.show_help = args.show == "help";
  state.ui.open_editor = args.show == "editor";
}

// A web link's step or position that does not exist (--link): its error over what opens instead,
// the library (the page was a blank grey one, the reason only in the browser's console: issue 32).
void LinkError(AppState& state, AppRun& run, const std::string& reason) {
  state.ui.error = "link: " + reason;
  state.ui.error_library_instead = run.link_failed = true;
}

// The file asked for (or the course), then --step, --position, --reveal, the library and --open-after.
std::optional<int> OpenFirstDocument(AppState& state, AppRun& run) {
  const Args& args = run.args;
  // `--lesson ""` is a mistake (an empty variable in a script), not a request for the default course.
  if (args.lesson_given && args.lesson.empty()) {
    std::cerr << "error: --lesson: no file given (an empty name)\n";
    return 2;
  }
  run.lesson = args.lesson.empty() ? Root() + "/lessons/course.json" : args.lesson;
  const std::string asked = !args.file.empty() ? args.file : !args.scenario.empty() ? args.scenario : run.lesson;
  // The file the app was asked to open failed: the window still opens (on the library, with the
  // error), and the app exits with status 2, so a script can tell (issue 32: it exited 0).
  run.startup_failed = !OpenFile(state, asked);
  if (run.startup_failed) {
    std::cerr << "error: " << state.ui.error << "\n";
    // Behind the error, the library on the shipped course (a double-clicked bad file left an empty
    // window): the error stays on screen until the next open.
    const std::string refused = state.ui.error;
    const std::string course = Root() + "/lessons/course.json";
    if (asked != course && OpenFile(state, course)) state.ui.error = refused;
    state.ui.error_library_instead = true;
  }
  if (!args.step.empty() && !GoToStepId(state, args.step)) {
    if (!state.ui.error.empty()) std::cerr << "error: " << state.ui.error << "\n";
    // Echoed as one escaped line, cut (an ESC sequence or a newline in the argument reached the
    // terminal raw: issue 31).
    std::string lessons, steps;
    if (state.model.course)
      for (const auto& l : state.model.course->outlines) lessons += (lessons.empty() ? "" : ", ") + l.id;
    // A lesson on its own (a bundle's, a new author's): its step ids, as many as a line holds.
    if (!state.model.course && state.model.lesson) {
      const auto& all = state.model.lesson->lesson.steps;
      for (size_t k = 0; k < all.size() && k < 12; ++k) steps += (steps.empty() ? "" : ", ") + all[k].id;
      if (all.size() > 12) steps += ", \u2026";
    }
    // Named as asked: a bundle's lesson is opened from a folder of the temporary directory, which the
    // reader never saw (a new author got "in /tmp/blockwise-bundle-…/maxup.json").
    const std::string reason = "no step \"" + data::LoadError::OneLine(args.step, 200) + "\" in " + (asked.empty() ? state.ui.opened_path : asked) +
                               (state.model.course ? " or its course " + state.model.course->course.file + " (lessons: " + lessons + ")" : std::string()) +
                               (steps.empty() ? std::string() : " (steps: " + steps + ")");
    std::cerr << "error: " << reason << "\n";
    if (!args.link) return 2;
    LinkError(state, run, reason);
  }
  if (!args.position.empty() && !run.link_failed) {
    const auto* cur = state.Current();
    const int e = cur ? cur->FindPosition(args.position) : -1;
    if (e < 0) {
      const std::string reason = "no position \"" + data::LoadError::OneLine(args.position, 200) + "\"" + (cur ? " (use " + cur->PositionHelp() + ")" : "");
      std::cerr << "error: " << reason << "\n";
      if (!args.link) return 2;
      LinkError(state, run, reason);
    } else {
      SetEvent(state, e);
    }
  }
  if (args.reveal) Reveal(state);
  // The library of what there is to teach, the course's lessons as cards: the start screen when no
  // file, lesson, scenario or step was named (the course is open behind it: Esc shows its first step).
  state.model.library = view::BuildLibrary(ShippedFiles(), state.model.course ? &*state.model.course : nullptr);
  // (A soak steps through the lessons themselves.)
  state.ui.show_library = args.show == "library" || run.link_failed ||
                          (args.soak == 0 && args.step.empty() && args.position.empty() &&
                           (run.startup_failed || (args.file.empty() && args.lesson.empty() && args.scenario.empty())));
  if (!args.open_after.empty() && !OpenFile(state, args.open_after)) std::cerr << "error: " << state.ui.error << "\n";
  return std::nullopt;
}

}  // namespace

std::string StartClass(AppState& state, AppRun& run, const std::string& where) {
  if (!run.live_class) return "no live class in the web edition";
  const std::string class_state = !run.args.class_state.empty() ? run.args.class_state
                                  : run.use_settings            ? (SettingsPath().parent_path() / "class-state.json").string()
                                                                : "";
  std::string warning;
  if (std::string err = run.live_class->Start(where, state, class_state, &warning); !err.empty()) return err;
  if (!warning.empty()) std::cerr << "warning: " << warning << "\n";
  const bool resumed = state.ui.live_class.resumed;
  std::cout << "class: " << state.ui.live_class.url << " code " << state.ui.live_class.code << (resumed ? " (resumed)" : "") << std::endl;
  SetStatus(state, view::UiFormat(resumed ? view::Str::class_resumed : view::Str::class_started, state.options.lang,
                                  {state.ui.live_class.url, state.ui.live_class.code}));
  return std::string();
}

std::optional<int> StartSession(AppState& state, AppRun& run) {
  ApplySettings(state, run);
  // Large attention files show their own run first; the reference and the other orders follow from
  // a background thread (the panels say "computing" meanwhile). Screenshots wait for everything.
  if (!run.headless && platform::CanComputeInBackground()) state.model.options.comparison = view::ComparisonMode::kBackground;
  if (const auto exit = OpenFirstDocument(state, run)) return exit;
  // Hand the parser's freed memory (a 4096-token file's JSON tree is tens of MB) back to the system
  // before the window and the fonts take theirs: otherwise the peak RSS holds both.
  platform::ReturnFreedMemory();
  // A live class where the edition can host one: no port is opened without --class; its server runs
  // on its own thread. --class at start, or the settings window's Start (state.ui.class_setup) later:
  // one way in.
  run.live_class = platform::NewClassHost();
  if (run.live_class) {
    if (!run.args.class_at.empty()) {
      if (const std::string err = StartClass(state, run, run.args.class_at); !err.empty()) {
        std::cerr << "error: " << err << "\n";
        return 2;
      }
    }
    state.ui.class_setup.addresses = run.live_class->Addresses();
  }
  return std::nullopt;
}

std::optional<int> OpenPlatform(AppState& state, AppRun& run) {
  const Args& args = run.args;
  run.window = platform::OpenWindow(args.width, args.height, /*vsync=*/args.soak == 0, &state);
  if (!run.window) return 1;
  if (run.first_launch) platform::MaximizeWindow(run.window);

  IMGUI_CHECKVERSION();
  run.main_ctx = ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsLight();
  platform::InitImGuiBackend(run.window, /*main=*/true);  // with the window's input callbacks
  ImGui_ImplOpenGL3_Init(platform::GlslVersion());

  GpuPanel& gpu = run.gpu.emplace(Root() + "/assets/gpu/recorded_run_h200.json", state.ui.gpu_replay);
  if (args.gpu_replay_at >= 0) {
    state.ui.show_gpu = true;
    gpu.StartReplay(platform::Now(), args.gpu_replay_at);
  }
  if (args.gpu_open) state.ui.show_gpu = true;
  if (!args.gpu_live.empty()) {
    state.ui.show_gpu = true;
    if (const std::string err = gpu.StartLiveFromSpec(args.gpu_live, platform::Now()); !err.empty()) {
      std::cerr << "error: --gpu-live: " << err << "\n";
      return 1;
    }
  }
  if (const std::string err = run.heatmap.Init(); !err.empty()) std::cerr << "warning: heatmap disabled: " << err << "\n";
  if (!args.imgui_fills) run.fill_pass = {&FillShader::Callback, &run.fill_shader};
  SoakInit(run.soak, args.soak, args.check_redraw, args.full_redraw, !args.scenario.empty(), run.lesson);
  run.start_time = platform::Now();
  return std::nullopt;
}

int Shutdown(AppState& state, AppRun& run) {
  if (run.live_class) run.live_class->Stop(state);
  run.notes.Close();
  ImGui_ImplOpenGL3_Shutdown();
  platform::ShutdownImGuiBackend();
  ImGui::DestroyContext();
  platform::CloseWindow(run.window);
  return run.exit_code != 0 ? run.exit_code : run.startup_failed ? 2 : 0;
}

}  // namespace bw::app
