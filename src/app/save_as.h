// Save As for the scenario editor: the current single-query scenario as a v1 file, written atomically,
// with "$schema" relative to the folder it really lands in (paths.h: SchemaRefFor), so the file
// validates wherever it is saved; the saved file goes to Recent as an absolute path.
#pragma once

#include <string>

#include "session/app_state.h"

namespace bw::app {

// The absolute, normalised path Save As writes for `path` ("" when it cannot be resolved); the editor
// asks before replacing a file that exists there.
std::string SaveAsTarget(const std::string& path);
// `path` may be relative to the working folder. Returns "" or an error line (file: reason); a
// read-only target is refused (data::WriteFileAtomically), never replaced.
std::string SaveScenarioAs(AppState& s, const std::string& path);

}  // namespace bw::app
