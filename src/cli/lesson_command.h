// `blockwise-cli lesson …`: an author's tools (issue 32; docs/authoring.md).
//   lesson new --id ID --scenario SCENARIO -o LESSON   a bilingual lesson to fill in, bound to SCENARIO
//       (its path written relative to LESSON's folder, which it must lie in): a predict-then-reveal
//       first step at "start", asking for the output before the trace shows it (checked against it
//       where the scenario has one), and a last step at "end" that shows it. The file is then opened
//       as the app would, so what it writes loads. Refuses to overwrite a file.
//   lesson ids FILE [--position P] [--scenario KEY | --step ID]   the ids a step can name there: the
//       scene's rects ("highlight", "conceal"), the side panel's sections ("panel", "conceal"), "heatmap"
//       where there is one ("conceal") — from the same scene and panels the loader checks against.
//   lesson preview FILE --out DIR [--app PATH]   every step in zh and en, before and after its reveal,
//       as PNGs drawn by the app (found beside this program, or --app) at 1280×720, and DIR/index.html,
//       a contact sheet to review them on one page.
// Exit 2 when a file does not load, a key, step or position is unknown, or a file cannot be written.
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddLessonCommand(CLI::App& app);

}  // namespace bw::cli
