// gpu_panel_shot — screenshots of the app's GPU panel on a machine with a GPU and no display.
//
// The H200 machine has no X server and no window system; GLFW cannot open a window there. This
// program draws the same frame the app draws (src/app/main.cpp: the main window with a lesson step,
// the GPU panel of src/app/gpu_panel.cpp on top) through Dear ImGui's OpenGL3 renderer into an
// offscreen framebuffer of an OpenGL context made with EGL (EGL_EXT_platform_device, else the default
// display; a pbuffer, else no surface), with no GLFW: display size and time are set by hand. It
// starts a live run exactly as `blockwise --gpu-live SPEC` does (GpuPanel::StartLiveFromSpec), draws
// frames while the kernel runs, and writes PNGs (stb_image_write, via WritePixelsPng) once the
// computed tiles pass --mid of the total and once the run is done. Without a GPU (or with
// --replay-at) it shows what the app shows there: the recording, for checking the program itself.
//
//   gpu_panel_shot --live fp32,8192,128,1,20 --out DIR --name gpu-panel-live-fp32 [--mid 0.4]
//   gpu_panel_shot --live hopper,8192,128,0,0,3 --out DIR --name gpu-panel-live-hopper --mid 0   (the Hopper kernel,
//     sm_90 only, full speed, warp phases of 3 sampled CTAs: the warp timeline is drawn once the run is done)
//   → DIR/NAME-mid.png, DIR/NAME-done.png, and one line per capture on stdout.
// Data (lessons/, assets/gpu/) is found like the app's: $BLOCKWISE_ROOT, else next to the build.
// Built only with the CUDA backend and the GUI (src/tools/CMakeLists.txt).
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "session/app_state.h"
#include "app/export.h"
#include "app/fonts.h"
#include "app/glyphs.h"
#include "app/gpu_panel.h"
#include "app/heatmap.h"
#include "app/panels.h"
#include "app/paths.h"

namespace {

// An OpenGL (not ES) context through EGL, current on this thread, drawing into an RGBA8 framebuffer
// object of w × h pixels. Returns "" or what failed.
std::string MakeContext(int w, int h, std::string& how) {
  EGLDisplay dpy = EGL_NO_DISPLAY;
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (query_devices && platform_display) {
    EGLDeviceEXT devices[8];
    EGLint n = 0;
    if (query_devices(8, devices, &n) && n > 0) {
      for (EGLint i = 0; i < n && dpy == EGL_NO_DISPLAY; ++i) {
        EGLDisplay d = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (d != EGL_NO_DISPLAY && eglInitialize(d, nullptr, nullptr)) dpy = d, how = "EGL device " + std::to_string(i) + " of " + std::to_string(n);
      }
    }
  }
  if (dpy == EGL_NO_DISPLAY) {
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, nullptr, nullptr)) return "eglInitialize failed (error 0x" + std::to_string(eglGetError()) + ")";
    how = "EGL default display";
  }
  how += std::string(", vendor ") + (eglQueryString(dpy, EGL_VENDOR) ? eglQueryString(dpy, EGL_VENDOR) : "?");
  if (!eglBindAPI(EGL_OPENGL_API)) return "eglBindAPI(EGL_OPENGL_API) failed";
  const EGLint attrs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                          EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
  EGLConfig cfg = nullptr;
  EGLint n = 0;
  EGLSurface surf = EGL_NO_SURFACE;
  if (eglChooseConfig(dpy, attrs, &cfg, 1, &n) && n == 1) {
    const EGLint pb[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    surf = eglCreatePbufferSurface(dpy, cfg, pb);
  }
  if (surf == EGL_NO_SURFACE) {  // no pbuffer: a context with no surface (EGL_KHR_surfaceless_context)
    const EGLint any[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (!eglChooseConfig(dpy, any, &cfg, 1, &n) || n != 1) return "no EGL config renders OpenGL";
    how += ", surfaceless";
  } else {
    how += ", pbuffer";
  }
  EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, nullptr);
  if (ctx == EGL_NO_CONTEXT) return "eglCreateContext failed (error " + std::to_string(eglGetError()) + ")";
  if (!eglMakeCurrent(dpy, surf, surf, ctx)) return "eglMakeCurrent failed (error " + std::to_string(eglGetError()) + ")";
  GLuint fbo = 0, rb = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &rb);
  glBindRenderbuffer(GL_RENDERBUFFER, rb);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) return "the offscreen framebuffer is incomplete";
  how += std::string(", GL ") + reinterpret_cast<const char*>(glGetString(GL_VERSION)) + ", " +
         reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return "";
}

