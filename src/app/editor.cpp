// The single-query scenario editor (live recompute, Save As); see panels.h.
#include "app/panels.h"
#include "app/widgets.h"

#include <filesystem>
#include <imgui.h>
#include <imgui_stdlib.h>
#include <nlohmann/json.hpp>

#include "session/editor_fields.h"
#include "app/save_as.h"
#include "data/json_file.h"
#include "data/load_error.h"
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
  ed.tau = j.contains("rescale_threshold") ? j["rescale_threshold"].dump() : "";
  ed.error.clear();
  ed.source = &m;
  // Save As proposes a name from the file being edited, beside it (it used to offer the path of a
  // file opened before). An edited model's file is "(editor)": its source file stays.
  if (const std::string& file = m.scenario().file; !file.empty() && file.front() != '(') {
    ed.source_file = file;
    ed.save_path = ProposedSaveName(file);
  } else if (ed.source_file.empty()) {
    ed.save_path = "scenario-edited.json";
  }
}


}  // namespace

void DrawEditor(AppState& s) {
  const auto* m = dynamic_cast<const view::SingleQueryModel*>(s.Current());
  if (!m) return;
  Editor& ed = s.ui.editor;
  if (s.ui.open_editor) ImGui::SetNextItemOpen(true);  // --show editor: once, for screenshots
  s.ui.open_editor = false;
  if (!ImGui::CollapsingHeader(T(s, view::Str::editor).c_str())) return;
  if (ed.source != m) FillEditor(ed, *m);
  bool changed = false;
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 6);
  // Each field shows its own error (and the masked-logit hint) right under it.
  // Labelled in the UI's language (an error under a field names its JSON path, /weights/1).
  const auto field = [&](view::Str label, std::string* text, int index) {
    changed |= ImGui::InputText((T(s, label) + "##field" + std::to_string(index)).c_str(), text);
    const bool here = !ed.error.empty() && ed.error_key == EditorKey(ed, index);
    const bool hint = index == 0 && ed.masked_hint;
    if (here || hint) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    if (here) Wrapped(ed.error);
    if (hint) Wrapped(T(s, view::Str::masked_hint));
    if (here || hint) ImGui::PopStyleColor();
  };
  field(ed.logits ? view::Str::editor_logits : view::Str::editor_weights, &ed.scores, 0);
  field(view::Str::editor_values, &ed.values, 1);
  field(view::Str::editor_blocks, &ed.blocks, 2);
  ImGui::PopItemWidth();
  changed |= ImGui::Checkbox(T(s, view::Str::stable_mode).c_str(), &ed.stable);
  if (ed.stable || !ed.tau.empty()) {  // FA-4's τ: only the stable recurrence has a running max to keep
    ImGui::PushItemWidth(-ImGui::GetFontSize() * 6);
    field(view::Str::editor_tau, &ed.tau, 3);
    ImGui::PopItemWidth();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", T(s, view::Str::editor_tau_hint).c_str());
  }
  if (changed) {  // live recompute; a refused edit keeps the last good scenario on screen
    try {
      ed.masked_hint = NeedsMaskedHint(ed.scores);
      const nlohmann::json doc = EditedDocument(ed, EditedCaption(ed));
      auto model = view::ParseScenarioModel(doc, "(editor)", s.model.options);
      // In a lesson the edit replaces the step's scenario: its text and question stay (ApplyEdit).
      if (const std::string refused = ApplyEdit(s, model); !refused.empty()) {
        ed.error = refused;
        ed.error_key = "block_sizes";
      } else {
        ed.source = model.get();
        ed.error.clear();
        ed.error_key.clear();
        s.ui.fonts_dirty = true;
      }
    } catch (const data::LoadError& e) {  // "/logits/2" → the scores field; "/values" → values
      ed.error = e.what();
      const std::string& p = e.json_path();
      ed.error_key = p.substr(1, p.find('/', 1) == std::string::npos ? std::string::npos : p.find('/', 1) - 1);
    } catch (const std::exception& e) {
      ed.error = e.what();
      ed.error_key.clear();
    }
  }
  if (!ed.error.empty() && ed.error_key != EditorKey(ed, 0) && ed.error_key != "values" && ed.error_key != "block_sizes" &&
      ed.error_key != "rescale_threshold") {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    Wrapped(ed.error);  // not about one field (e.g. the block sizes do not add up to the positions)
    ImGui::PopStyleColor();
  }
  if (EditedNow(s) && ImGui::Button(T(s, view::Str::edit_revert).c_str())) {
    RevertEdit(s);
    ed.source = nullptr;  // the fields show the lesson's numbers again
  }
  if (ed.save_path.empty()) ed.save_path = "scenario-edited.json";
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  ImGui::InputText("##save", &ed.save_path);
  ImGui::SameLine();
  bool save = false;
  if (ImGui::Button(T(s, view::Str::save_as).c_str())) {
    // An existing file is replaced only after the user says so (issue 31); a read-only one is refused
    // by the save itself (data::WriteFileAtomically).
    const std::string target = SaveAsTarget(ed.save_path);
    std::error_code ec;
    if (!target.empty() && std::filesystem::exists(target, ec) && ed.confirm_replace != target) ed.confirm_replace = target;
    else save = true;
  }
  if (!ed.confirm_replace.empty() && !save) {
    if (SaveAsTarget(ed.save_path) != ed.confirm_replace) {
      ed.confirm_replace.clear();  // the name was changed: the question no longer applies
    } else {
      Wrapped(view::UiFormat(view::Str::save_replace_q, s.options.lang, {ed.confirm_replace}));
      if (ImGui::Button(T(s, view::Str::save_replace).c_str())) save = true;
      ImGui::SameLine();
      if (ImGui::Button(T(s, view::Str::save_keep).c_str())) ed.confirm_replace.clear();
    }
  }
  if (save) {
    ed.confirm_replace.clear();
    if (const std::string err = SaveScenarioAs(s, ed.save_path); err.empty()) {
      SetStatus(s, T(s, view::Str::saved) + " " + s.options.recent[0]);
      EditsSaved(s);  // a change on disk to the opened file loses nothing now (a put-off one loads)
      s.ui.status_of_save = true;
    } else {
      s.ui.error = err;
    }
  }
}

}  // namespace bw::app
