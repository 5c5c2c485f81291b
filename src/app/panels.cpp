// The ImGui panels; see panels.h. Numbers shown here all come from view::QuantitiesAt (the engine).
#include "app/panels.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>

#include "view/lesson_text.h"

namespace bw::app {

namespace {

const std::string& T(const AppState& s, const char* key) { return view::UiText(key, s.options.lang); }

std::string Fill(const AppState& s, const std::string& tmpl) {
  const auto* cur = s.Current();
  if (!cur) return tmpl;
  return view::FillPlaceholders(tmpl, view::QuantitiesAt(cur->run, s.ui.event)).text;
}

// Dear ImGui 1.86 wraps only at spaces and ASCII punctuation, so Chinese runs break mid-number
// ("22." / "86"). This wraps between any two CJK characters, never inside a Latin word or number,
// and never starts a line with closing punctuation.
bool IsCjk(unsigned c) { return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF); }
bool NoLineStart(unsigned c) {
  for (unsigned p : {0xFF0Cu, 0x3002u, 0xFF1Bu, 0xFF1Au, 0x3001u, 0xFF09u, 0x300Fu, 0x300Du, 0x3011u, 0xFF01u, 0xFF1Fu, 0x201Du})
    if (c == p) return true;
  return false;
}

void Wrapped(const std::string& text) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  const float width = std::max(size * 4, ImGui::GetContentRegionAvail().x);
  const char* s = text.c_str();
  const char* end = s + text.size();
  while (s < end) {
    const char* line = s;
    const char* brk = nullptr;  // last place a line may end (exclusive)
    float w = 0;
    unsigned prev = 0;
    const char* p = s;
    while (p < end) {
      unsigned c = 0;
      const int len = ImTextCharFromUtf8(&c, p, end);
      if (c == '\n') { brk = p; break; }
      if (p > line && (c == ' ' || ((IsCjk(c) || IsCjk(prev)) && !NoLineStart(c)))) brk = p;
      w += font->CalcTextSizeA(size, 1e9f, 0, p, p + len).x;
      if (w > width && p > line) {
        if (!brk || brk == line) brk = p;  // a single word longer than the line: cut it
        break;
      }
      prev = c;
      p += len;
    }
    if (p >= end) brk = end;
    ImGui::TextUnformatted(line, brk);
    s = brk;
    while (s < end && (*s == ' ' || *s == '\n')) ++s;
  }
}

void Heading(const Fonts& f, const std::string& text) {
  ImGui::PushFont(f.large);
  Wrapped(text);
  ImGui::PopFont();
}

void Row(const char* name, const std::string& value, bool emphasise = false) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  Wrapped(name);
  ImGui::TableSetColumnIndex(1);
  if (emphasise) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
  ImGui::TextWrapped("%s", value.c_str());
  if (emphasise) ImGui::PopStyleColor();
}

}  // namespace

void DrawTopBar(AppState& s, const Fonts& fonts) {
  ImGui::PushFont(fonts.large);
  std::string title = "Blockwise";
  if (const auto* st = s.CurrentStep()) {
    title += "  \u00b7  " + s.model.lesson->title.In(s.options.lang) + "  \u00b7  " + st->id;
  } else if (const auto* cur = s.Current()) {
    title += "  \u00b7  " + cur->scenario.title.In(s.options.lang) + "  \u00b7  " + cur->relative_path;
  }
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopFont();
  if (s.CurrentStep()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %d / %zu)", T(s, "step").c_str(), s.ui.step + 1, s.model.lesson->steps.size());
  }
  ImGui::SameLine(ImGui::GetWindowWidth() - 19.0f * ImGui::GetFontSize());
  if (ImGui::Button("\u25c0")) StepBy(s, -1);
  ImGui::SameLine();
  if (ImGui::Button("\u25b6")) StepBy(s, +1);
  ImGui::SameLine();
  if (ImGui::Button(T(s, "lang_switch").c_str())) {
    s.options.lang = s.options.lang == "zh" ? "en" : "zh";
  }
  ImGui::SameLine();
  ImGui::Checkbox("Projector", &s.options.projector);
}

