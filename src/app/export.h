// Exports of what the app shows: the window as PNG at a chosen scale (re-laid out with a scaled
// font, so text stays sharp), the side-panel numbers at the current event as CSV, and the trace
// (every event label, plus the current event's numbers) as JSON. Files are written atomically.
#pragma once

#include <string>

#include "app/app_state.h"

namespace bw::app {

// Pixels of the currently bound framebuffer (origin top-left) as PNG. Returns "" or an error line.
std::string WritePixelsPng(const std::string& path, int x, int y, int w, int h);
// Returns "" or an error line.
std::string ExportPanelsCsv(const AppState& s, const std::string& path);
std::string ExportTraceJson(const AppState& s, const std::string& path);
// "blockwise-<lesson or scenario>-<step or event>" — a file stem for exports.
std::string ExportStem(const AppState& s);

}  // namespace bw::app
