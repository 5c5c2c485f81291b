// The ImGui panels; see panels.h. Numbers shown here all come from view::QuantitiesAt (the engine).
#include "app/panels.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_stdlib.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>

#include "app/editor_fields.h"
#include "app/icons.h"
#include "app/save_as.h"
#include "data/json_file.h"
#include "view/lesson_text.h"
#include "view/single_query_model.h"

#include <nlohmann/json.hpp>
#include "view/scenario_model.h"

namespace bw::app {

namespace {

const std::string& T(const AppState& s, const char* key) { return view::UiText(key, s.options.lang); }

std::string Fill(const AppState& s, const std::string& tmpl) {
  const auto* cur = s.Current();
  if (!cur) return tmpl;
  return view::FillPlaceholders(tmpl, cur->QuantitiesAt(s.ui.event)).text;
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

void Row(const char* name, const std::string& value, bool emphasise = false, float bar = -1) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  Wrapped(name);
  ImGui::TableSetColumnIndex(1);
  if (emphasise) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
  if (bar >= 0) {  // the number on a bar of its size: comparisons read at a glance from the back
    ImGui::PushStyleColor(ImGuiCol_PlotHistogram, IM_COL32(30, 101, 216, 150));
    ImGui::ProgressBar(bar, ImVec2(-1, 0), value.c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextWrapped("%s", value.c_str());
  }
  if (emphasise) ImGui::PopStyleColor();
}

}  // namespace

void DrawTopBar(AppState& s, const Fonts& fonts) {
  ImGui::PushFont(fonts.large);
  std::string title = "Blockwise";
  if (const auto* st = s.CurrentStep()) {
    title += "  \u00b7  " + s.model.lesson->lesson.title.In(s.options.lang) + "  \u00b7  " + st->id;
  } else if (const auto* cur = s.Current()) {
    title += "  \u00b7  " + cur->Title().In(s.options.lang);
  }
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopFont();
  if (s.CurrentStep()) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%s %d / %zu)", T(s, "step").c_str(), s.ui.step + 1, s.model.lesson->lesson.steps.size());
  }
  // The buttons sit at the right edge, or on their own line when the title leaves no room.
  const ImGuiStyle& style = ImGui::GetStyle();
  const auto button_w = [&](const std::string& label) { return ImGui::CalcTextSize(label.c_str()).x + style.FramePadding.x * 2; };
  const float buttons = button_w("\u25c0") + button_w("\u25b6") + button_w(T(s, "lang_switch")) + ImGui::GetFrameHeight() +
                        ImGui::CalcTextSize(T(s, "projector").c_str()).x + button_w("GPU") + button_w(T(s, "settings_button")) +
                        button_w("?") + style.ItemSpacing.x * 8 + style.ItemInnerSpacing.x;
  ImGui::SameLine();
  const float right = ImGui::GetWindowContentRegionMax().x - buttons;
  if (ImGui::GetCursorPosX() > right) ImGui::NewLine();
  else ImGui::SetCursorPosX(right);
  if (ImGui::Button("\u25c0")) StepLesson(s, -1);
  ImGui::SameLine();
  if (ImGui::Button("\u25b6")) StepLesson(s, +1);
  ImGui::SameLine();
  if (ImGui::Button(T(s, "lang_switch").c_str())) {
    s.options.lang = s.options.lang == "zh" ? "en" : "zh";
    s.ui.settings_dirty = true;
  }
  ImGui::SameLine();
  if (ImGui::Checkbox(T(s, "projector").c_str(), &s.options.projector)) s.ui.settings_dirty = true;
  ImGui::SameLine();
  if (ImGui::Button("GPU")) s.ui.show_gpu = !s.ui.show_gpu;
  ImGui::SameLine();
  if (ImGui::Button(T(s, "settings_button").c_str())) s.ui.show_settings = !s.ui.show_settings;
  ImGui::SameLine();
  if (ImGui::Button("?")) s.ui.show_help = !s.ui.show_help;
  DrawStatus(s);
}

void DrawErrorBanner(AppState& s) {
  if (s.ui.error.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(255, 235, 238, 255));
  ImGui::BeginChild("error", ImVec2(0, ImGui::GetFrameHeightWithSpacing() * 2.2f), true);
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
  Wrapped(T(s, "error") + ": " + s.ui.error + "  " + T(s, s.Current() ? "kept_scenario" : "nothing_loaded"));
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::SmallButton("\u00d7")) s.ui.error.clear();
  ImGui::EndChild();
  ImGui::PopStyleColor();
}

