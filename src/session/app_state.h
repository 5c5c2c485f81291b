// AppState: the one struct the app keeps, owned by main(). Split into options (persisted between
// runs), transient interaction state, and the model (the loaded lesson or scenario, with the engine
// runs computed at load time) — never a cached copy of engine results per frame.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <cstdint>
#include <vector>

#include "session/frame_cache.h"
#include "view/course_model.h"
#include "view/layout.h"
#include "view/library.h"
#include "view/lesson_model.h"
#include "view/scenario_model.h"
#include "view/scene.h"

namespace bw::app {

inline constexpr size_t kMaxRecent = 10;
using view::kDefaultFontPx;  // 22 logical pixels (Ctrl+0); the content scale is applied at run time (FontPx)

struct Options {
  std::string lang = "zh";       // "zh" or "en"
  bool projector = false;        // projector palette: white background, thick lines, larger text
  float font_px = kDefaultFontPx;  // base font size in logical pixels; everything is laid out in multiples of it
  float play_speed = 4.0f;       // events per second while playing
  int monitor = 0;               // F11 fullscreen goes to this monitor (index into glfwGetMonitors)
  std::vector<std::string> recent;  // recently opened files (absolute paths), newest first
  std::string export_dir;        // Ctrl+E writes here; "" = DefaultExportDir() (the XDG pictures folder)
};

struct KeyPress {
  int key = 0;    // GLFW_KEY_*
  int mods = 0;   // GLFW_MOD_*
  unsigned ch = 0;  // the character the keyboard layout puts on the key (shortcuts.h: LayoutChar), 0 = none
};

// The scenario editor's fields (single-query scenarios): comma-separated lists as typed.
struct Editor {
  const void* source = nullptr;  // the model the fields were filled from
  std::string scores, values, blocks, save_path;
  std::string source_file;       // the file the fields came from (Save As proposes "<its name>-edited.json" beside it)
  bool logits = false, stable = false;
  std::string tau;               // FA-4's rescale threshold τ (stable mode; "" = every merge rescales)
  std::string error;             // why the typed scenario is refused (file "(editor)", JSON path, reason)
  std::string error_key;         // the field it is about ("weights", "values", …; "" = none): shown under it
  bool masked_hint = false;      // the scores hold an unquoted inf: masked logits are written "-inf"
  std::string confirm_replace;   // Save As asked whether to replace this existing file (absolute path)
};

// What the GPU panel shows, as it last drew it (for --dump-scene / --state-file and the tests).
struct GpuStatus {
  std::string source;            // "live" | "replay" | "" (nothing loaded)
  std::string sentence;          // the line above the run: live device, or the plain no-GPU sentence
  std::string detail;            // the driver's reason, shown on hover ("" with a GPU)
  std::string recording;         // file name of the replayed recording
  bool paused = false;
  double position_us = 0, span_us = 0;  // replay position and length, GPU microseconds
  long long computed = 0, computed_total = 0, skipped = 0, skipped_total = 0;
  bool roofline = false;         // the roofline point is drawn
  // The rect ids outlined this frame for the tile hovered last frame: its grid cell, its lane bar,
  // its warp-timeline bars (issue 33's linked highlight); empty when nothing is hovered.
  std::vector<std::string> highlighted;
};

// The GPU panel's replay position: one value that two controls move, the panel's "GPU time" slider
// and the main window's timeline (which scrubs GPU time while the panel shows a recording; see
// replay_clock.h). Written by the panel when it loads a recording, and by those controls.
struct ReplayClock {
  bool loaded = false;          // the GPU panel holds a recording
  double position_ns = 0;       // GPU time since the recording's earliest tile start
  double span_ns = 0;           // the recording's length: latest tile end − earliest start
  bool playing = false;
  float slow_down = 20000.0f;   // wall-clock seconds per GPU second
};

struct Transient {
  // Key presses queued by the GLFW callback and applied at the start of the next frame: with
  // Dear ImGui 1.86's key-state array a press and release inside one frame would be lost
  // (clickers and xdotool send both at once).
  std::vector<KeyPress> keys;
  bool input_seen = false;       // set by every GLFW input callback: an idle window draws nothing
  int step = 0;                  // lesson step index (lesson mode)
  int event = 0;                 // trace event index in the current scenario
  bool playing = false;          // Space: one event per 1/play_speed s, stopping at the next step's mark
  bool revealed = false;         // the current step's predict box has been answered (first PageDown / R)
  std::set<int> revealed_steps;  // steps revealed since the lesson was opened: back on one, its answer shows
  // A course (Model::course): the lesson open (its index in the course), whether its title card is
  // shown (PageDown from the previous lesson's last step, PageUp from this lesson's first step), and
  // the steps revealed in each lesson left, so crossing back shows their answers again.
  int course_lesson = 0;
  bool title_card = false;
  bool end_card = false;   // after the course's last step: the course's end card (PageUp goes back)
  std::map<int, std::set<std::string>> course_revealed;  // by step id: a lesson edited meanwhile keeps its answers where they belong
  bool blank = false;            // B or '.': the projected screen is blanked, as presentation software does
  // The library (the start screen): what there is to teach, as cards; typed text filters it, the
  // arrows pick, Enter or PageDown opens. library_columns: the cards per row as last drawn (↑ ↓ move a row).
  bool show_library = false;
  // The cards' pictures: each lesson's first step, its scenario at the start of its trace (nothing
  // computed yet, so no answer shows), built once per file and language (null: it did not load).
  std::map<std::string, std::shared_ptr<const view::Scene>> library_thumbs;
  int library_scrolled_to = -1;  // the card last scrolled into view (the pick moved: scroll again)
  std::string library_filter;
  int library_pick = 0;
  int library_columns = 1;
  bool presenter_confirm = false;  // F5 on one screen said the notes would cover the projection: F5 again opens them
  // The step text's pages (issue 29: a clicker cannot scroll): text_page_top holds where each page
  // of the current step's text begins (pixels from its top, as last drawn: DrawMainWindow), and
  // PageDown / PageUp show the next / last page before the next / last step. text_page −1: the last
  // page (PageUp back into a step), resolved when drawn.
  int text_page = 0;
  std::vector<float> text_page_top{0.0f};
  // Per page: how many lines of an open question's sentence it repeats (0–2): a page that begins inside
  // the question's box below its sentence, among its choices.
  std::vector<char> text_page_stem{0};
  int question_last_page = 0;   // the last page the question box reaches: PageDown shows it before it reveals
  bool to_answer_page = false;  // just revealed: the text shows the page the answer begins on
  // The side panel's text scale (projector): what makes its content fit the panel, found from the
  // last frame's content height, never below the legible floor (24 px em). 1 = no shrinking.
  float side_fit = 1.0f;
  std::string side_fit_for;  // what it was found for (lesson, step, event, language, size, reveal): else it starts again at 1
  bool layout_settling = false;  // the pages or the panel's fit moved this frame: draw another one
  // The current step's checked exercise (data::LessonStep::Check), reset with each new step: the
  // text typed so far, the choice picked (1-based, 0 = none) and the last verdict
  // (-1 = not checked yet, else a view::CheckVerdict).
  std::array<char, 64> answer_typed{};
  int focus_answer = 0;  // Tab: the answer field takes the keyboard within this many frames (lesson_panel.cpp)
  // The error is about a file or link asked at the start, and the library is shown in its place
  // (not "the current lesson was kept": nothing was open).
  bool error_library_instead = false;  // Tab: the answer field takes the keyboard when it is next drawn
  unsigned answer_field = 0;  // the answer field's ImGui id (HandleKeys: the clicker works while it has the keyboard)
  std::array<float, 4> answer_field_box{};  // its screen rectangle, x0 y0 x1 y1 (the state file: tests click into it)
  int answer_choice = 0;
  int answer_verdict = -1;
  int answer_mistake = -1;       // wrong, and equal to the check's mistakes[answer_mistake] (its hint is shown)
  double last_advance = 0;       // glfwGetTime() of the last automatic step
  bool show_help = false;        // the '?' shortcut overlay
  bool show_open = false;        // the Ctrl+O browser
  bool show_gpu = false;         // G: the GPU panel (live tile traffic, or the H200 replay)
  GpuStatus gpu;                 // written by the GPU panel each frame it draws
  bool open_editor = false;      // --show editor: the scenario editor's header opens once (screenshots)
  ReplayClock gpu_replay;        // the GPU replay's position, shared by the panel and the timeline
  std::string open_path;         // its path field, which also filters the lessons and scenarios listed
  int open_pick = 0;             // the listed entry ↑ ↓ picked (Enter opens it when the field names no file)
  bool presenter = false;        // F5: notes go to a second window; the main one shows diagram + text large
  bool fullscreen = false;       // F11 (applied by main, which owns the window)
  bool monitor_changed = false;  // Shift+F11 picked the next monitor: move a fullscreen window there
  bool settings_dirty = false;   // options changed: save them
  double anim_start = -1;        // glfwGetTime() when the current event's transfer started animating
  Editor editor;
  std::string status;            // last non-error message (export written, file reloaded, …): written by SetStatus
  // The lesson message the status shows ("end of the lesson", "reveal first"), by its key: set with
  // the text by SetLessonStatus, cleared by SetStatus; LessonStatus reads it, never the text.
  std::optional<view::Str> status_lesson;
  bool status_of_step = false;   // the status is about the step shown (→ at a trace's end): it goes with the step
  bool status_of_save = false;   // the status line says "saved …": another file opened clears it
  std::string opened_path;       // the file last opened (lesson or scenario): reloaded when it changes
  // The files ReloadIfChanged watches: the opened one and the scenarios its lesson binds, each with
  // what it held when last looked at — time, size and a hash of the bytes (a file completed within the
  // same timestamp is still seen; issue 31).
  struct WatchedFile {
    std::string path;
    std::filesystem::file_time_type mtime;
    std::uintmax_t size = 0;
    std::size_t hash = 0;
    bool readable = false;
    std::filesystem::file_time_type hashed_at;  // when the hash was taken
  };
  std::vector<WatchedFile> watched;
  // The scenarios whose edits are not saved (a lesson's scenario keys; "" = a scenario open on its
  // own): ApplyEdit adds, Save As and RevertEdit remove, a load from disk clears.
  std::set<std::string> unsaved;
  bool disk_newer = false;       // a watched file changed on disk and was not loaded (edits were unsaved)
  bool disk_changed = false;     // … and the question is open: the banner asks (load it, or keep my edits)
  std::string error;             // last load error, one line (file: JSON path: reason); "" = none
  bool fonts_dirty = true;       // rebuild the atlas before the next frame
  float content_scale = 1.0f;    // the monitor's content scale (Xft.dpi / 96): physical px = logical px × this
  enum class Export { kNone, kPng, kData } export_request = Export::kNone;  // Ctrl+E / Ctrl+Shift+E, done by main after the frame
  std::string toast;             // shown over the window until toast_until (glfwGetTime seconds): export paths
  double toast_until = 0;
  bool show_settings = false;    // the settings window
  int missing_glyphs = 0;        // characters of RuntimeTexts the atlas lacks after a rebuild (glyphs.h)
  float diagram_px = 0;          // the diagram's label size in pixels (a font is baked at it)
  float chrome_px = 22;          // the top bar's and timeline's font size (view::ChromePx of the window)
  float text_px = 22;            // the text's font size: options.font_px × view::WindowTextScale
  float export_scale = 1.0f;     // while Ctrl+E renders at 2×: font_px is multiplied by it, Ctrl ± is not
  // A live class (issue 30; app/live_class.h runs its server): what the join card and the notes
  // window show. Nothing here while no class runs.
  struct LiveClassView {
    bool live = false;
    std::string url, code;        // "http://192.168.1.20:8080/", "4KQ7PZ"
    int students = 0, connected = 0;
    int qr_size = 0;              // the join URL's QR code: qr_size × qr_size modules, row-major, 1 = dark
    std::vector<std::uint8_t> qr;
    std::vector<std::string> histogram;  // the current step's earlier rounds and this round's totals, a line each (notes window only; its answers are `bars`)
    // The class settings the teacher holds (the notes window changes them through `want`).
    bool pacing_lock = false;     // students cannot move away from the teacher's step
    int round = 1;                // the vote round open at this step ("vote, discuss, vote again")
    bool voting_closed = false;   // answers refused until a new round
    bool resumed = false;         // this class was resumed from its state file (same code, answers so far)
    // The current step's answers as bars, for the projected distribution (anonymous; shown only
    // after the reveal, when the teacher asks: project).
    struct Bar {
      std::string answer;
      int count = 0;
      bool right = false;
      std::string mistake;        // the named mistake ("the plain mean"), "" = none
      bool operator==(const Bar&) const = default;
    };
    std::string bars_step;        // the step id the bars count ("" = none)
    int bars_total = 0;
    std::vector<Bar> bars;
    bool project = false;         // the teacher projects the distribution (after the reveal)
    bool confirm_end = false;     // "End the class" was clicked once: the next click ends it
    std::vector<std::string> roster;         // one line per student: the token's first digits, nickname, follow state
    std::vector<std::string> roster_tokens;  // the same students' tokens (remove a device)
    std::vector<std::string> log;            // the server's last log lines (closed clients …)
    // What the notes window asked for; LiveClass::Frame does it and clears it.
    struct Requests {
      bool toggle_lock = false, new_round = false, toggle_vote = false, toggle_project = false;
      bool export_results = false, end_class = false;
      std::string remove;         // a token
      bool operator==(const Requests&) const = default;
    } want;
    bool operator==(const LiveClassView&) const = default;
  } live_class;
  bool show_join_card = false;   // J: the join card over a step while a class runs (title cards always show it)
  // Starting a class from the settings window (desktop: main fills `addresses` and starts the class
  // when `start_at` is set; the web edition leaves them empty and shows nothing).
  struct ClassSetup {
    std::vector<std::string> addresses;   // "192.168.1.20 (wlan0)", …, "127.0.0.1 (lo)"
    int pick = 0;
    int port = 8080;
    std::string start_at;                 // "ADDRESS:PORT": start now
    std::string error;                    // why the last start failed
  } class_setup;
  // The student's side of a live class (the web edition joined one). Plain data; the rules that move
  // it are classroom/student.h (the server's messages in, the protocol's frames out).
  struct StudentClass {
    bool joined = false;          // a welcome came: while following, the class's states drive this screen
    bool connected = false;       // the page's WebSocket is open (else it is reconnecting)
    bool ended = false;           // the teacher ended the class (or it was full, or this device was removed)
    std::string code;             // the class's join code
    bool following = true;        // follows the teacher (else "explore on my own")
    bool pacing_lock = false;     // the teacher locked pacing: no detaching, no moving away
    bool question_open = false;   // the teacher's step asks a question that takes answers now
    int round = 1;                // the teacher's vote round
    std::uint64_t seq = 0;        // the newest state received (older ones and repeats are ignored)
    std::string lesson, step, card;  // the teacher's position, as the newest state said it
    int event = 0;
    bool revealed = false;
    std::string applied;          // what following put on screen (classroom::ShownKey): a move away from it is the student's own
    std::string sent_question;    // the answer this device sent for the open question (step id, round, text)
    int sent_round = 0;
    std::string sent_answer;
    bool answer_pending = false;  // sent_answer waits for the page to send it
    bool want_follow = false, want_detach = false;  // the same for "back to the class" / "explore"
    std::string line;             // the class bar's message: why an answer was refused, "the class is full"
  } student;
};

struct Model {
  // How the files opened are built (view::ModelOptions): the window's comparisons in the background
  // (set at start when the edition can compute there); the default (at once) for screenshots and tests.
  view::ModelOptions options;
  // A course (a lecture's lessons in order, data/course.h): `lesson` is its lesson ui.course_lesson.
  std::optional<view::CourseModel> course;
  std::optional<view::LessonModel> lesson;              // lesson mode when set and no standalone
  std::shared_ptr<const view::ScenarioModel> standalone;  // a scenario opened on its own
  std::vector<view::LibraryEntry> library;              // the shipped lessons and scenarios (view/library.h)
  // The lesson's scenarios the editor replaced, by the lesson's key, as they were loaded: the way
  // back (RevertEdit). Empty when nothing is edited; cleared with every lesson shown.
  std::map<std::string, std::shared_ptr<const view::ScenarioModel>> unedited;
};

struct AppState {
  Options options;
  Transient ui;
  Model model;
  // The current frame's quantities, panels and diagram, built once per position (frame_cache.h).
  // Mutable: filling it changes nothing the user can see, and the panels read AppState as const.
  mutable FrameCache frame;

