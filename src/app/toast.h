// A toast: one line (an export's full path) shown over the bottom of the main window for a few
// seconds, where nobody can miss it — the toolbar's status text is easily pushed off screen.
#pragma once

#include <string>

#include "session/app_state.h"

namespace bw::app {

inline constexpr double kToastSeconds = 6.0;

// Shows `text` from `now` (platform::Now() seconds) for kToastSeconds.
void ShowToast(AppState& s, const std::string& text, double now);
// Draws the toast while it lasts (call between NewFrame and Render).
void DrawToast(AppState& s, double now);

}  // namespace bw::app
