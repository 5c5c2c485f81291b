// [options] The command line; see app_run.h.
#include "app/app_run.h"

#include <CLI/CLI.hpp>

namespace bw::app {

std::optional<int> ParseArgs(int argc, char** argv, Args& args) {
  CLI::App cli{"blockwise — FlashAttention, block by block"};
  cli.footer("Exit status: 0; 2 when the file it was asked to open (or --step, --position) is refused, after the window has shown "
             "the one-line error (with --screenshot: at once); 1 when the window or a --soak or --screenshot check fails.");
  cli.add_option("file", args.file, "A lesson or scenario JSON file to open (as from the file manager)");
  cli.add_option("--lesson", args.lesson, "Lesson or course JSON file (default: the shipped course, lessons/course.json)");
  cli.add_option("--scenario", args.scenario, "Open a single scenario JSON file instead of a lesson");
  cli.add_option("--step", args.step, "Start at this step id, e.g. RC-T3/b2 (in the lesson open, else in the lesson of its course that owns it); a lesson id of the course (MASK) starts at its title card; end: the course's end card");
  cli.add_option("--position", args.position, "Then go to this trace position (1-based, e.g. update:2, tile:2,1, event:17)");
  cli.add_flag("--reveal", args.reveal, "Then reveal the step's predict answer, as the first PageDown or R does");
  cli.add_option("--lang", args.lang, "Language: zh or en (default: the saved setting; at a first launch the locale's, zh_* → zh, else en; with --no-settings zh)")
      ->check(CLI::IsMember({"zh", "en"}));
  cli.add_flag("--link", args.link,
               "The options come from a web link: a step or position that does not exist is shown as an error over the library, "
               "instead of exit status 2");
  cli.add_flag("--projector,!--no-projector", args.projector,
               "Projector palette (white background, thick lines, larger text); --no-projector: not, whatever the saved setting. "
               "--lang, --projector and --font-px are for this run: the saved settings keep their own values");
  cli.add_flag("--presenter", args.presenter, "Presenter mode: teacher notes in a second window (F5)");
  cli.add_option("--font-px", args.font_px, "Base font size in logical pixels, before the screen's content scale (default: the saved setting, else 22)")
      ->check(CLI::Range(10.0f, 96.0f));
  cli.add_option("--screenshot", args.screenshot, "Render, save this PNG, and exit");
  cli.add_option("--scale", args.scale, "With --screenshot: render at this multiple of the window size")
      ->check(CLI::Range(1.0f, 4.0f));
  cli.add_option("--dump-scene", args.dump_scene, "With --screenshot: write the painted scene as JSON");
  cli.add_option("--open-after", args.open_after, "Then open this file as if dropped (tests: a bad file keeps the scenario)");
  cli.add_option("--gpu-replay-at", args.gpu_replay_at, "Open the GPU panel replaying the H200 recording, this many seconds in");
  cli.add_flag("--gpu", args.gpu_open, "Open the GPU panel (G) as a user would: live with a GPU, else a paused replay");
  cli.add_option("--gpu-live", args.gpu_live, "Open the GPU panel and start a live run: ALG,N,D,CAUSAL,PACE_MS (e.g. fp32,8192,128,1,0.02)");
  cli.add_option("--screenshot-after", args.screenshot_after, "With --screenshot: capture no sooner than this many seconds after start (a live GPU run mid-way)");
  if (platform::CanHostClass()) {  // the teacher's desktop (the web edition hosts no class)
    cli.add_option("--class-state", args.class_state, "The live class's state file (default: class-state.json beside the settings; none with --no-settings): a class the app left running resumes from it with the same code and answers");
    cli.add_option("--class", args.class_at, "Start a live class: serve the web edition and the class channel on ADDRESS[:PORT] (the interface the students reach, e.g. 192.168.1.20:8080; 127.0.0.1 for a test; no port: any free one); J hides the join card");
  }
  cli.add_option("--state-file", args.state_file, "Write the app's state (step, event, …) as JSON here whenever it changes");
  cli.add_option("--export-dir", args.export_dir, "Ctrl+E writes its files here (default: the saved setting, else the XDG pictures folder)");
  cli.add_option("--show", args.show, "Open this window at start: settings, open (Ctrl+O), help (?), library (the start screen) or editor (the scenario editor's fields); for screenshots")
      ->check(CLI::IsMember({"settings", "open", "help", "library", "editor"}));
  cli.add_flag("--no-settings", args.no_settings, "Neither read nor write the saved settings");
  cli.add_flag("--full-redraw", args.full_redraw, "Draw every frame whole and swap buffers, not only the parts that changed since the picture the back buffer holds (for tests and benchmarks)");
  cli.add_flag("--check-redraw", args.check_redraw, "With --soak: after each partially drawn frame draw it whole too and count the frames whose pixels differ (a test)");
  cli.add_flag("--imgui-fills", args.imgui_fills, "Draw the diagram's fills with ImGui's own shader, not the flat-fill one (the same pixels, slower on software OpenGL; for tests and benchmarks)");
  cli.add_option("--width", args.width, "Window width in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--height", args.height, "Window height in pixels")->check(CLI::Range(200, 8000));
  cli.add_option("--soak", args.soak, "Soak test: step one trace event per frame through every step for N frames, print RSS and frame times, exit")
      ->check(CLI::Range(1, 100000000));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  }
  args.lesson_given = cli.get_option("--lesson")->count() > 0;
  args.projector_given = cli.get_option("--projector")->count() > 0;
  return std::nullopt;
}

}  // namespace bw::app
