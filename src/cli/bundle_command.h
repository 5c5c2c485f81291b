// `blockwise-cli bundle FILE -o OUT`: packs a lesson or a course and every file it names into one
// lesson bundle (data/bundle.h) — the one file a teacher shares — then opens OUT as the app would
// (view::OpenDocument) and prints what it holds. Writes OUT atomically; exit 2 when FILE does not
// load, names a file outside its folder, or the bundle does not open.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddBundleCommand(CLI::App& app);

}  // namespace bw::cli