Painted DrawDiagram(const AppState& s, const Fonts& fonts, float width, float height, float arrow_progress) {
  const auto* cur = s.Current();
  if (!cur) return {};
  const auto pal = s.Palette();
  const view::Scene scene = cur->BuildScene(s.ui.event, s.options.lang, pal);
  // 1 em is the font size, shrunk only when the window is too small for the whole diagram.
  const float em = std::min({s.FontPx() * 1.15f, width / scene.width, height / scene.height});
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // The step's highlights apply at the step's own event (not while scrubbing away from it).
  std::vector<std::string> highlight;
  if (const auto* st = s.CurrentStep(); st && s.ui.event == s.model.lesson->EventOf(s.ui.step)) highlight = st->highlight;
  auto painted = PaintScene(ImGui::GetWindowDrawList(), scene, origin, em, fonts, pal, arrow_progress, highlight);
  ImGui::Dummy(ImVec2(scene.width * em, scene.height * em));
  return painted;
}

void DrawStepText(const AppState& s, const Fonts& fonts) {
  const auto* st = s.CurrentStep();
  const auto& lang = s.options.lang;
  if (!st) {
    if (const auto* cur = s.Current()) {
      Heading(fonts, cur->Title().In(lang));
      Wrapped(cur->File());
      Wrapped(T(s, "keys_hint"));
    }
    return;
  }
  Heading(fonts, Fill(s, st->title.In(lang)));
  ImGui::Spacing();
  const bool big = s.options.projector || s.ui.presenter;  // read from the back of the room
  if (big) ImGui::PushFont(fonts.text);
  Wrapped(Fill(s, st->body.In(lang)));
  if (big) ImGui::PopFont();
  if (st->predict) {  // predict-then-reveal: students answer before the next step shows it
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, IM_COL32(243, 229, 245, 255));
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(106, 27, 154, 255));
    ImGui::BeginChild("predict", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * 3.2f), true);
    Wrapped(T(s, "predict") + " " + Fill(s, st->predict->In(lang)));
    ImGui::EndChild();
    ImGui::PopStyleColor(2);
  }
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(55, 71, 79, 255));
  Wrapped(T(s, "further") + " \u2014 " + Fill(s, st->further.In(lang)));
  ImGui::PopStyleColor();
}

