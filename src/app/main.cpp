// blockwise: the lesson player. The platform's window (platform.h) + Dear ImGui (1.86, Debian's
// libimgui.a with its platform and OpenGL3 backends) + FreeType fonts. main() owns the one AppState and the run beside it (app_run.h)
// and calls the run's phases in order: the command line, the session, the window, one frame per loop
// turn (input, update, build, paint, the soak's step, capture, present, after), the end.
// Headless use: --screenshot FILE.png renders the chosen step, writes the PNG (and --dump-scene
// JSON with every rectangle's pixel box and state), and exits. --soak N steps one event per frame.
#include <chrono>

#include "app/app_run.h"
#include "app/platform.h"
#include "session/app_state.h"

namespace {
const auto kProcessStart = std::chrono::steady_clock::now();  // for "start to first frame" (--soak)
}  // namespace

int main(int argc, char** argv) {
  bw::app::AppState state;
  bw::app::AppRun run;
  run.process_start = kProcessStart;
  if (const auto exit = bw::app::ParseArgs(argc, argv, run.args)) return *exit;
  if (const auto exit = bw::app::StartSession(state, run)) return *exit;
  if (const auto exit = bw::app::OpenPlatform(state, run)) return *exit;
  // One frame per call: a loop on the desktop, the browser's animation frames on the web (platform.h).
  bw::app::platform::RunFrameLoop(run.window, [&] { bw::app::RunFrame(state, run); });
  return bw::app::Shutdown(state, run);
}
