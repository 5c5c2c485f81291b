// The main window's arrangement and the glyph texts; see panels.h.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "view/layout.h"
#include "view/scenario_model.h"

namespace bw::app {

void UpdateFontSizes(AppState& s, float display_h) {
  // The chrome (top bar, timeline) is sized from the window, not by Ctrl ±: larger text never takes
  // height from the diagram. The text grows with the window (4K) and with Ctrl ±. Fonts are rebaked
  // when a size moves by more than a step.
  const float chrome_px = view::ChromePx(display_h);
  // font_px is logical: the content scale is applied once (FontPx), the window's growth in logical rows.
  const float text_px = s.FontPx() * view::WindowTextScale(display_h / s.ui.content_scale);
  const auto moved = [](float now, float was) { return std::abs(now - was) > was * 0.04f; };
  if (moved(chrome_px, s.ui.chrome_px) || moved(text_px, s.ui.text_px)) {
    s.ui.chrome_px = chrome_px;
    s.ui.text_px = text_px;
    s.ui.fonts_dirty = true;
  }
}

Painted DrawMainWindow(AppState& s, const Fonts& fonts, float arrow_progress, HeatmapRenderer* heatmap) {
  const ImGuiIO& io = ImGui::GetIO();
  // The projector palette reaches the whole window: true white, black text, thick borders.
  ImGuiStyle& style = ImGui::GetStyle();
  const view::Palette pal = s.Palette();
  const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(ToImColor(pal.background));
  style.Colors[ImGuiCol_WindowBg] = s.options.projector ? bg : ImVec4(0.94f, 0.94f, 0.94f, 1.0f);
  if (s.ui.blank) {  // B or '.': a black screen (the clear colour is the window background), nothing drawn
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
    DrawHelp(s);
    return {};
  }
  style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  style.Colors[ImGuiCol_Text] = s.options.projector ? ImVec4(0, 0, 0, 1) : ImVec4(0, 0, 0, 1);
  style.ChildBorderSize = s.options.projector ? 2.0f : 1.0f;
  style.FrameBorderSize = s.options.projector ? 1.0f : 0.0f;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("Blockwise", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoBackground);  // glClear paints it: one full-screen layer less to blend
  ImGui::PushFont(fonts.chrome);
  DrawTopBar(s, fonts);
  DrawErrorBanner(s);
  ImGui::PopFont();
  // Below the top bar: the layout comes from the window (view::ComputeLayout), never from the font,
  // so larger text never shrinks the diagram; text and panels scroll instead.
  const ImVec2 origin = ImGui::GetCursorPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (s.ui.show_library) {  // the start screen: what there is to teach
    DrawLibrary(s, fonts, avail.x, avail.y);
    ImGui::End();
    DrawHelp(s);
    return {};
  }
  if (s.OnTitleCard()) {  // between two lessons of a course: the next one's title card, nothing else
    DrawTitleCard(s, fonts, avail.x, avail.y);
    ImGui::End();
    DrawHelp(s);
    return {};
  }
  const auto* cur = s.Current();
  view::LayoutInput in;
  in.width = avail.x;
  in.height = avail.y;
  in.font_px = s.FontPx();  // physical: the logical setting × the content scale
  in.chrome_px = fonts.chrome_px;
  in.projector = s.options.projector;
  in.presenter = s.ui.presenter;
  in.heatmap = cur && cur->HeatmapAt(s.ui.event).has_value();
  view::Layout L = view::ComputeLayout(in);
  // The scene is laid out for the whole diagram box (Ctrl + may use its spare height); what it then
  // leaves unused goes to the step text below.
  const float text_scale = s.DiagramTextScale();
  s.frame.SetSceneFrame({L.diagram.w, L.diagram.h, text_scale});
  if (cur) view::GiveUnusedDiagramHeight(L, s.frame.Scene(s).width, s.frame.Scene(s).height);
  const auto place = [&](const view::Box& b) { ImGui::SetCursorPos(ImVec2(origin.x + b.x, origin.y + b.y)); };

  place(L.diagram);
  ImGui::BeginChild("diagram", ImVec2(L.diagram.w, L.diagram.h), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  float label_px = 0;
  Painted painted = DrawDiagram(s, fonts, L.diagram.w, L.diagram.h, text_scale, arrow_progress, &label_px);
  ImGui::EndChild();
  // The diagram's labels get a font baked at their size: rebuild the atlas when the scale moved by
  // more than a step (~12 %), e.g. after a resize or going fullscreen.
  if (label_px > 0 && std::abs(label_px - s.ui.diagram_px) > s.ui.diagram_px * 0.12f) {
    s.ui.diagram_px = std::min(label_px, 200.0f);
    s.ui.fonts_dirty = true;
  }

  place(L.text);
  // The title stays in view above the text that scrolls (a revealed answer scrolled into view on a
  // projector used to take the title with it); at most half the pane.
  const ImVec2 title_at = ImGui::GetCursorScreenPos();
  ImGui::PushClipRect(title_at, ImVec2(title_at.x + L.text.w, title_at.y + L.text.h * 0.5f), true);
  const float title_h = std::min(L.text.h * 0.5f, DrawStepTitle(s, fonts, L.text.w));
  ImGui::PopClipRect();
  place(L.text);
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + title_h);
  ImGui::BeginChild("text", ImVec2(L.text.w, std::max(1.0f, L.text.h - title_h)), false);
  DrawStepText(s, fonts);
  ImGui::EndChild();
  if (L.heatmap.w > 0) {
    place(L.heatmap);
    ImGui::BeginChild("heatmap", ImVec2(L.heatmap.w, L.heatmap.h), false);
    DrawHeatmap(s, fonts, heatmap);
    ImGui::EndChild();
  }
  place(L.side);
  ImGui::BeginChild("right", ImVec2(L.side.w, L.side.h), true);
  DrawPanels(s, fonts);
  // Teacher notes never reach the projected screen: in projector or presenter mode they live in
  // the F5 window only; otherwise folded until opened.
  if (!s.ui.presenter && !s.options.projector) DrawTeacherNotes(s, fonts);
  if (!s.options.projector) DrawEditor(s);
  ImGui::EndChild();
  place(L.timeline);
  ImGui::PushFont(fonts.chrome);
  DrawTimeline(s);
  ImGui::PopFont();
  ImGui::End();
  DrawHelp(s);
  return painted;
}

std::vector<std::string> ShownTexts(const AppState& s) {
  std::vector<std::string> texts = view::AllUiTexts();
  const auto add_model = [&](const view::ScenarioModel& m) {
    auto t = m.Texts();
    texts.insert(texts.end(), t.begin(), t.end());
  };
  if (s.model.lesson) {
    const auto& L = *s.model.lesson;
    texts.push_back(L.lesson.title.zh);
    texts.push_back(L.lesson.title.en);
    for (const auto& st : L.lesson.steps) {
      for (const auto* t : {&st.title, &st.body, &st.further, &st.teacher_notes, &st.source}) {
        texts.push_back(t->zh);
        texts.push_back(t->en);
      }
      if (st.predict) {
        texts.push_back(st.predict->zh);
        texts.push_back(st.predict->en);
      }
      if (st.answer) {
        texts.push_back(st.answer->zh);
        texts.push_back(st.answer->en);
      }
      if (st.check) {  // a checked exercise's choice buttons (BWD/r1's 得 and 样 were "?" without this) and hints
        for (const auto& c : st.check->choices) {
          texts.push_back(c.zh);
          texts.push_back(c.en);
        }
        for (const auto& m : st.check->mistakes) {
          texts.push_back(m.hint.zh);
          texts.push_back(m.hint.en);
        }
      }
    }
    for (const auto& [k, m] : L.scenarios) add_model(*m);
  }
  if (s.model.standalone) add_model(*s.model.standalone);
  if (s.model.course) {  // the title cards and the presenter's outline
    const auto& C = *s.model.course;
    for (const auto* t : {&C.course.title}) {
      texts.push_back(t->zh);
      texts.push_back(t->en);
    }
    for (const auto& l : C.course.lessons) {
      texts.push_back(l.covers.zh);
      texts.push_back(l.covers.en);
    }
    for (const auto& o : C.outlines) {
      texts.push_back(o.title.zh);
      texts.push_back(o.title.en);
      for (const auto& st : o.steps) {
        texts.push_back(st.title.zh);
        texts.push_back(st.title.en);
      }
    }
  }
  for (const auto& e : s.model.library) {  // the start screen and the Ctrl+O list
    texts.push_back(e.title.zh);
    texts.push_back(e.title.en);
  }
  if (!s.ui.error.empty()) texts.push_back(s.ui.error);
  return texts;
}


}  // namespace bw::app
