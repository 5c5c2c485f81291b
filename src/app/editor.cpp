// The single-query scenario editor (live recompute, Save As); see panels.h.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include "data/atomic_write.h"
#include "data/json_file.h"
#include "view/single_query_model.h"

namespace bw::app {

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

// The typed fields as a scenario document; the loader checks it exactly as it checks files.
nlohmann::json EditedDocument(const Editor& ed, const view::SingleQueryModel& m) {
  const std::string text = std::string("{\"schema_version\": 1, \"kind\": \"single_query\", \"") +
                           (ed.logits ? "logits" : "weights") + "\": [" + ed.scores + "], \"values\": [" + ed.values +
                           "], \"block_sizes\": [" + ed.blocks + "], \"mode\": \"" + (ed.stable ? "stable" : "raw") + "\"}";
  nlohmann::json doc = data::ParseJsonText(text, "(editor)");
  doc["title"] = {{"zh", m.Title().zh.empty() ? "编辑过的场景" : m.Title().zh + "（已编辑）"},
                  {"en", m.Title().en.empty() ? "Edited scenario" : m.Title().en + " (edited)"}};
  return doc;
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
  changed |= ImGui::InputText(ed.logits ? "logits" : "weights", &ed.scores);
  changed |= ImGui::InputText("values", &ed.values);
  changed |= ImGui::InputText("block sizes", &ed.blocks);
  ImGui::PopItemWidth();
  changed |= ImGui::Checkbox(T(s, "stable_mode").c_str(), &ed.stable);
  if (changed) {  // live recompute; a refused edit keeps the last good scenario on screen
    try {
      const nlohmann::json doc = EditedDocument(ed, *m);
      auto model = view::ParseScenarioModel(doc, "(editor)");
      const int event = s.ui.event;
      s.model.standalone = model;
      ed.source = model.get();
      SetEvent(s, event);
      ed.error.clear();
      s.ui.fonts_dirty = true;
    } catch (const std::exception& e) {
      ed.error = e.what();
    }
  }
  if (!ed.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    Wrapped(ed.error);
    ImGui::PopStyleColor();
  }
  if (ed.save_path.empty()) ed.save_path = "scenario-edited.json";
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  ImGui::InputText("##save", &ed.save_path);
  ImGui::SameLine();
  if (ImGui::Button(T(s, "save_as").c_str())) {
    try {
      const auto* cur = dynamic_cast<const view::SingleQueryModel*>(s.Current());
      data::WriteFileAtomically(ed.save_path, data::SingleQueryScenarioToJson(cur->scenario()).dump(2) + "\n");
      s.ui.status = T(s, "saved") + " " + ed.save_path;
    } catch (const std::exception& e) {
      s.ui.error = e.what();
    }
  }
}

}  // namespace bw::app
