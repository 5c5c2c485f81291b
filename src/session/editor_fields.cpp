// Editor fields; see editor_fields.h.
#include "session/editor_fields.h"

#include <filesystem>

#include "view/ui_text.h"

#include <cctype>

#include "data/json_file.h"
#include "data/load_error.h"

namespace bw::app {

std::string EditorKey(const Editor& ed, int field) {
  if (field == 0) return ed.logits ? "logits" : "weights";
  if (field == 3) return "rescale_threshold";
  return field == 1 ? "values" : "block_sizes";
}

std::optional<double> ParseEditorTau(const std::string& text) {
  if (text.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  // One number, read as a one-element list (the same reader, the same messages), then the loader's rule.
  const nlohmann::json a = ParseEditorList(text, "rescale_threshold");
  if (a.size() != 1 || !a[0].is_number())
    throw data::LoadError("(editor)", "/rescale_threshold", "the field \"rescale_threshold\" is one number τ >= 0, or empty");
  return a[0].get<double>();
}

nlohmann::json ParseEditorList(const std::string& text, const std::string& key) {
  // Read as the loaders read a file (data::ParseJsonText): 1e309 is "out of the double range" at its
  // place in the field, not nlohmann's raw "[json.exception.out_of_range.406]" (issue 31), and 1e-400
  // is named, not turned into 0.
  try {
    return data::ParseJsonText("[" + text + "]", "(editor)");
  } catch (const data::LoadError& e) {
    if (e.reason().rfind("malformed JSON", 0) != 0) throw data::LoadError("(editor)", "/" + key + e.json_path(), e.reason());
  }
  try {
    [[maybe_unused]] const auto parsed = nlohmann::json::parse("[" + text + "]");  // where it stopped, for the message
    throw data::LoadError("(editor)", "/" + key, "the field \"" + key + "\" is not a comma-separated list of numbers");
  } catch (const nlohmann::json::exception& e) {
    // e.byte counts from the added '['; the character in the field is one less (at least 1).
    const auto* pe = dynamic_cast<const nlohmann::json::parse_error*>(&e);
    const size_t at = pe && pe->byte > 1 ? pe->byte - 1 : 1;
    std::string reason = "the field \"" + key + "\" is not a comma-separated list of numbers (stopped at character " +
                         std::to_string(std::min(at, text.size() + 1)) + ")";
    if (NeedsMaskedHint(text)) reason += "; a masked logit is written \"-inf\" in quotes";
    throw data::LoadError("(editor)", "/" + key, reason);
  }
}

bool NeedsMaskedHint(const std::string& text) {
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (quoted || !std::isalpha(static_cast<unsigned char>(text[i]))) continue;
    std::string word;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) word += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i++])));
    if (word == "inf" || word == "infinity" || word == "nan") return true;
  }
  return false;
}

nlohmann::json EditedDocument(const Editor& ed, const data::LocalText& title) {
  nlohmann::json doc;
  doc["schema_version"] = 1;
  doc["kind"] = "single_query";
  doc[EditorKey(ed, 0)] = ParseEditorList(ed.scores, EditorKey(ed, 0));
  doc["values"] = ParseEditorList(ed.values, "values");
  doc["block_sizes"] = ParseEditorList(ed.blocks, "block_sizes");
  doc["mode"] = ed.stable ? "stable" : "raw";
  if (const auto tau = ParseEditorTau(ed.tau)) doc["rescale_threshold"] = *tau;  // the loader says why a τ is refused
  doc["title"] = {{"zh", title.zh.empty() ? "编辑过的场景" : title.zh}, {"en", title.en.empty() ? "Edited scenario" : title.en}};
  return doc;
}

data::LocalText EditedCaption(const Editor& ed) {
  const view::Str key = ed.logits ? view::Str::edited_caption_logits : view::Str::edited_caption_w;
  data::LocalText t;
  t.zh = view::UiFormat(key, "zh", {ed.scores, ed.values, ed.blocks});
  t.en = view::UiFormat(key, "en", {ed.scores, ed.values, ed.blocks});
  if (ed.tau.find_first_not_of(" \t") != std::string::npos) {  // FA-4's τ is part of what was edited
    t.zh += "，\u03c4 = " + ed.tau;
    t.en += ", \u03c4 = " + ed.tau;
  }
  return t;
}

std::string ProposedSaveName(const std::string& source_file) {
  const std::filesystem::path p(source_file);
  return (p.parent_path() / (p.stem().string() + "-edited.json")).string();
}

}  // namespace bw::app
