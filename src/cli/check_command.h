// `blockwise-cli check FILE…`: opens each lesson or scenario exactly as the app does (a document with
// "steps" is a lesson: every bound scenario is loaded and every position resolved) and says
// "ok: FILE: …" or prints the one-line error "error: FILE: /json/path: reason". Exit 2 if any fails.
// A file that loads but whose run overflows, underflows or makes a NaN still says "ok", with one
// "warning: FILE: numerics: …" line per event on stderr (--strict: exit 4).
// For teachers checking a hand-edited file before class, and for the bad-input corpus tests.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddCheckCommand(CLI::App& app);

}  // namespace bw::cli
