// Small ImGui helpers every panel uses: UI strings, placeholders filled from the engine, CJK-aware
// wrapping, headings and table rows. No state of their own.
#pragma once

#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/fonts.h"
#include "view/ui_text.h"

namespace bw::app {

// "Wrong" (a wrong merge, the wrong average): purple with a × — one meaning per colour, and red
// already means "written to HBM".
inline constexpr unsigned kWrongColor = 0xFFA2177Bu;  // IM_COL32(123, 23, 162, 255), ABGR

// A fixed UI string in the current language (view::UiText).
const std::string& T(const AppState& s, view::Str key);
// A lesson text with its {placeholders} filled from the engine at the current event.
std::string Fill(const AppState& s, const std::string& tmpl);
// Wraps at spaces and between CJK characters (never inside a Latin word or number).
void Wrapped(const std::string& text);
// The lines Wrapped would draw `text` in at `avail` pixels wide, in the current font.
std::vector<std::string> WrapLines(const std::string& text, float avail);
void Heading(const Fonts& f, const std::string& text);
// One name/value table row; `emphasise` marks a wrong value; `bar` (0–1) draws the value on a bar.
void Row(const char* name, const std::string& value, bool emphasise = false, float bar = -1);

}  // namespace bw::app
