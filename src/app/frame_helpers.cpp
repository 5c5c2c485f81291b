// Frame helpers of the main loop: the state file, --dump-scene, the scaled PNG export and the
// fullscreen switch; see frame_helpers.h.
#include <GL/gl.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <nlohmann/json.hpp>
#include <utility>

#include "data/json_file.h"
#include "session/app_state.h"
#include "app/class_panel.h"
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
#include "app/widgets.h"
#include "app/window_geometry.h"
#include "session/shown.h"
#include "app/frame_helpers.h"
#include "data/atomic_write.h"


namespace bw::app {


namespace {

// The current step's answers as the class counted them (live_class.h): answer → count, verdict, mistake.
nlohmann::json ClassBarsJson(const AppState& s) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& b : s.ui.live_class.bars)
    out.push_back({{"answer", b.answer}, {"count", b.count}, {"right", b.right}, {"mistake", b.mistake}});
  return out;
}

}  // namespace

nlohmann::json StateJson(const AppState& s) {
  const auto* cur = s.Current();
  return {{"step", s.CurrentStep() ? s.CurrentStep()->id : ""},
          {"step_index", s.ui.step},
          {"event", cur ? cur->EventLabel(s.ui.event) : ""},
          {"revealed", s.ui.revealed},
          {"lesson", s.InLesson() ? s.model.lesson->lesson.id : ""},
          {"course", s.InCourse() ? nlohmann::json{{"id", s.model.course->course.id}, {"lesson_index", s.ui.course_lesson},
                                                   {"lessons", s.model.course->LessonCount()}}
                                  : nlohmann::json()},
          {"title_card", s.OnTitleCard()},
          {"end_card", s.OnEndCard()},
          {"library", s.ui.show_library},
          {"library_filter", s.ui.library_filter},
          {"blank", s.ui.blank},
          {"class", s.ui.live_class.live ? nlohmann::json{{"url", s.ui.live_class.url}, {"code", s.ui.live_class.code},
                                                          {"students", s.ui.live_class.students}, {"connected", s.ui.live_class.connected},
                                                          {"histogram", s.ui.live_class.histogram}, {"join_card", s.ui.show_join_card}, {"join_card_shown", JoinCardShown(s)},
                                                          {"pacing_lock", s.ui.live_class.pacing_lock}, {"round", s.ui.live_class.round},
                                                          {"voting_closed", s.ui.live_class.voting_closed}, {"resumed", s.ui.live_class.resumed},
                                                          {"bars_step", s.ui.live_class.bars_step}, {"bars", ClassBarsJson(s)},
                                                          {"answers_projected", ClassAnswersShown(s)}}
                                         : nlohmann::json()},
          {"student", s.ui.student.joined ? nlohmann::json{{"following", s.ui.student.following}, {"connected", s.ui.student.connected},
                                                           {"ended", s.ui.student.ended}, {"step", s.ui.student.step},
                                                           {"sent", s.ui.student.sent_answer}, {"line", s.ui.student.line}}
                                          : nlohmann::json()},
          {"answer", {{"typed", std::string(s.ui.answer_typed.data())}, {"choice", s.ui.answer_choice},
                      {"verdict", s.ui.answer_verdict}, {"mistake", s.ui.answer_mistake},
                      {"field", s.ui.answer_field != 0 ? nlohmann::json(s.ui.answer_field_box) : nlohmann::json()},
                      // The field has the keyboard (Tab: app.desktop.answer types only once it has).
                      {"active", AnswerFieldActive(s)}}},
          {"event_index", s.ui.event},
          {"text_page", s.ui.text_page},
          {"text_pages", s.ui.text_page_top.size()},
          {"event_count", cur ? cur->EventCount() : 0},
          {"playing", s.ui.playing},
          {"lang", s.options.lang},
          {"projector", s.options.projector},
          {"font_px", std::round(s.options.font_px * 10) / 10.0},  // logical px (the setting)
          {"content_scale", s.ui.content_scale},
          {"data_root", Root()},
          {"data_root_rule", FindDataRoot().rule},
          {"presenter", s.ui.presenter},
          {"fullscreen", s.ui.fullscreen},
          {"show_help", s.ui.show_help},
          {"show_settings", s.ui.show_settings},
          {"toast", s.ui.toast},
          {"status", s.ui.status},
          {"open_path", s.ui.open_path},
          {"show_open", s.ui.show_open},
          {"missing_glyphs", s.ui.missing_glyphs},
          {"error", s.ui.error},
          {"gpu", {{"shown", s.ui.show_gpu}, {"source", s.ui.gpu.source}, {"sentence", s.ui.gpu.sentence},
                   {"detail", s.ui.gpu.detail}, {"recording", s.ui.gpu.recording}, {"paused", s.ui.gpu.paused},
                   {"position_us", s.ui.gpu.position_us}, {"span_us", s.ui.gpu.span_us}, {"computed", s.ui.gpu.computed},
                   {"computed_total", s.ui.gpu.computed_total}, {"skipped", s.ui.gpu.skipped},
                   {"skipped_total", s.ui.gpu.skipped_total}, {"roofline", s.ui.gpu.roofline}}}};
}