void DrawErrorBanner(AppState& s) {
  if (s.ui.error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(255, 235, 238, 255));
  ImGui::BeginChild("error", ImVec2(0, ImGui::GetFrameHeightWithSpacing() * 2.2f), true);
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
  Wrapped(T(s, "error") + ": " + s.ui.error + "  " + T(s, "kept_scenario"));
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::SmallButton("\u00d7")) s.ui.error.clear();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

Painted DrawDiagram(const AppState& s, const Fonts& fonts, float width, float height) {
  const auto* cur = s.Current();
  if (!cur) return {};
  const auto pal = s.Palette();
  const view::Scene scene = view::BuildQueryScene(cur->run, s.ui.event, s.options.lang, pal);
  // 1 em is the font size, shrunk only when the window is too small for the whole diagram.
  const float em = std::min({s.options.font_px * 1.15f, width / scene.width, height / scene.height});
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  auto painted = PaintScene(ImGui::GetWindowDrawList(), scene, origin, em, fonts, pal);
  ImGui::Dummy(ImVec2(scene.width * em, scene.height * em));
  return painted;
}

void DrawStepText(const AppState& s, const Fonts& fonts) {
  const auto* st = s.CurrentStep();
  const auto& lang = s.options.lang;
  if (!st) {
    if (const auto* cur = s.Current()) {
      Heading(fonts, cur->scenario.title.In(lang));
      ImGui::TextWrapped("%s", T(s, "keys_hint").c_str());
    }
    return;
  }
  Heading(fonts, Fill(s, st->title.In(lang)));
  ImGui::Spacing();
  Wrapped(Fill(s, st->body.In(lang)));
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(55, 71, 79, 255));
  Wrapped(T(s, "further") + " \u2014 " + Fill(s, st->further.In(lang)));
  ImGui::PopStyleColor();
}

