// The settings window (Ctrl+, or the top bar's button): everything that was reachable only by keys —
// language, palette, font size (logical px), fullscreen monitor, export folder, play speed. Changes
// apply at once and are saved like the keys' changes (settings.h).
#pragma once

#include "session/app_state.h"

namespace bw::app {

void DrawSettingsWindow(AppState& s);

}  // namespace bw::app