void DrawPanels(const AppState& s, const Fonts& fonts) {
  const auto* cur = s.Current();
  if (!cur) return;
  int n = 0;
  for (const auto& sec : cur->Panels(s.ui.event, s.options.lang)) {
    ImGui::PushID(n++);
    Heading(fonts, sec.title);
    if (sec.columns.empty()) {
      if (ImGui::BeginTable("rows", 2, ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
        ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        for (const auto& r : sec.rows) Row(r.name.c_str(), r.value, r.warning, r.bar);
        ImGui::EndTable();
      }
    } else if (ImGui::BeginTable("table", static_cast<int>(sec.columns.size()),
                                 ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
      for (const auto& c : sec.columns) ImGui::TableSetupColumn(c.c_str());
      ImGui::TableHeadersRow();
      for (const auto& r : sec.rows) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(r.name.c_str());
        size_t col = 1, from = 0;
        while (col < sec.columns.size()) {
          const size_t tab = r.value.find('\t', from);
          ImGui::TableSetColumnIndex(static_cast<int>(col++));
          Wrapped(r.value.substr(from, tab == std::string::npos ? std::string::npos : tab - from));
          if (tab == std::string::npos) break;
          from = tab + 1;
        }
      }
      ImGui::EndTable();
    }
    ImGui::Spacing();
    ImGui::PopID();
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
  const int n = cur->EventCount();
  int e = s.ui.event;
  if (PlayPauseButton(s.ui.playing)) s.ui.playing = !s.ui.playing;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  const std::string label = std::to_string(s.ui.event + 1) + " / " + std::to_string(n) + "   " + cur->EventLabel(s.ui.event);
  if (ImGui::SliderInt("##timeline", &e, 0, n - 1, label.c_str())) SetEvent(s, e);
  // Block boundaries as grey ticks, lesson steps as blue triangles, under the slider.
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  auto* dl = ImGui::GetWindowDrawList();
  const float grab = ImGui::GetStyle().GrabMinSize;
  const auto x_of = [&](int ev) {
    return min.x + grab / 2 + (max.x - min.x - grab) * (n > 1 ? static_cast<float>(ev) / static_cast<float>(n - 1) : 0.f);
  };
  const auto marks = cur->BlockMarks();
  if (marks.size() < 2000)
    for (const auto& m : marks) dl->AddLine({x_of(m.event), max.y}, {x_of(m.event), max.y + 5}, IM_COL32(96, 96, 96, 255));
  if (s.InLesson()) {
    for (size_t i = 0; i < s.model.lesson->lesson.steps.size(); ++i) {
      if (&s.model.lesson->ScenarioOf(static_cast<int>(i)) != cur) continue;
      const float x = x_of(s.model.lesson->EventOf(static_cast<int>(i)));
      dl->AddTriangleFilled({x, max.y + 1}, {x - 5, max.y + 10}, {x + 5, max.y + 10}, IM_COL32(30, 101, 216, 255));
    }
  }
  ImGui::Dummy(ImVec2(0, 10));
}

void DrawPresenterNotes(AppState& s, const Fonts& fonts, double elapsed_s) {
  const auto* st = s.CurrentStep();
  const int minutes = static_cast<int>(elapsed_s) / 60, seconds = static_cast<int>(elapsed_s) % 60;
  ImGui::Text("%02d:%02d", minutes, seconds);
  ImGui::SameLine();
  if (!st) {
    Wrapped(T(s, "no_lesson_notes"));
    return;
  }
  const auto& L = s.model.lesson->lesson;
  ImGui::TextDisabled("%s %d / %zu  \u00b7  %s", T(s, "step").c_str(), s.ui.step + 1, L.steps.size(), st->id.c_str());
  Heading(fonts, Fill(s, st->title.In(s.options.lang)));
  ImGui::Separator();
  ImGui::PushFont(fonts.text);
  Wrapped(Fill(s, st->teacher_notes.In(s.options.lang)));
  ImGui::PopFont();
  ImGui::Separator();
  if (s.ui.step + 1 < static_cast<int>(L.steps.size())) {
    const auto& next = L.steps[s.ui.step + 1];
    ImGui::TextDisabled("%s", T(s, "next_step").c_str());
    Wrapped(next.id + "  " + next.title.In(s.options.lang));
  }
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(84, 96, 104, 255));
  Wrapped(T(s, "source") + ": " + Fill(s, st->source.In(s.options.lang)));
  ImGui::PopStyleColor();
  ImGui::Spacing();
  ImGui::TextDisabled("%s", T(s, "steps").c_str());
  for (int i = 0; i < static_cast<int>(L.steps.size()); ++i) {
    const std::string label = L.steps[i].id + "  " + L.steps[i].title.In(s.options.lang);
    if (ImGui::Selectable(label.c_str(), i == s.ui.step)) GoToStep(s, i);
  }
}

void DrawOpenBrowser(AppState& s, const std::vector<std::string>& files) {
  if (!s.ui.show_open) return;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(size.x * 0.6f, size.y * 0.7f), ImGuiCond_Always);
  ImGui::Begin(T(s, "open_title").c_str(), &s.ui.show_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextUnformatted(T(s, "open_path").c_str());
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();  // type a path (any script) at once
  const bool enter = ImGui::InputText("##path", &s.ui.open_path, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if ((ImGui::Button(T(s, "open").c_str()) || enter) && !s.ui.open_path.empty()) {
    if (OpenFile(s, s.ui.open_path)) s.ui.show_open = false;
  }
  if (!s.ui.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    Wrapped(s.ui.error);
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  ImGui::BeginChild("files");
  const auto list = [&](const char* title, const std::vector<std::string>& items) {
    if (items.empty()) return;
    ImGui::TextDisabled("%s", title);
    for (const auto& f : items)
      if (ImGui::Selectable(f.c_str())) {
        s.ui.open_path = f;
        if (OpenFile(s, f)) s.ui.show_open = false;
      }
    ImGui::Spacing();
  };
  list(T(s, "recent").c_str(), s.options.recent);
  list(T(s, "shipped").c_str(), files);
  ImGui::EndChild();
  ImGui::End();
}

void DrawStatus(AppState& s) {
  if (s.ui.status.empty()) return;
  ImGui::SameLine();
  ImGui::TextDisabled("%s", s.ui.status.c_str());
}

void DrawHeatmap(const AppState& s, HeatmapRenderer* renderer) {
  const auto* cur = s.Current();
  if (!cur || !renderer) return;
  const auto h = cur->HeatmapAt(s.ui.event);
  if (!h) return;
  ImGui::TextUnformatted((T(s, "heatmap") + "  " + h->title).c_str());
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float legend_h = ImGui::GetTextLineHeightWithSpacing() * 3.2f;
  // Cells keep their aspect: a single row is a strip, a square matrix a square.
  const float aspect = static_cast<float>(h->rows) / static_cast<float>(h->cols);
  float width = avail.x;
  float height = std::clamp(width * aspect, ImGui::GetFontSize() * 1.5f, width);
  if (height > avail.y - legend_h && avail.y - legend_h > ImGui::GetFontSize() * 3) {
    height = avail.y - legend_h;
    width = std::min(avail.x, height / std::max(aspect, 1e-6f));
  }
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1{p0.x + width, p0.y + height};
  auto* dl = ImGui::GetWindowDrawList();
  if (!renderer->Draw(dl, *h, p0, p1, 6.0f)) {
    Wrapped(T(s, "heatmap_too_big"));
    return;
  }
  if (h->r1 > h->r0) {  // the current tile, outlined
    const float cw = width / static_cast<float>(h->cols), ch = height / static_cast<float>(h->rows);
    dl->AddRect({p0.x + cw * static_cast<float>(h->c0), p0.y + ch * static_cast<float>(h->r0)},
                {p0.x + cw * static_cast<float>(h->c1), p0.y + ch * static_cast<float>(h->r1)},
                IM_COL32(255, 64, 32, 255), 0, 0, std::max(2.0f, ImGui::GetFontSize() * 0.12f));
  }
  dl->AddRect(p0, p1, IM_COL32(60, 60, 60, 255));
  ImGui::Dummy(ImVec2(width, height));
  Wrapped(T(s, "heatmap_legend") + "  " + std::to_string(h->rows) + " \u00d7 " + std::to_string(h->cols));
}

namespace {

// "[2, 1, 4]" → "2, 1, 4": how a list is shown in an editor field.
std::string ListText(const nlohmann::json& a) {
  std::string t = a.dump();
  if (t.size() >= 2 && t.front() == '[') t = t.substr(1, t.size() - 2);
  std::string out;
  for (size_t i = 0; i < t.size(); ++i) {
    out += t[i];
    if (t[i] == ',' && (i + 1 >= t.size() || t[i + 1] != ' ')) out += ' ';
  }
  return out;
}

void FillEditor(Editor& ed, const view::SingleQueryModel& m) {
  const nlohmann::json j = data::SingleQueryScenarioToJson(m.scenario());
  ed.logits = j.contains("logits");
  ed.scores = ListText(ed.logits ? j["logits"] : j["weights"]);
  ed.values = ListText(j["values"]);
  ed.blocks = ListText(j["block_sizes"]);
  ed.stable = j["mode"] == "stable";
  ed.error.clear();
  ed.source = &m;
}

}  // namespace

void DrawEditor(AppState& s) {
  const auto* m = dynamic_cast<const view::SingleQueryModel*>(s.Current());
  if (!m) return;
  Editor& ed = s.ui.editor;
  if (!ImGui::CollapsingHeader(T(s, "editor").c_str())) return;
  if (ed.source != m) FillEditor(ed, *m);
  bool changed = false;
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 6);
  // Each field shows its own error (and the masked-logit hint) right under it.
  const auto field = [&](const char* label, std::string* text, int index) {
    changed |= ImGui::InputText(label, text);
    const bool here = !ed.error.empty() && ed.error_key == EditorKey(ed, index);
    if (here || (index == 0 && ed.masked_hint)) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    if (here) Wrapped(ed.error);
    if (index == 0 && ed.masked_hint) Wrapped(T(s, "masked_hint"));
    if (here || (index == 0 && ed.masked_hint)) ImGui::PopStyleColor();
  };
  field(ed.logits ? "logits" : "weights", &ed.scores, 0);
  field("values", &ed.values, 1);
  field("block sizes", &ed.blocks, 2);
  ImGui::PopItemWidth();
  changed |= ImGui::Checkbox(T(s, "stable_mode").c_str(), &ed.stable);
  if (changed) {  // live recompute; a refused edit keeps the last good scenario on screen
    try {
      ed.masked_hint = NeedsMaskedHint(ed.scores);
      const nlohmann::json doc = EditedDocument(ed, m->Title());
      auto model = view::ParseScenarioModel(doc, "(editor)");
      const int event = s.ui.event;
      s.model.standalone = model;
      ed.source = model.get();
      SetEvent(s, event);
      ed.error.clear();
      ed.error_key.clear();
      s.ui.fonts_dirty = true;
    } catch (const data::LoadError& e) {  // "/logits/2" → the scores field; "/values" → values
      ed.error = e.what();
      const std::string& p = e.json_path();
      ed.error_key = p.substr(1, p.find('/', 1) == std::string::npos ? std::string::npos : p.find('/', 1) - 1);
    } catch (const std::exception& e) {
      ed.error = e.what();
      ed.error_key.clear();
    }
  }
  if (!ed.error.empty() && ed.error_key != EditorKey(ed, 0) && ed.error_key != "values" && ed.error_key != "block_sizes") {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    Wrapped(ed.error);  // not about one field (e.g. the block sizes do not add up to the positions)
    ImGui::PopStyleColor();
  }
  if (ed.save_path.empty()) ed.save_path = "scenario-edited.json";
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  ImGui::InputText("##save", &ed.save_path);
  ImGui::SameLine();
  if (ImGui::Button(T(s, "save_as").c_str())) {
    if (const std::string err = SaveScenarioAs(s, ed.save_path); err.empty()) s.ui.status = T(s, "saved") + " " + s.options.recent[0];
    else s.ui.error = err;
  }
}

Painted DrawMainWindow(AppState& s, const Fonts& fonts, float arrow_progress, HeatmapRenderer* heatmap) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("Blockwise", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoBackground);  // glClear paints it: one full-screen layer less to blend
  DrawTopBar(s, fonts);
  DrawErrorBanner(s);
  // Side panel: about a third of the width, never narrower than 20 em.
  const float side = std::max(ImGui::GetFontSize() * 20.0f, io.DisplaySize.x * (s.ui.presenter ? 0.27f : 0.3f));
  const float timeline_h = ImGui::GetFrameHeightWithSpacing() * 1.8f;
  const float body_h = std::max(ImGui::GetFontSize() * 4, ImGui::GetContentRegionAvail().y - timeline_h);
  ImGui::BeginChild("left", ImVec2(ImGui::GetContentRegionAvail().x - side, body_h), false);
  const float left_w = ImGui::GetContentRegionAvail().x;
  Painted painted = DrawDiagram(s, fonts, left_w, body_h * 0.62f, arrow_progress);
  ImGui::Spacing();
  // Under the diagram: the step text, and beside it the P heatmap when the scenario has one.
  const auto* cur = s.Current();
  const bool has_heatmap = cur && cur->HeatmapAt(s.ui.event).has_value();
  const float heat_w = has_heatmap ? std::min(left_w * 0.34f, ImGui::GetContentRegionAvail().y * 1.1f) : 0.0f;
  ImGui::BeginChild("text", ImVec2(left_w - heat_w - (has_heatmap ? ImGui::GetStyle().ItemSpacing.x : 0), 0), false);
  DrawStepText(s, fonts);
  ImGui::EndChild();
  if (has_heatmap) {
    ImGui::SameLine();
    ImGui::BeginChild("heatmap", ImVec2(0, 0), false);
    DrawHeatmap(s, heatmap);
    ImGui::EndChild();
  }
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("right", ImVec2(0, body_h), true);
  DrawPanels(s, fonts);
  if (!s.ui.presenter) DrawTeacherNotes(s, fonts);
  DrawEditor(s);  // in presenter mode they go to the notes window
  ImGui::EndChild();
  DrawTimeline(s);
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
    }
    for (const auto& [k, m] : L.scenarios) add_model(*m);
  }
  if (s.model.standalone) add_model(*s.model.standalone);
  if (!s.ui.error.empty()) texts.push_back(s.ui.error);
  return texts;
}

}  // namespace bw::app