void DrawAccumulator(const AppState& s, const Fonts& fonts) {
  const auto* cur = s.Current();
  if (!cur) return;
  const auto& run = cur->run;
  const auto q = view::QuantitiesAt(run, s.ui.event);
  Heading(fonts, T(s, "panel_accumulator"));
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  ImGui::TextWrapped("%s \u00b7 %s %d/%zu: %s%s", T(s, run.problem.mode == engine::SoftmaxMode::kRaw ? "mode_raw" : "mode_stable").c_str(),
                      T(s, "event").c_str(), s.ui.event + 1, run.events.size(), run.events[s.ui.event].label.c_str(),
                      run.exact ? ("  \u00b7  " + T(s, "exact_note")).c_str() : "");
  ImGui::PopStyleColor();
  if (ImGui::BeginTable("acc", 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.3f);
    Row("m", q.at("m"));
    Row("l", q.at("l"));
    Row("u", q.at("u"));
    Row(T(s, "output_so_far").c_str(), q.at("output_so_far"));
    const int merged = run.BlocksMergedAt(s.ui.event);
    if (merged > 0) {
      const std::string j = std::to_string(merged);
      Row((T(s, "rescale") + " @" + j).c_str(), q.at("alpha@" + j));
    }
    Row(T(s, "true_output").c_str(), q.at("reference"));
    Row(T(s, "blocked_output").c_str(), merged == run.BlockCount() ? q.at("output") : "\u2026");
    Row(T(s, "wrong_average").c_str(), q.at("average"), true);
    ImGui::EndTable();
  }
  if (run.all_masked) ImGui::TextWrapped("%s", T(s, "all_masked").c_str());
  ImGui::Spacing();
  ImGui::TextUnformatted(T(s, "block_contrib").c_str());
  if (ImGui::BeginTable("blocks", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) {
    for (const char* h : {"#", "m_b", "l_b", "u_b", "u_b/l_b"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& b : run.blocks) {
      const std::string j = std::to_string(b.block);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::Text("%s", j.c_str());
      int col = 1;
      for (const char* k : {"m_b@", "l_b@", "u_b@", "local_output@"}) {
        ImGui::TableSetColumnIndex(col++);
        ImGui::TextUnformatted(q.at(k + j).c_str());
      }
    }
    ImGui::EndTable();
  }
}

void DrawTeacherNotes(const AppState& s, const Fonts& fonts) {
  const auto* st = s.CurrentStep();
  if (!st) return;
  (void)fonts;
  ImGui::Spacing();
  if (ImGui::CollapsingHeader(T(s, "teacher_notes").c_str(), ImGuiTreeNodeFlags_DefaultOpen))
    Wrapped(Fill(s, st->teacher_notes.In(s.options.lang)));
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  Wrapped(T(s, "source") + ": " + Fill(s, st->source.In(s.options.lang)));
  ImGui::PopStyleColor();
}

void DrawTimeline(AppState& s) {
  const auto* cur = s.Current();
  if (!cur) return;
  const auto& run = cur->run;
  const int n = static_cast<int>(run.events.size());
  int e = s.ui.event;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderInt("##timeline", &e, 0, n - 1, run.events[s.ui.event].label.c_str())) SetEvent(s, e);
  // Lesson steps as ticks under the slider.
  if (s.model.lesson && !s.model.standalone) {
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    auto* dl = ImGui::GetWindowDrawList();
    const float grab = ImGui::GetStyle().GrabMinSize;
    for (const auto& st : s.model.lesson->steps) {
      if (&s.model.lesson->ScenarioOf(st) != cur) continue;
      const int ev = s.model.lesson->EventOf(st);
      const float x = min.x + grab / 2 + (max.x - min.x - grab) * (n > 1 ? static_cast<float>(ev) / (n - 1) : 0.f);
      dl->AddTriangleFilled({x, max.y + 1}, {x - 5, max.y + 9}, {x + 5, max.y + 9}, IM_COL32(30, 101, 216, 255));
    }
    ImGui::Dummy(ImVec2(0, 10));
  }
}

void HandleKeys(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const auto pressed = [](ImGuiKey k) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(k)); };
  if (pressed(ImGuiKey_RightArrow) || pressed(ImGuiKey_PageDown)) StepBy(s, +1);
  if (pressed(ImGuiKey_LeftArrow) || pressed(ImGuiKey_PageUp)) StepBy(s, -1);
  if (pressed(ImGuiKey_Home)) s.CurrentStep() ? GoToStep(s, 0) : SetEvent(s, 0);
  if (pressed(ImGuiKey_End)) s.CurrentStep() ? GoToStep(s, 1 << 20) : SetEvent(s, 1 << 20);
}

std::vector<std::string> ShownTexts(const AppState& s) {
  std::vector<std::string> texts = view::AllUiTexts();
  const auto add_run = [&](const data::LoadedScenario& ls) {
    texts.push_back(ls.scenario.title.zh);
    texts.push_back(ls.scenario.title.en);
    texts.push_back(ls.relative_path);
    for (int e = 0; e < static_cast<int>(ls.run.events.size()); ++e)
      for (const auto& [k, v] : view::QuantitiesAt(ls.run, e)) texts.push_back(v);
  };
  if (s.model.lesson) {
    const auto& L = *s.model.lesson;
    texts.push_back(L.title.zh);
    texts.push_back(L.title.en);
    for (const auto& st : L.steps)
      for (const auto* t : {&st.title, &st.body, &st.further, &st.teacher_notes, &st.source}) {
        texts.push_back(t->zh);
        texts.push_back(t->en);
      }
    for (const auto& [k, ls] : L.scenarios) add_run(ls);
  }
  if (s.model.standalone) add_run(*s.model.standalone);
  if (!s.ui.error.empty()) texts.push_back(s.ui.error);
  return texts;
}

}  // namespace bw::app
