// Exports of what the app shows: the window as PNG at a chosen scale (re-laid out with a scaled
// font, so text stays sharp), the side-panel numbers at the current event as CSV, and the trace
// (every event label, plus the current event's numbers) as JSON. Files are written atomically.
#pragma once

#include <string>

#include "session/app_state.h"

namespace bw::app {

// Pixels of the currently bound framebuffer (origin top-left) as PNG. Returns "" or an error line.
std::string WritePixelsPng(const std::string& path, int x, int y, int w, int h);
// Returns "" or an error line.
std::string ExportPanelsCsv(const AppState& s, const std::string& path);
std::string ExportTraceJson(const AppState& s, const std::string& path);
// "blockwise-<lesson id>-<step id>" in a lesson ("blockwise-RC-T3-b2"), else
// "blockwise-<scenario file stem>-e<event, 1-based>" ("blockwise-worked_214-e3"; an edited scenario is
// "<stem>-edited"). Letters, digits, '-', '_', '.' and non-ASCII characters are kept; the rest become '_'.
std::string ExportStem(const AppState& s);
// The export folder (s.options.export_dir, else DefaultExportDir()) / ExportStem + suffix, absolute.
std::string ExportPath(const AppState& s, const std::string& suffix);
// Creates the folder of ExportPath (the settings' export folder may not exist yet: a teacher types
// a new one). Returns "" or "<folder>: cannot create the export folder: <reason>".
std::string MakeExportFolder(const AppState& s);

}  // namespace bw::app
