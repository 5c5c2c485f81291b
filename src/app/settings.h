// Settings that persist between runs — language, palette, font size (logical px), playback speed,
// monitor, export folder and recent files (absolute paths) — in $XDG_CONFIG_HOME/blockwise/settings.json
// (~/.config/blockwise when unset).
// Reading never fails the app and never loses a choice: a missing file gives the defaults; a file
// that cannot be read or parsed, or a field of the wrong type, gives a one-line warning (shown in the
// window once), the good fields are kept, and the file as it was is copied to settings.json.bad
// before the next save replaces it.
// Writing is atomic (data::WriteFileAtomically), so a crash never leaves half a settings file.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "session/app_state.h"

namespace bw::app {

// "" when no home is known (no XDG_CONFIG_HOME, HOME or password entry): then nothing is saved.
std::filesystem::path SettingsPath();
// Where a bad settings file is kept: "<path>.bad".
std::filesystem::path SettingsAsidePath(const std::filesystem::path& path);
// Fills s.options and s.recent from the file; returns a warning ("" when fine or absent).
std::string LoadSettings(AppState& s, const std::filesystem::path& path);
// The UI language of a first launch (no saved settings) from the locale, as POSIX orders it: the
// first of LC_ALL, LC_MESSAGES, LANG that is set and not empty; "zh" for zh_*, else "en" (a null
// pointer is unset). "C" / "POSIX" / unset: "en".
std::string LanguageFromLocale(const char* lc_all, const char* lc_messages, const char* lang);
// Returns an error line ("" on success).
std::string SaveSettings(const Options& o, const std::filesystem::path& path);

// Options given for one run only: a command-line option (--lang, --projector, --font-px) or a web
// link's parameter (lang=, projector=, font_px=). Unset: not given.
struct RunOverrides {
  std::optional<std::string> lang;
  std::optional<bool> projector;
  std::optional<float> font_px;
};
// What the settings file keeps of `now`: a value given for this run (`given`) and not changed since
// is saved as it was before the run (`before`), not as given (issue 32: one projector=1 link left
// every later visit in projector mode, and a link's language was saved). A value the user changed
// in the app is saved as changed.
Options OptionsToSave(const Options& now, const Options& before, const RunOverrides& given);

}  // namespace bw::app