  bool InLesson() const { return !model.standalone && model.lesson && !model.lesson->lesson.steps.empty(); }
  bool InCourse() const { return InLesson() && model.course.has_value(); }
  // The title card of the course's lesson ui.course_lesson is on screen instead of its first step.
  bool OnTitleCard() const { return InCourse() && ui.title_card; }
  // PageDown on the course's last step shows its end card (what was taught, the minutes): the clicker
  // is seen to have reached the end, not to have died.
  bool OnEndCard() const { return InCourse() && ui.end_card; }
  // The scenario shown now, or nullptr when nothing is loaded.
  const view::ScenarioModel* Current() const {
    if (model.standalone) return model.standalone.get();
    if (InLesson()) return &model.lesson->ScenarioOf(ui.step);
    return nullptr;
  }
  // The same model, shared (FrameCache keeps the model its entries were built from).
  std::shared_ptr<const view::ScenarioModel> CurrentModel() const {
    if (model.standalone) return model.standalone;
    if (InLesson()) return model.lesson->scenarios.at(model.lesson->lesson.steps[ui.step].scenario);
    return nullptr;
  }
  const data::LessonStep* CurrentStep() const { return InLesson() ? &model.lesson->lesson.steps[ui.step] : nullptr; }
  // The current step asks a question that has not been answered yet: its answer and everything the
  // next step would show stay hidden.
  bool PredictPending() const { return CurrentStep() && CurrentStep()->predict && !ui.revealed; }
  view::Palette Palette() const { return options.projector ? view::ProjectorPalette() : view::ClassroomPalette(); }
  // The base font size in physical pixels: the logical setting × the monitor's content scale.
  float FontPx() const { return options.font_px * ui.content_scale; }
  // How much Ctrl ± enlarges the diagram's text (view::TextScale of the logical size; an export at 2×
  // does not count as Ctrl +). The projector starts at 1.25×: key numbers ≥ 28 px at 1080p from the
  // back row (the diagram's em is about 23 px there).
  float DiagramTextScale() const {
    const float ts = view::TextScale(options.font_px / ui.export_scale);
    return options.projector ? std::max(ts, 1.6f) : ts;
  }
};

// Withdraws F5's one-screen warning (any key but F5 after it): the next F5 warns again.
void CancelPresenterConfirm(AppState& s);
// Actions the UI calls (model changes go through these, never through widgets directly).
// One position drives everything: every action that moves the trace position goes through SetEvent,
// which makes the step that owns the new position (LessonModel::OwnerStep) the current one, so the
// text, highlights, predict box and panels always belong to the position shown — whether it was
// reached by →, by dragging the timeline, by playing or by PageDown.
void GoToStep(AppState& s, int step);      // clamps; jumps to the step's trace event
// PageDown / PageUp (what a clicker sends). Forward on a step whose predict box is still unanswered
// first reveals the answer; the next press moves on. Without a lesson: one trace event. In a course
// the clicker crosses lessons: PageDown on a lesson's last step shows the next lesson's title card,
// the next press its first step; PageUp crosses back the same way (the first step, the card, the
// previous lesson's last step). A lesson that fails to load keeps what was open and says why.
void StepLesson(AppState& s, int delta);
// Opens lesson `index` of the open course at its first step (or its last with `at_end`), keeping the
// course and the answers revealed in every lesson. On error: s.ui.error is set, nothing changes.
bool OpenCourseLesson(AppState& s, int index, bool at_end);
// Goes to the step with this id: in the lesson open, else in the course's lesson that owns it; a
// course lesson's own id ("MASK") goes to its title card.
// Returns false (and changes nothing) when no such step exists or its lesson does not load.
bool GoToStepId(AppState& s, const std::string& step_id);
// The editor's scenario in place of the one shown (issue 29 item 5). Inside a lesson it replaces the
// current step's scenario: the lesson, its text and its question stay, every step bound to that
// scenario is placed again on the edited trace, and the loaded scenario is kept for RevertEdit.
// Refused (returns why, nothing changes) when a step's position is not on the edited trace
// ("N50/w2 is at update:2; the edited scenario has 1 block"). Outside a lesson: the standalone
// scenario. Returns "" when applied.
std::string ApplyEdit(AppState& s, std::shared_ptr<const view::ScenarioModel> model);
// The current step's scenario is the editor's, not the lesson's own.
bool EditedNow(const AppState& s);
// Back to the lesson's own numbers for the current step's scenario (the position kept).
void RevertEdit(AppState& s);
// The status line's lesson message ("end of the lesson", "reveal first"), if it shows one (read from
// `ui.status_lesson`): such a message clears at the next step and follows the language switch.
std::optional<view::Str> LessonStatus(const AppState& s);
// The status line says `text` (not a lesson message) / the lesson message `k` in the current language.
void SetStatus(AppState& s, std::string text);
void SetLessonStatus(AppState& s, view::Str k);
// The status line says nothing (when it says the lesson message `k`: only then).
void ClearStatus(AppState& s);
void ClearLessonStatus(AppState& s, view::Str k);
void Reveal(AppState& s);                  // R or the Reveal button: show the predict box's answer (not for a student of a locked class)
// F5: the presenter notes window opens or closes. With one screen (`monitors` ≤ 1, a mirrored
// projector) it would open over the projected picture, notes and answers in front of the class: the
// first F5 only says so in the status line, a second F5 opens it anyway.
void TogglePresenter(AppState& s, int monitors);
// The current step's checked exercise: check the typed text (a number question) or choice K
// (1-based; a choice question) against the engine (view/exercise.h). A right answer reveals.
// In a live class (a student following, the teacher's step asking, not revealed) the answer is sent to
// the class instead (AnswersGoToTheClass): its verdict shows at the teacher's reveal.
void CheckTypedAnswer(AppState& s);
bool AnswersGoToTheClass(const AppState& s);
void CheckChoice(AppState& s, int choice);
// The hint of the known mistake the typed number equals (LessonStep::Check::mistakes), filled at the
// step's own event in the current language, or "".
std::string MistakeHint(const AppState& s);
// The line a checked answer's verdict shows (ui.answer_verdict ≥ 0): the named mistake's hint after
// "× ", else the verdict's words ("✓ Right: …"); "" when nothing was checked. `wrong`: drawn in the
// wrong purple. The step's own check row and a phone's answer bar (classroom::QuestionForPage) show it.
std::string VerdictLine(const AppState& s, bool* wrong = nullptr);
void StepEvent(AppState& s, int delta);    // one trace event
void StepBlock(AppState& s, int delta);    // to the next/previous block boundary of the trace
void SetEvent(AppState& s, int event);     // clamps; the step follows the position
// Space: start or stop playing. Starting at the last event starts again from the step's own event.
void TogglePlay(AppState& s);
// One playback tick: the next event; stops at the last event and on arriving at another step's
// event (playing stops at every step mark). A step whose question is still unanswered is not left:
// playing stops at its last event and the status line says to reveal first. Returns true when the
// position moved.
bool PlayTick(AppState& s);
// Opens a lesson (a document with "steps"), a course (its first lesson) or a scenario. A lesson that a
// course lists opens inside that course — the open one, else the course.json of the lesson's folder —
// so the clicker goes on to the next lesson. On error: s.ui.error is set and the model is left
// exactly as it was. Returns true on success.
bool OpenFile(AppState& s, const std::string& path);
// Reopens the current file when it or a scenario it binds changed on disk, keeping the step and
// event where possible. A file that no longer loads keeps the old model and shows the error.
// Returns true when something was reloaded (or failed to).
// With unsaved edits (ui.unsaved) nothing is replaced: ui.disk_newer and ui.disk_changed are set, and
// the banner under the top bar asks — ReloadFromDisk (the file's numbers, the edits dropped)
// or KeepEdits. Once no edit is unsaved (saved or reverted: EditsGone) a newer file is loaded.
bool ReloadIfChanged(AppState& s);
void ReloadFromDisk(AppState& s);
void KeepEdits(AppState& s);
// The current step's scenario (a lesson's key; "" outside a lesson): its edits were saved (Save As).
void EditsSaved(AppState& s);
// The library's lessons that match the typed filter (indices into model.library), in order.
std::vector<int> LibraryShown(const AppState& s);
// Moves the picked card by `delta` (clamped to the cards shown).
void LibraryMove(AppState& s, int delta);
// Opens a library entry: a lesson of the open course inside it (OpenCourseLesson), anything else as a
// file (OpenFile); on success the library and the Ctrl+O dialog close.
bool OpenLibraryEntry(AppState& s, const view::LibraryEntry& e);
// Opens the picked card's lesson (a course lesson inside the course, at its first step) and closes the
// library; false when nothing is picked or it does not load (s.ui.error says why; the library stays).
bool LibraryOpen(AppState& s);
// Font size in steps of 10 %, clamped to 10–96 px; the atlas is rebuilt before the next frame.
void ScaleFont(AppState& s, float factor);

}  // namespace bw::app
