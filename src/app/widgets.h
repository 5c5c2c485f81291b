// Small ImGui helpers every panel uses: UI strings, placeholders filled from the engine, CJK-aware
// wrapping, headings and table rows. No state of their own.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "session/app_state.h"
#include "session/texts.h"
#include "app/fonts.h"
#include "app/painter.h"
#include "view/ui_text.h"

namespace bw::app {

// "Wrong" (a wrong merge, the wrong average): purple with a × — one meaning per colour, and red
// already means "written to HBM". The palette's one purple (view::Palette::wrong), as ImGui's colour.
inline const unsigned kWrongColor = ToImColor(view::ClassroomPalette().wrong);
inline constexpr unsigned kNoticeColor = 0xFF37405Du;  // IM_COL32(93, 64, 55, 255): brown, neither wrong nor written

// T and Fill (the words in the current language, placeholders filled): session/texts.h.
// Wraps at spaces and between CJK characters (never inside a Latin word or number).
// `role`: what the line is, for the TextLog (a side panel's value, a hint).
using TextRole = PaintedText::Role;
void Wrapped(const std::string& text, TextRole role = TextRole::kText, bool keep_formulas = false);  // (WrapLines)
// The lines Wrapped would draw `text` in at `avail` pixels wide, in the current font. `keep_formulas`: a
// space inside a formula or between a number and its unit (view::MayBreakAtSpace) is a break only where
// nothing else fits — the step text's rule (its pages, its choices); the side panels' and cards' rows wrap
// at any space, as their fitted heights were laid out for.
std::vector<std::string> WrapLines(const std::string& text, float avail, bool keep_formulas = false);
void Heading(const Fonts& f, const std::string& text);

// The text record of one frame: while a TextLog is alive, Wrapped, Said and Row put every line they
// draw (its box, font size and em) into `out` — what --dump-scene reports and the legibility test
// measures. One at a time (DrawMainWindow opens it); without one, nothing is recorded.
class TextLog {
 public:
  TextLog(std::vector<PaintedText>* out, float em_ratio);
  ~TextLog();
  TextLog(const TextLog&) = delete;
  TextLog& operator=(const TextLog&) = delete;
};
// The timeline's label (event number and title) clear of the slider's grab: ImGui centres a slider's
// text in its frame, and a short trace's grab (the frame's width over the event count: 150 px for
// DEC's 9 events) covered it. The frame spans [x0, x1], the grab [g0, g1], the text is `w` wide:
// centred in the frame when that misses the grab, else centred in the wider part beside the grab
// (at its edge when that part is narrower than the text; the caller elides the text to that part).
struct TimelineLabelPlace {
  float x = 0;        // the text's left edge
  float room = 0;     // the width it may take
};
TimelineLabelPlace PlaceTimelineLabel(float x0, float x1, float g0, float g1, float w, float pad);
// ImGui's grab of an integer slider over [0, n − 1] at value v in a frame [x0, x1] (imgui_widgets.cpp,
// SliderBehaviorT: 2 px padding, the grab max(usable / n, GrabMinSize) wide).
std::pair<float, float> SliderIntGrab(float x0, float x1, int v, int n, float grab_min);
// Draws one line as ImGui::TextUnformatted and records it.
void Said(const std::string& line, TextRole role = TextRole::kText);
// The lesson's answer field has the keyboard (s.ui.answer_field is the active ImGui item).
bool AnswerFieldActive(const AppState& s);
// `text` cut at a character boundary, with "…", to fit `max_w` pixels in the current font.
std::string ElideToWidth(const std::string& text, float max_w);
// Records a painted scene's labels (the balance beside the step text) in the current region.
void SaidLabels(const std::vector<PaintedLabel>& labels);
// Records the last item (a button, a progress bar's caption) as the text `line`.
void SaidItem(const std::string& line, TextRole role = TextRole::kText);
// How a row's name is marked: a wrong value (× in the wrong purple), or a condition the engine names
// that is not a mistake (! in brown: an all-masked row, a token dropped at capacity).
enum class RowMark { kNone, kWrong, kNotice };
RowMark MarkOf(const view::PanelRow& r);
// The name with its mark's symbol ("× ", "! ") in front.
std::string MarkedName(RowMark mark, const std::string& name);
// One name/value table row; `mark` marks its name; `bar` (0–1) draws the value on a bar.
void Row(const char* name, const std::string& value, RowMark mark = RowMark::kNone, float bar = -1);
// The projector's row, read from the back of the room: name and value on one line where they fit
// (the value at the right edge), else the name above its value.
// `key` (view::PanelRow::key): a number the step is about, in the large font; else the text font.
void BigRow(const Fonts& f, const std::string& name, const std::string& value, RowMark mark = RowMark::kNone, bool key = true);

}  // namespace bw::app
