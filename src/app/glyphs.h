// Glyphs on demand. The atlas is baked from every string the model can show (ShownTexts) plus the
// strings that arrive at run time — file names in Recent and the path field, typed editor text,
// the status line, toasts and error lines (RuntimeTexts). After each frame main() asks which of their
// characters the atlas lacks (MissingGlyphs) and, when one has not been tried yet, rebuilds the atlas
// before the next frame. A character the font itself lacks is tried once, then counted as missing
// (state JSON "missing_glyphs") instead of rebuilding every frame.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/fonts.h"

namespace bw::app {

std::vector<std::string> RuntimeTexts(const AppState& s);

// Characters of `texts` the loaded body font has no glyph for (control characters skipped).
std::set<unsigned> MissingGlyphs(const Fonts& fonts, const std::vector<std::string>& texts);

// Checks RuntimeTexts after a frame: records the count in s.ui.missing_glyphs and sets
// s.ui.fonts_dirty when a missing character is not in `tried` (which it then joins).
void RequestGlyphs(AppState& s, const Fonts& fonts, std::set<unsigned>& tried);

}  // namespace bw::app
