// blockwise: the lesson player. GLFW window + Dear ImGui (1.86, Debian's libimgui.a with its GLFW and
// OpenGL3 backends) + FreeType fonts. main() owns the one AppState; each frame reads it, builds the
// scene from the engine's run, paints it, and applies input through AppState's actions.
// Headless use: --screenshot FILE.png renders the chosen step, writes the PNG (and --dump-scene
// JSON with every rectangle's pixel box and state), and exits.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <stb_image_write.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/app_state.h"
#include "app/fonts.h"
#include "app/panels.h"

namespace {

struct Args {
  std::string lesson, scenario, step, position, screenshot, dump_scene, lang = "zh", open_after;
  int width = 1600, height = 1000;
  bool projector = false;
  int soak = 0;  // [soak] issue 7: frames to step through the lesson, printing RSS (0 = off)
};

std::string DefaultLesson() {
  // Next to the source tree when run from a build folder; BLOCKWISE_ROOT overrides.
  if (const char* root = std::getenv("BLOCKWISE_ROOT")) return std::string(root) + "/lessons/rc-t3.json";
  return std::string(BLOCKWISE_SOURCE_ROOT) + "/lessons/rc-t3.json";
}

bool SaveScreenshot(const std::string& path, int w, int h) {
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // GL's origin is bottom-left
  return stbi_write_png(path.c_str(), w, h, 4, pixels.data(), w * 4) != 0;
}

void DumpScene(const std::string& path, const bw::app::AppState& s, const bw::app::Painted& painted) {
  nlohmann::json j;
  const auto* cur = s.Current();
  j["step"] = s.CurrentStep() ? s.CurrentStep()->id : "";
  j["step_index"] = s.ui.step;
  j["event"] = cur ? cur->EventLabel(s.ui.event) : "";
  j["event_count"] = cur ? cur->EventCount() : 0;
  j["playing"] = s.ui.playing;
  j["event_index"] = s.ui.event;
  j["lang"] = s.options.lang;
  j["error"] = s.ui.error;
  j["rects"] = nlohmann::json::array();
  for (const auto& r : painted.rects)
    j["rects"].push_back({{"id", r.id}, {"state", r.state}, {"box", {r.x0, r.y0, r.x1, r.y1}},
                          {"fill", {r.fill.r, r.fill.g, r.fill.b}}});
  j["arrows"] = nlohmann::json::array();
  for (const auto& a : painted.arrows) {
    nlohmann::json pts = nlohmann::json::array();
    for (const auto& p : a.points) pts.push_back({p.x, p.y});
    j["arrows"].push_back({{"id", a.id}, {"points", pts}, {"color", {a.color.r, a.color.g, a.color.b}}});
  }
  std::ofstream(path) << j.dump(2) << "\n";
}

// [soak] Resident set size of this process in kB (Linux /proc), 0 if unknown.
long RssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  CLI::App cli{"blockwise — FlashAttention, block by block"};
  cli.add_option("--lesson", args.lesson, "Lesson JSON file (default: lessons/rc-t3.json)");
  cli.add_option("--scenario", args.scenario, "Open a single scenario JSON file instead of a lesson");
  cli.add_option("--step", args.step, "Start at this step id, e.g. RC-T3/b2");
  cli.add_option("--position", args.position, "Then go to this trace position (e.g. update:2, tile:2,1, event:17)");
  cli.add_option("--lang", args.lang, "Language: zh or en")->check(CLI::IsMember({"zh", "en"}));
  cli.add_flag("--projector", args.projector, "Projector palette (white background, thick lines)");
  cli.add_option("--screenshot", args.screenshot, "Render, save this PNG, and exit");
  cli.add_option("--dump-scene", args.dump_scene, "With --screenshot: write the painted scene as JSON");
  cli.add_option("--open-after", args.open_after, "Then open this file as if dropped (tests: a bad file keeps the scenario)");
  cli.add_option("--width", args.width, "Window width in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--height", args.height, "Window height in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--soak", args.soak, "Soak test: step one trace event per frame through every step for N frames, print RSS, exit")
      ->check(CLI::Range(1, 100000000));
  CLI11_PARSE(cli, argc, argv);

  bw::app::AppState state;
  state.options.lang = args.lang;
  state.options.projector = args.projector;
  const std::string lesson = args.lesson.empty() ? DefaultLesson() : args.lesson;
  if (!args.scenario.empty()) {
    if (!bw::app::OpenFile(state, args.scenario)) std::cerr << "error: " << state.ui.error << "\n";
  } else if (!bw::app::OpenFile(state, lesson)) {
    std::cerr << "error: " << state.ui.error << "\n";
  }
  if (!args.step.empty()) {
    const int idx = state.model.lesson ? state.model.lesson->lesson.FindStep(args.step) : -1;
    if (idx < 0) {
      std::cerr << "error: no step \"" << args.step << "\" in " << lesson << "\n";
      return 2;
    }
    bw::app::GoToStep(state, idx);
  }
  if (!args.position.empty()) {
    const auto* cur = state.Current();
    const int e = cur ? cur->FindPosition(args.position) : -1;
    if (e < 0) {
      std::cerr << "error: no position \"" << args.position << "\"" << (cur ? " (use " + cur->PositionHelp() + ")" : "") << "\n";
      return 2;
    }
    bw::app::SetEvent(state, e);
  }
  if (!args.open_after.empty() && !bw::app::OpenFile(state, args.open_after))
    std::cerr << "error: " << state.ui.error << "\n";

