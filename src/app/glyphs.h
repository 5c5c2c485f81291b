// Glyphs on demand. The atlas is baked from every string the model can show (ShownTexts) plus the
// strings that arrive at run time — file names in Recent and the path field, typed editor text,
// the status line, toasts and error lines (RuntimeTexts). After each frame the frame loop (frame.cpp)
// asks which of their characters the atlas lacks (MissingGlyphs) and, when one has not been tried yet,
// rebuilds the atlas before the next frame. A character the font itself lacks is tried once, then
// counted as missing (state JSON "missing_glyphs") instead of rebuilding every frame.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "session/app_state.h"
#include "app/fonts.h"

namespace bw::app {

std::vector<std::string> RuntimeTexts(const AppState& s);

// Every string in the lesson files beside `opened_path` (its folder's *.json and scenarios/*.json,
// files under 1 MiB): baked with the first atlas, so that opening the next lesson of a course finds
// its glyphs there and needs no rebuild (a rebuild is 80–120 ms of FreeType on the development
// machine: issue 16's slowest frames). Read once per folder into the caller's `cache` (the run's:
// AppRun::folder_texts); unreadable files are skipped.
using FolderTextCache = std::map<std::string, std::vector<std::string>>;
const std::vector<std::string>& FolderTexts(FolderTextCache& cache, const std::string& opened_path);

// Whether `fonts` already holds every glyph of `texts` at the sizes asked for (base, diagram and
// chrome px as LoadFonts takes them): then a requested rebuild would bake the same atlas again.
bool AtlasCovers(const Fonts& fonts, const std::vector<std::string>& texts, float base_px, float diagram_px, float chrome_px);

// Characters of `texts` the loaded body font has no glyph for (control characters skipped).
std::set<unsigned> MissingGlyphs(const Fonts& fonts, const std::vector<std::string>& texts);

// Checks RuntimeTexts after a frame: records the count in s.ui.missing_glyphs and sets
// s.ui.fonts_dirty when a missing character is not in `tried` (which it then joins).
void RequestGlyphs(AppState& s, const Fonts& fonts, std::set<unsigned>& tried);

}  // namespace bw::app