nlohmann::json SceneDumpJson(const AppState& s, const Painted& painted) {
  nlohmann::json j = StateJson(s);
  j["rects"] = nlohmann::json::array();
  for (const auto& r : painted.rects)
    j["rects"].push_back({{"id", r.id}, {"state", r.state}, {"badge", r.badge}, {"box", {r.x0, r.y0, r.x1, r.y1}},
                          {"fill", {r.fill.r, r.fill.g, r.fill.b}}});
  j["arrows"] = nlohmann::json::array();
  for (const auto& a : painted.arrows) {
    nlohmann::json pts = nlohmann::json::array();
    for (const auto& p : a.points) pts.push_back({p.x, p.y});
    j["arrows"].push_back({{"id", a.id}, {"points", pts}, {"color", {a.color.r, a.color.g, a.color.b}}});
  }
  j["labels"] = nlohmann::json::array();
  for (const auto& l : painted.labels)
    j["labels"].push_back({{"owner", l.owner}, {"text", l.text}, {"box", {l.x0, l.y0, l.x1, l.y1}}, {"px", l.px}, {"em", l.em}});
  // The panels' lines as drawn: "px" is ImGui's font size (the line height), "em" the glyphs' size.
  j["drawn_texts"] = nlohmann::json::array();
  for (const auto& t : painted.texts)
    j["drawn_texts"].push_back({{"region", t.region}, {"text", t.text}, {"box", {t.x0, t.y0, t.x1, t.y1}}, {"px", t.px},
                                {"em", t.em},
                                {"role", t.role == PaintedText::Role::kValue ? "value" : t.role == PaintedText::Role::kHint ? "hint" : "text"}});
  j["em_px"] = painted.em;
  j["texts"] = VisibleTexts(s);   // everything the window shows as text now
  return j;
}