  glfwSetErrorCallback([](int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); });
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window = glfwCreateWindow(args.width, args.height, "Blockwise", nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "error: could not open a window (is there a display? try xvfb-run)\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(1);
  glfwSetWindowUserPointer(window, &state);
  glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
    auto* s = static_cast<bw::app::AppState*>(glfwGetWindowUserPointer(w));
    if (count > 0) bw::app::OpenFile(*s, paths[0]);
  });

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsLight();
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  bw::app::Fonts fonts;
  int frame = 0;
  int redraw_frames = 2;
  const bool headless = !args.screenshot.empty();
  int soak_frame = 0;                          // [soak]
  long soak_rss_first = 0, soak_rss_warm = 0;  // [soak] after frame 1 and after the warm-up
  int exit_code = 0;
  while (!glfwWindowShouldClose(window)) {
    // Event-driven: sleep until input arrives, or until the next playback step is due; the
    // screenshot path never waits.
    if (headless || args.soak > 0) {  // [soak] never waits for input
      glfwPollEvents();
    } else if (state.ui.playing) {
      const double due = state.ui.last_advance + 1.0 / state.options.play_speed;
      glfwWaitEventsTimeout(std::max(0.0, due - glfwGetTime()));
      if (glfwGetTime() >= due) {
        const auto* cur = state.Current();
        if (cur && state.ui.event + 1 < cur->EventCount()) bw::app::StepEvent(state, +1);
        else state.ui.playing = false;
        state.ui.last_advance = glfwGetTime();
      }
    } else if (redraw_frames > 0) {
      glfwPollEvents();  // a few frames after input let ImGui settle hover and layout
      --redraw_frames;
    } else {
      glfwWaitEvents();
      redraw_frames = 2;
      state.ui.last_advance = glfwGetTime();
    }
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    if (fb_w == 0 || fb_h == 0) continue;  // minimised: nothing to draw

    if (state.ui.fonts_dirty) {
      fonts = bw::app::LoadFonts(state.options.font_px, bw::app::ShownTexts(state));
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
      state.ui.fonts_dirty = false;
      if (!fonts.error.empty()) std::cerr << "warning: " << fonts.error << "\n";
    }

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    bw::app::HandleKeys(state);

    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("Blockwise", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus);
    bw::app::DrawTopBar(state, fonts);
    bw::app::DrawErrorBanner(state);
    const float side = std::max(ImGui::GetFontSize() * 20.0f, io.DisplaySize.x * 0.3f);
    const float timeline_h = ImGui::GetFrameHeightWithSpacing() * 1.8f;
    const float body_h = ImGui::GetContentRegionAvail().y - timeline_h;
    ImGui::BeginChild("left", ImVec2(ImGui::GetContentRegionAvail().x - side, body_h), false);
    const float left_w = ImGui::GetContentRegionAvail().x;
    auto painted = bw::app::DrawDiagram(state, fonts, left_w, body_h * 0.62f);
    ImGui::Spacing();
    bw::app::DrawStepText(state, fonts);
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("right", ImVec2(0, body_h), true);
    bw::app::DrawPanels(state, fonts);
    bw::app::DrawTeacherNotes(state, fonts);
    ImGui::EndChild();
    bw::app::DrawTimeline(state);
    ImGui::End();
    bw::app::DrawHelp(state);

    ImGui::Render();
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.97f, 0.97f, 0.96f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    // [soak] One trace event per frame, on to the next step (wrapping) at the end of each trace.
    if (args.soak > 0) {
      ++soak_frame;
      const auto* cur = state.Current();
      if (cur && state.ui.event + 1 < cur->EventCount()) bw::app::StepEvent(state, +1);
      else if (state.InLesson()) bw::app::GoToStep(state, (state.ui.step + 1) % static_cast<int>(state.model.lesson->lesson.steps.size()));
      else bw::app::SetEvent(state, 0);
      const int warm = std::min(args.soak / 10, 1000);
      if (soak_frame == 1) soak_rss_first = RssKb();
      if (soak_frame == warm) soak_rss_warm = RssKb();
      if (soak_frame == args.soak) {
        const long end = RssKb();
        std::printf("soak: %d frames, rss_kb after frame 1 = %ld, after frame %d = %ld, at the end = %ld, "
                    "growth after warm-up = %ld kB\n", soak_frame, soak_rss_first, warm, soak_rss_warm, end, end - soak_rss_warm);
        glfwSetWindowShouldClose(window, 1);
      }
    }
    // A few frames let ImGui settle its layout (window sizes, table widths) before the capture.
    if (headless && ++frame == 4) {
      if (!SaveScreenshot(args.screenshot, fb_w, fb_h)) {
        std::cerr << "error: could not write " << args.screenshot << "\n";
        exit_code = 1;
      }
      if (!args.dump_scene.empty()) DumpScene(args.dump_scene, state, painted);
      glfwSetWindowShouldClose(window, 1);
    }
    glfwSwapBuffers(window);
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}
