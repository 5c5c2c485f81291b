// Where the app finds its shipped data (lessons/, assets/, schemas/, shaders/) and where it writes
// exports. One rule, in this order:
//   1. $BLOCKWISE_ROOT when set (tests, a checkout used in place);
//   2. <dir of the executable>/../share/blockwise when it holds lessons/ (an installed copy:
//      `cmake --install`, the .deb, or the .deb unpacked anywhere with `dpkg -x`);
//   3. the source tree the program was built from, only when the executable lies inside the build
//      tree it was built in (running from a build folder).
// An installed program therefore never reads the source tree, even when it still exists.
#pragma once

#include <filesystem>
#include <string>

namespace bw::app {

struct DataRoot {
  std::filesystem::path path;  // absolute; empty when no rule found one
  std::string rule;            // "BLOCKWISE_ROOT", "installed" or "source tree" (shown in errors and --dump-scene)
};

// Resolved once per process (the executable's location and the environment do not change).
const DataRoot& FindDataRoot();
// FindDataRoot().path as a string ("" when none).
std::string Root();

// The folder exports go to by default: the XDG pictures folder ($XDG_PICTURES_DIR, or its entry in
// $XDG_CONFIG_HOME/user-dirs.dirs, else ~/Pictures when it exists), else the home folder, else ".".
std::filesystem::path DefaultExportDir();

// The "$schema" a saved file should carry: `schema_file` (e.g. "scenario-v1.schema.json") in the data
// root's schemas/, relative to the real folder `saved_file` is written to (symlinks resolved), so the
// file validates wherever it is saved. When no schemas/ folder is found: the schema's URL, its "$id"
// (data/schema_url.h).
std::string SchemaRefFor(const std::filesystem::path& saved_file, const std::string& schema_file);

}  // namespace bw::app