double Seconds() {
  static const auto t0 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"Screenshots of the Blockwise GPU panel through EGL (no display needed)"};
  std::string live, out = ".", name = "gpu-panel", step = "RC-T3/b0", lang = "en";
  double mid = 0.4, replay_at = -1, timeout_s = 120;
  int width = 1600, height = 1000;
  cli.add_option("--live", live, "Start a live run: ALG,N,D,CAUSAL,PACE_MS as the app's --gpu-live (ALG fp32|bf16), or hopper,N,D,CAUSAL,0[,WARP_CTAS]");
  cli.add_option("--replay-at", replay_at, "No live run: replay the H200 recording from this many seconds in");
  cli.add_option("--out", out, "Folder for the PNGs");
  cli.add_option("--name", name, "File stem: NAME-mid.png and NAME-done.png");
  cli.add_option("--mid", mid, "Capture NAME-mid.png once this fraction of the computed tiles is done (0 = none)");
  cli.add_option("--lang", lang, "Interface language: en or zh")->check(CLI::IsMember({"en", "zh"}));
  cli.add_option("--step", step, "The lesson step shown behind the panel");
  cli.add_option("--width", width, "Image width in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--height", height, "Image height in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--timeout", timeout_s, "Give up after this many seconds");
  CLI11_PARSE(cli, argc, argv);

  std::string how;
  if (const std::string err = MakeContext(width, height, how); !err.empty()) {
    std::fprintf(stderr, "error: %s\n", err.c_str());
    return 1;
  }
  std::printf("context: %s\n", how.c_str());

  bw::app::AppState state;
  state.options.lang = lang;
  const std::string root = bw::app::Root();
  if (!bw::app::OpenFile(state, root + "/lessons/rc-t3.json")) std::fprintf(stderr, "warning: %s\n", state.ui.error.c_str());
  if (state.model.lesson) {
    const int idx = state.model.lesson->lesson.FindStep(step);
    if (idx >= 0) bw::app::GoToStep(state, idx);
  }
  state.ui.show_gpu = true;

  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  ImGui::StyleColorsLight();
  if (!ImGui_ImplOpenGL3_Init("#version 130")) {
    std::fprintf(stderr, "error: Dear ImGui's OpenGL3 renderer did not start\n");
    return 1;
  }
  bw::app::HeatmapRenderer heatmap;
  if (const std::string err = heatmap.Init(); !err.empty()) std::fprintf(stderr, "warning: heatmap disabled: %s\n", err.c_str());

  bw::app::GpuPanel gpu(root + "/assets/gpu/recorded_run_h200.json", state.ui.gpu_replay);
  if (!live.empty()) {
    if (const std::string err = gpu.StartLiveFromSpec(live, Seconds()); !err.empty()) {
      std::fprintf(stderr, "error: --live: %s\n", err.c_str());
      return 1;
    }
  } else if (replay_at >= 0) {
    gpu.StartReplay(Seconds(), replay_at);
  }

  bw::app::Fonts fonts;
  std::set<unsigned> glyphs_tried;
  bool mid_written = mid <= 0, settled = false;
  int frames = 0, frames_after_done = 0;
  const auto capture = [&](const char* which) {
    const std::string path = (std::filesystem::path(out) / (name + "-" + which + ".png")).string();
    if (const std::string err = bw::app::WritePixelsPng(path, 0, 0, width, height); !err.empty()) {
      std::fprintf(stderr, "error: %s\n", err.c_str());
      return false;
    }
    const bw::app::GpuStatus& g = state.ui.gpu;
    std::printf("%s: t = %.3f s, frame %d, source %s, computed %lld / %lld, skipped %lld / %lld, roofline %d — %s\n", which,
                Seconds(), frames, g.source.c_str(), g.computed, g.computed_total, g.skipped, g.skipped_total, g.roofline ? 1 : 0,
                g.sentence.c_str());
    return true;
  };
  while (Seconds() < timeout_s) {
    bw::app::UpdateFontSizes(state, static_cast<float>(height));
    if (state.ui.fonts_dirty) {
      auto texts = bw::app::ShownTexts(state);
      const auto runtime = bw::app::RuntimeTexts(state);
      texts.insert(texts.end(), runtime.begin(), runtime.end());
      fonts = bw::app::LoadFonts(state.ui.text_px, texts, state.ui.diagram_px, state.ui.chrome_px);
      ImGui_ImplOpenGL3_DestroyFontsTexture();
      ImGui_ImplOpenGL3_CreateFontsTexture();
      state.ui.fonts_dirty = false;
      if (!fonts.error.empty()) std::fprintf(stderr, "warning: %s\n", fonts.error.c_str());
    }
    io.DeltaTime = 1.0f / 60.0f;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    const double now = Seconds();
    gpu.Tick(state, now);  // as the app does: the timeline shows the replay's position of this frame
    bw::app::DrawMainWindow(state, fonts, 1.0f, &heatmap);
    gpu.Draw(state, fonts, now);
    ImGui::Render();
    glViewport(0, 0, width, height);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glFinish();
    bw::app::RequestGlyphs(state, fonts, glyphs_tried);
    ++frames;
    // A few frames let ImGui settle its layout (the panel's first frame has no window size yet).
    settled = settled || frames >= 4;
    const bw::app::GpuStatus& g = state.ui.gpu;
    if (settled && !state.ui.fonts_dirty && !mid_written && g.computed_total > 0 &&
        static_cast<double>(g.computed) >= mid * static_cast<double>(g.computed_total) && gpu.Busy()) {
      mid_written = capture("mid");
      if (!mid_written) return 1;
    }
    if (settled && !gpu.Busy() && ++frames_after_done >= 3 && !state.ui.fonts_dirty) return capture("done") ? 0 : 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::fprintf(stderr, "error: not done after %.0f s\n", timeout_s);
  return 1;
}