// Returns "" or an error line.
std::string DumpScene(const std::string& path, const AppState& s, const Painted& painted) {
  const nlohmann::json j = SceneDumpJson(s, painted);
  try {
    bw::data::WriteFileAtomically(path, bw::data::DumpJson(j, 2) + "\n");
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Renders one frame of the main window at `scale` × the window size into an offscreen framebuffer,
// laid out with a font `scale` × larger, and saves it as PNG. Returns "" or an error line.
std::string ExportScaledPng(AppState& s, platform::Window* window, Fonts& app_fonts, float scale, const std::string& path,
                            HeatmapRenderer* heatmap, Painted* painted_out, const FillPass& fills) {
  const auto [win_w, win_h] = platform::WindowSize(window);
  const int w = static_cast<int>(static_cast<float>(win_w) * scale), h = static_cast<int>(static_cast<float>(win_h) * scale);
  const float saved_font = s.options.font_px;
  s.options.font_px = saved_font * scale;
  s.ui.export_scale = scale;
  auto texts = ShownTexts(s);
  const auto runtime = RuntimeTexts(s);  // glyphs on demand (glyphs.h)
  texts.insert(texts.end(), runtime.begin(), runtime.end());
  Fonts fonts = LoadFonts(s.ui.text_px * scale, texts, s.ui.diagram_px * scale, s.ui.chrome_px * scale);
  // (LoadFonts cleared ImGui's atlas: the window's fonts are gone with it. Emptied, they fail
  // AtlasCovers, and RebuildFontsIfNeeded bakes them again before the next frame draws.)
  app_fonts = Fonts{};
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();

  GLuint fbo = 0, color = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  std::string err;
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    err = path + ": not saved: the offscreen framebuffer is not available (" + std::to_string(w) + "×" +
          std::to_string(h) + ")";
  } else {
    ImGui_ImplOpenGL3_NewFrame();
    platform::NewImGuiFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(w), static_cast<float>(h));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    ImGui::NewFrame();
    Painted painted = DrawMainWindow(s, fonts, 1.0f, heatmap, fills);
    ImGui::Render();
    glViewport(0, 0, w, h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    err = WritePixelsPng(path, 0, 0, w, h);
    if (painted_out) *painted_out = std::move(painted);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteRenderbuffers(1, &color);
  glDeleteFramebuffers(1, &fbo);
  s.options.font_px = saved_font;
  s.ui.export_scale = 1.0f;
  s.ui.fonts_dirty = true;
  return err;
}

void ApplyFullscreen(AppState& s, platform::Window* window, bool& is_fullscreen) {
  const int count = platform::MonitorCount();
  if (count > 0) s.options.monitor %= count;
  const bool move = s.ui.monitor_changed && is_fullscreen && s.ui.fullscreen;
  s.ui.monitor_changed = false;
  if (s.ui.fullscreen == is_fullscreen && !move) return;
  // No monitor, or the web (the browser's own F11 is the page's full screen): the toggle stays off.
  if (!platform::SetFullscreen(window, s.ui.fullscreen, s.options.monitor)) {
    s.ui.fullscreen = false;
    return;
  }
  is_fullscreen = s.ui.fullscreen;
}


// [soak] Resident set size of this process in kB (Linux /proc), 0 if unknown. malloc_trim first
// hands freed heap pages back, so the figure is live memory (a leak stays), not allocator slack.
// The web edition has neither (0: unknown; the browser's memory tools measure it there).
long RssKb() {
  platform::ReturnFreedMemory();
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

long PeakRssKb() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
  return 0;
}

DrawnArea MeasureDrawnArea() {
  DrawnArea out;
  const ImDrawData* dd = ImGui::GetDrawData();
  if (!dd) return out;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  for (int n = 0; n < dd->CmdListsCount; ++n) {
    const ImDrawList* dl = dd->CmdLists[n];
    for (const ImDrawCmd& cmd : dl->CmdBuffer) {
      if (cmd.UserCallback) continue;
      const ImVec4 clip = cmd.ClipRect;
      for (unsigned e = 0; e + 2 < cmd.ElemCount; e += 3) {
        const ImDrawVert* v[3];
        for (int k = 0; k < 3; ++k) v[k] = &dl->VtxBuffer[static_cast<int>(cmd.VtxOffset + dl->IdxBuffer[static_cast<int>(cmd.IdxOffset + e + k)])];
        const float area = std::abs((v[1]->pos.x - v[0]->pos.x) * (v[2]->pos.y - v[0]->pos.y) -
                                    (v[2]->pos.x - v[0]->pos.x) * (v[1]->pos.y - v[0]->pos.y)) / 2;
        const float x0 = std::min({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x}), x1 = std::max({v[0]->pos.x, v[1]->pos.x, v[2]->pos.x});
        const float y0 = std::min({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y}), y1 = std::max({v[0]->pos.y, v[1]->pos.y, v[2]->pos.y});
        const float box = (x1 - x0) * (y1 - y0);
        const float cw = std::max(0.0f, std::min(x1, clip.z) - std::max(x0, clip.x)), ch = std::max(0.0f, std::min(y1, clip.w) - std::max(y0, clip.y));
        const double px = box > 0 ? area * (cw * ch / box) : 0.0;
        const bool flat = v[0]->uv.x == white.x && v[0]->uv.y == white.y && v[1]->uv.x == white.x && v[2]->uv.y == white.y;
        (flat ? out.fill_px : out.textured_px) += px;
        ++out.triangles;
      }
    }
  }
  return out;
}

CallbackEffect DescribeCallback(const ImDrawCmd& cmd) {
  static std::uint64_t unknown = 0;
  if (cmd.UserCallback == &FillShader::Callback) return {false, 0x66696c6cULL};  // "fill": the flat program
  if (HeatmapRenderer::IsCallback(cmd)) return {true, HeatmapRenderer::Fingerprint(cmd)};
  return {true, ++unknown};
}

void DrawFrame(ImDrawData* dd, const std::vector<PixelRect>& rects, int fb_w, int fb_h, const ImVec4& clear, DrawnArea* drawn,
               const std::vector<PixelRect>* boxes) {
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(clear.x, clear.y, clear.z, 1.0f);
  if (drawn) *drawn = {};
  if (rects.empty()) return;
  if (rects.size() == 1 && rects[0] == PixelRect{0, 0, fb_w, fb_h}) {
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(dd);
    if (drawn) *drawn = MeasureDrawnArea();
    return;
  }
  glEnable(GL_SCISSOR_TEST);
  for (const PixelRect& r : rects) {
    glScissor(r.x0, fb_h - r.y1, r.x1 - r.x0, r.y1 - r.y0);  // bottom-up rows
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glDisable(GL_SCISSOR_TEST);
  const ClipDrawDataTo clipped(*dd, rects, fb_h, boxes);
  ImGui_ImplOpenGL3_RenderDrawData(dd);
  if (drawn) *drawn = MeasureDrawnArea();
}

}  // namespace bw::app
