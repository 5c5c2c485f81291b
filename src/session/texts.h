// The words a lesson shows: a fixed UI string in the current language, and a lesson text with its
// {placeholders} filled from the engine at the current position. GUI-free: the window, the web
// edition and any other front end call these.
#pragma once

#include <string>

#include "session/app_state.h"
#include "view/ui_text.h"

namespace bw::app {

// A fixed UI string in the current language (view::UiText).
const std::string& T(const AppState& s, view::Str key);
// A lesson text with its {placeholders} filled from the engine at the current event.
std::string Fill(const AppState& s, const std::string& tmpl);

}  // namespace bw::app
