// The scenario editor's fields as a scenario document. Each field ("2, 1, 4", or for logits
// `1, "-inf", 2`) is parsed on its own, so an error names the field being edited and the character
// in it — never a column of a document the user never sees — and the document is built as JSON
// values (no string concatenation); the loader then checks it exactly as it checks files, its errors
// pointing at /weights/1, /values/2, … of the same fields.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "session/app_state.h"
#include "data/json_file.h"

namespace bw::app {

// The JSON key an editor field is saved under: "weights" or "logits", "values", "block_sizes", "rescale_threshold".
std::string EditorKey(const Editor& ed, int field);  // field 0 = scores, 1 = values, 2 = blocks, 3 = τ

// One field as a JSON array. Throws data::LoadError("(editor)", "/key", reason): reason names the field
// and the 1-based character where reading stopped.
nlohmann::json ParseEditorList(const std::string& text, const std::string& key);

// The τ field: empty (or blanks) = no threshold; else one number (the loader checks τ >= 0 and stable
// mode). Throws data::LoadError("(editor)", "/rescale_threshold", reason).
std::optional<double> ParseEditorTau(const std::string& text);

// An unquoted inf / -inf / nan in `text` (masked logits must be written "-inf", in quotes).
bool NeedsMaskedHint(const std::string& text);

// The caption of an edited scenario, from its fields, in both languages ("Edited: w = (7, 1, 4),
// v = (10, 20, 30), blocks 2, 1"): the loaded title described the loaded numbers.
data::LocalText EditedCaption(const Editor& ed);
// What Save As proposes for an edit of `source_file`: "<its stem>-edited.json" beside it.
std::string ProposedSaveName(const std::string& source_file);

// The whole document (schema_version 1, kind single_query, the three lists, mode, `title` as given:
// EditedCaption).
nlohmann::json EditedDocument(const Editor& ed, const data::LocalText& title);

}  // namespace bw::app
