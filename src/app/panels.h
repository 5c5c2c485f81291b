// The ImGui panels around the diagram: top bar, step text, accumulator, teacher notes, timeline.
// Each reads AppState and calls its actions; none keeps state of its own.
#pragma once

#include <utility>
#include <vector>

#include "session/app_state.h"
#include "app/fonts.h"
#include "app/heatmap.h"
#include "app/painter.h"
#include "session/shown.h"

namespace bw::app {

void DrawTopBar(AppState& s, const Fonts& fonts);
void DrawErrorBanner(AppState& s);
// The diagram in the space left of the side panel; returns the painted rectangles.
// The scene (laid out for the frame set with s.frame.SetSceneFrame) is scaled to fill width × height
// (pixels); `text_scale` is the Ctrl ± scale (AppState::DiagramTextScale), of which the painter applies
// what the builder did not; *label_px receives its largest label size.
Painted DrawDiagram(const AppState& s, const Fonts& fonts, float width, float height, float text_scale,
                    float arrow_progress = 1.0f, float* label_px = nullptr, const FillPass& fills = {});
// The step's title in the large font (the text's where that takes more than `max_h` px), wrapped at `width`
// px, above the paged text; returns its height (px).
float DrawStepTitle(const AppState& s, const Fonts& fonts, float width, float max_h = 1e9f);
// A stretch of the step text (screen pixels) that a page keeps together when it fits on one: the
// question box, and inside it the question, the answer, the check and reveal row.
// kStem: the question's sentence; a page that begins below it inside the box repeats it. kVerdict: the
// checked answer's verdict line (a check turns to its page).
// kChoices: an open question's choices or field with the Reveal row, which a page keeps together even
// where that leaves the page before it short (the class compares the choices, then the teacher
// reveals); kReveal: the Reveal row alone (it may share the page mark's line).
struct KeepTogether {
  float top, bottom;
  enum Kind { kQuestionBox, kPart, kAnswer, kStem, kVerdict, kChoices, kReveal } kind;
};
// Where the step text's pages end, for its paragraphs (DrawPagedStepText): `origin_y` the screen y of
// the text's top; `ends[k]` the bottom of page k's room (the text's y, from the last frame's pages);
// after the last, a page every `room`. A paragraph's line that is a page's last ends after the line's
// last sentence, so that the page does not end mid-sentence.
struct TextPageGuide {
  float origin_y = 0, room = 0;
  std::vector<float> tops, ends;
};
// The question box (Reveal, the check), the body, the further line; returns what a page keeps
// together, the question box first (none when the step asks nothing).
std::vector<KeepTogether> DrawStepText(AppState& s, const Fonts& fonts, const TextPageGuide* guide = nullptr);
void DrawPanels(const AppState& s, const Fonts& fonts);   // the scenario's side-panel sections
// In projector mode the side panel, the balance and the heatmap keep the sizes they have at the default
// font size: Ctrl + enlarges the step text (which pages), and never shrinks their numbers to make room
// (issue 29's walk-through: after Ctrl + ×3 the panel's 36 px numbers fell to 24 and the balance's
// "× 65/3" shrank). The font scale that undoes Ctrl + there (≤ 1); 1 elsewhere and for Ctrl −.
float PanelCtrlUndo(const AppState& s);
// The width (px) the side panel's widest table needs with its text at `floor_em` px em: narrower, its
// numbers would break across lines ("0.7071" read "0.707 / 1"). 0 when it shows no table.
float PanelsLeastWidth(const AppState& s, const Fonts& fonts, float floor_em);
void DrawTeacherNotes(const AppState& s, const Fonts& fonts);
void DrawTimeline(AppState& s);
void DrawHelp(AppState& s);       // the '?' overlay of every shortcut
void HandleKeys(AppState& s);
// Before the fonts are (re)built each frame: the chrome and text sizes for a window `display_h` high.
void UpdateFontSizes(AppState& s, float display_h);
// The whole main window: top bar, diagram, step text, side panels, timeline, overlays; the scenes'
// fills through `fills` (painter.h: FillPass; the app's AppRun::fill_pass).
Painted DrawMainWindow(AppState& s, const Fonts& fonts, float arrow_progress, HeatmapRenderer* heatmap,
                       const FillPass& fills = {});
// The title card of the course's lesson s.ui.course_lesson, in a width × height (px) box (title_card.cpp).
void DrawTitleCard(const AppState& s, const Fonts& fonts, float width, float height);
// The course's end card (after its last step: AppState::OnEndCard), in a width × height (px) box (title_card.cpp).
void DrawEndCard(const AppState& s, const Fonts& fonts, float width, float height);
// The library (the start screen) in a width × height (px) box (library.cpp).
void DrawLibrary(AppState& s, const Fonts& fonts, float width, float height, const FillPass& fills = {});
// P as a heatmap (our shader), the current tile outlined.
void DrawHeatmap(const AppState& s, const Fonts& fonts, HeatmapRenderer* renderer,  // or the balance (single query)
                 const FillPass& fills = {});
// The presenter's notes window content (F5).
void DrawPresenterNotes(AppState& s, const Fonts& fonts, double elapsed_s);
// Ctrl+O: a path field that filters, the library's lessons by title above its scenarios (s.model.library),
// recent files.
void DrawOpenBrowser(AppState& s);
// The status line beside the title, cut with "…" to max_w pixels (the full text as a tooltip).
void DrawStatus(AppState& s, float max_w);
// Edit the current single-query scenario (weights/logits, values, block sizes, mode) with live
// recompute; Save As writes it atomically.
void DrawEditor(AppState& s);

// ShownTexts (every string the model can show): session/shown.h.

}  // namespace bw::app
