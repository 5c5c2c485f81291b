// The main window's arrangement and the glyph texts; see panels.h.
#include "app/panels.h"
#include "app/diagram_layout.h"
#include "session/shown.h"
#include "app/widgets.h"

#include <cstring>
#include <imgui.h>
#include <imgui_internal.h>  // SetNextWindowScroll

#include <algorithm>
#include <cmath>

#include "view/exercise.h"
#include "view/layout.h"
#include "view/scenario_model.h"

namespace bw::app {

void UpdateFontSizes(AppState& s, float display_h) {
  // The chrome (top bar, timeline) is sized from the window, not by Ctrl ±: larger text never takes
  // height from the diagram. The text grows with the window (4K) and with Ctrl ±. Fonts are rebaked
  // when a size moves by more than a step.
  const float chrome_px = view::ChromePx(display_h);
  // font_px is logical: the content scale is applied once (FontPx), the window's growth in logical rows.
  const float text_px = s.FontPx() * view::WindowTextScale(display_h / s.ui.content_scale) *
                        (s.options.projector ? view::kProjectorTextScale : 1.0f);
  const auto moved = [](float now, float was) { return std::abs(now - was) > was * 0.04f; };
  if (moved(chrome_px, s.ui.chrome_px) || moved(text_px, s.ui.text_px)) {
    s.ui.chrome_px = chrome_px;
    s.ui.text_px = text_px;
    s.ui.fonts_dirty = true;
  }
}

namespace {

// Whether a wrapped line ends a sentence (a page may begin after it): 。！？； or . ! ? ; : before
// optional closing quotes and brackets.
bool EndsSentence(std::string t) {
  while (!t.empty() && t.back() == ' ') t.pop_back();
  for (const char* close : {"\u201d", "\u300d", "\uff09", ")", "\""})
    while (t.size() >= std::strlen(close) && t.compare(t.size() - std::strlen(close), std::strlen(close), close) == 0)
      t.resize(t.size() - std::strlen(close));
  for (const char* end : {"\u3002", "\uff01", "\uff1f", "\uff1b", "\uff1a", ".", "!", "?", ";", ":"})
    if (t.size() >= std::strlen(end) && t.compare(t.size() - std::strlen(end), std::strlen(end), end) == 0) return true;
  return false;
}

// Whether a wrapped line ends a clause (a page may begin after it when no sentence ends late enough):
// ， 、 or , (a page ended "（N 为序列长" and the next began "度）": issue 29's walk-through).
bool EndsClause(std::string t) {
  while (!t.empty() && t.back() == ' ') t.pop_back();
  // (A closed bracket and a colon too: "（N 为序列长 | 度）" broke where "…度）。" would have been the
  // place, and a Chinese line ends at a clause mark far more often than at a full stop.)
  for (const char* end : {"\uff0c", "\u3001", ",", "\uff09", ")", "\uff1a", ":"})
    if (t.size() >= std::strlen(end) && t.compare(t.size() - std::strlen(end), std::strlen(end), end) == 0) return true;
  return false;
}

// The height of n lines of the repeated question, in whole pixels: ImGui floors the cursor, and a
// fractional shift put the first choice's top half a pixel above the page, out of the record of what
// is on screen.
float StemHeight(float stem_line, int n) { return std::ceil(stem_line * static_cast<float>(n)); }

// Where the pages of the step text begin (content y: 0 at the text's top) and how many lines of the
// open question each repeats above its own: a new page at the first line that does not end inside this
// one. `texts` from `first` on are the lines just drawn, at screen y = content y + at_y - top; `keep`
// what DrawStepText asks to keep on one page; `room_of_page` a page's height less its "more" mark's line.
struct PageBreaks {
  std::vector<float> tops;
  std::vector<char> stem;
};
// `reveal_extra`: how much lower than the room the Reveal row may go, beside the mark (0: not there).
struct PageRoom { float room_of_page, line; int stem_fits; float stem_line, reveal_extra; };
PageBreaks FindPageBreaks(const std::vector<PaintedText>& texts, size_t first, const std::vector<KeepTogether>& keep, float at_y,
                          float top, const PageRoom& pr) {
  const float room_of_page = pr.room_of_page, line = pr.line, stem_line = pr.stem_line;
  const int stem_fits = pr.stem_fits;
  std::vector<float> found{0.0f};
  std::vector<char> found_stem{0};
  float room = room_of_page;  // a page keeps a line for its "more" mark (and one for a repeated question)
  const KeepTogether* stem = nullptr;
  const KeepTogether* box = nullptr;
  const KeepTogether* answer = nullptr;
  const KeepTogether* reveal = nullptr;
  for (const auto& k : keep) {
    if (k.kind == KeepTogether::kStem) stem = &k;
    if (k.kind == KeepTogether::kQuestionBox) box = &k;
    if (k.kind == KeepTogether::kAnswer) answer = &k;
    if (k.kind == KeepTogether::kReveal) reveal = &k;
  }
  // A page never splits what fits on one: a line inside the question box starts its page at the
  // box's top when the box fits on a page (it comes first: its own page), else at the top of its
  // part (the question, the answer, the check and reveal row) when that fits.
  const auto content_y = [&](float screen_y) { return screen_y - at_y + top; };
  // Two lines run on in one paragraph: the second starts where the first ends (less than half a line
  // between them) at the same left edge.
  // (Not a hint: the question box's reveal row is no line of the choices above it. Taken for one, the
  // widow rule took the last choice along to the reveal row's page: RC-T3/b0's question on a 1280×720
  // laptop in English had its choice 3 alone on page 3.)
  const auto runs_on = [&](size_t a, size_t b) {
    return b > a && a >= first && b < texts.size() && texts[b].role != PaintedText::Role::kHint && std::abs(texts[a].x0 - texts[b].x0) < 1.0f &&
           texts[b].y0 - texts[a].y1 < 0.5f * (texts[b].y1 - texts[b].y0);
  };
  // (Only what fits on a page is kept together: inside a longer one — a revealed answer of six lines on
  // a projector's short page — a page still breaks after a sentence or a clause, not mid-word: "The
  // red line | …", a third walk-through.)
  // (… and only where moving it to the next page leaves this one at least half full: a part that
  // begins in the page's upper half is broken between its lines instead. Kept whole from there, the
  // choices of RC-T3/b0 went to a page of their own below a question alone on one, the reveal row to
  // a third: four pages where two and a half sufficed, and a projector's question steps took up to
  // eight, half empty, a fresh teacher's walk-through.)
  // (A stretch that ends with the Reveal row fits where its lines above the row fit the room and the
  // row fits beside the mark.)
  const auto fits = [&](const KeepTogether& k, float in_room) {
    const float k0 = content_y(k.top), k1 = content_y(k.bottom);
    if (reveal && pr.reveal_extra > 0 && k.top <= reveal->top + 0.5f && k.bottom >= reveal->bottom - 0.5f && k.bottom - reveal->bottom < line)
      return content_y(reveal->top) - ImGui::GetStyle().ItemSpacing.y - k0 <= in_room + 0.5f &&
             content_y(reveal->bottom) - k0 <= in_room + pr.reveal_extra + 0.5f;
    return k1 - k0 <= in_room;
  };
  // An open question's choices and its Reveal row: kept on one page whenever they fit one (with the
  // question repeated above them where that fits too), even where the page before is left short: on a
  // 1080p projector in English N23/c1's three choices went to three pages and RC-T3/b0's Reveal row to
  // a page of its own, the choices gone just before the answer (a teacher's walk-through).
  const auto kept = [&](const KeepTogether& k) {
    if (k.kind == KeepTogether::kChoices) return fits(k, room_of_page - StemHeight(stem_line, std::min(stem_fits, 1)));
    return fits(k, room) && content_y(k.top) >= found.back() + 0.5f * room - 0.5f;
  };
  const auto in_keep = [&](float y0, float y1) {
    for (const auto& k : keep)
      if (y0 >= content_y(k.top) - 0.5f && y1 <= content_y(k.bottom) + 0.5f && kept(k)) return true;
    return false;
  };
  for (size_t i = first; i < texts.size(); ++i) {
    float y0 = content_y(texts[i].y0);
    const float y1 = content_y(texts[i].y1);
    const KeepTogether* moved = nullptr;   // the stretch this line takes along to a new page
    for (const auto& k : keep) {
      const float k0 = content_y(k.top), k1 = content_y(k.bottom);
      if (y0 >= k0 - 0.5f && y1 <= k1 + 0.5f && kept(k)) {
        y0 = std::min(y0, k0);
        moved = &k;
        break;
      }
    }
    const bool reveal_row = reveal && texts[i].y0 >= reveal->top - 0.5f && texts[i].y1 <= reveal->bottom + 0.5f;
    if (y1 > found.back() + room + (reveal_row ? pr.reveal_extra : 0.0f) + 0.5f && y0 > found.back() + 0.5f) {
      // A page breaks between paragraphs where one starts in the page's last 40 % (a helper saw
      // "再把 S 读 | 回来" split across pages), else never leaves one line of a paragraph alone on the
      // next page ("+ u2)/(l1 + l2)。" made a page of its own).
      if (!in_keep(y0, y1)) {
        size_t start = i;
        while (start > first && runs_on(start - 1, start) && content_y(texts[start - 1].y0) > found.back() + 0.5f) --start;
        const float s0 = content_y(texts[start].y0);
        // Else at a sentence's start in the page's last half: a paragraph cut mid-sentence put
        // "（N 为序列长" and "度）" and a formula's two halves on two pages (issue 29's walk-through).
        // (On a page of fewer than five lines — a projector's pane, or after Ctrl + — too, as long as the
        // page keeps a line and a half: "（N 为序列长 | 度）。" and "所以要切 | 块" still broke across
        // PageDowns there, a second walk-through found.)
        const float least = room >= 5 * line ? 0.5f * room : std::max(1.5f * line, 0.4f * room);
        size_t sentence = i;
        // Where the last line of a paragraph would go alone onto the next page, the search starts a line
        // up (else the widow rule below moved a break at a clause up into "CPU 小 | 例子": BWD/r5).
        const bool widow = !runs_on(i, i + 1) && runs_on(i - 1, i);
        const size_t from = widow && i - 1 > first ? i - 1 : i;
        // (Across paragraphs too, within the page's last part.)
        for (size_t k = from; k > first && content_y(texts[k].y0) >= found.back() + least; --k)
          if (EndsSentence(texts[k - 1].text)) {
            sentence = k;
            break;
          }
        // … else after a clause (a comma) in that last part, before a cut inside one.
        for (size_t k = from; sentence == i && k > first && content_y(texts[k].y0) >= found.back() + least; --k)
          if (EndsClause(texts[k - 1].text)) {
            sentence = k;
            break;
          }
        if (start < i && s0 >= found.back() + 0.6f * room && y1 - s0 <= room) {
          y0 = s0;
        } else if (sentence < i) {
          y0 = content_y(texts[sentence].y0);
        } else if (widow && content_y(texts[i - 1].y0) > found.back() + 0.5f) {
          y0 = content_y(texts[i - 1].y0);
        }
      }
      found.push_back(y0);
      // (Revealed: in one line — two a page made N23/c1's text six pages.)
      const bool revealed = answer != nullptr;
      // (… and not where that leaves a page fewer than two lines of the answer: after Ctrl + ×3 a 1080p
      // projector's pane showed the question and one line of the answer a page, RC-T3/b1's fifteen pages.)
      const bool answer_room = room_of_page - StemHeight(stem_line, 1) >= 2 * stem_line;
      int lines_here = revealed ? (answer_room ? std::min(stem_fits, 1) : 0) : stem_fits;
      // The choices moved whole: the question above them in as many lines as leave them room (two, or
      // one cut with "…"; never none where one fits the page: a page of choices shows their question).
      if (moved && moved->kind == KeepTogether::kChoices)
        while (lines_here > 1 && !fits(*moved, room_of_page - StemHeight(stem_line, lines_here))) --lines_here;
      const bool repeats = stem && box && lines_here > 0 && y0 >= content_y(stem->bottom) - 0.5f && y0 < content_y(box->bottom) - 0.5f;
      found_stem.push_back(repeats ? static_cast<char>(lines_here) : 0);
      room = room_of_page - (repeats ? StemHeight(stem_line, lines_here) : 0.0f);
    }
  }
  return {std::move(found), std::move(found_stem)};
}

// The step text in pages, never behind a scrollbar (a clicker cannot scroll): the page
// s.ui.text_page is drawn from its top, clipped where the next page begins, and where each page
// begins is found from the lines just drawn (no line is ever cut in two); PageDown shows the next.
void DrawPagedStepText(AppState& s, const Fonts& fonts, float w, float h, std::vector<PaintedText>& texts, float pane[4]) {
  // Never scrolled: the page is placed by its top below. (A typed answer's hint made ImGui scroll the
  // pane to keep the field in view, and the question went under the title: issue 29's walk-through.)
  ImGui::SetNextWindowScroll(ImVec2(0, 0));
  ImGui::BeginChild("text", ImVec2(w, h), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  auto& tops = s.ui.text_page_top;
  if (tops.empty()) tops = {0.0f};
  auto& stem_pages = s.ui.text_page_stem;
  stem_pages.resize(tops.size(), 0);
  const int pages = static_cast<int>(tops.size());
  const int page = s.ui.text_page < 0 || s.ui.text_page >= pages ? pages - 1 : s.ui.text_page;
  const float top = tops[static_cast<size_t>(page)];
  const ImVec2 at0 = ImGui::GetCursorScreenPos();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  pane[0] = at0.x, pane[1] = at0.y, pane[2] = at0.x + w, pane[3] = at0.y + h;
  // A page that begins inside an open question's box, below its sentence, repeats the sentence first
  // (en N23/c1 showed three answers and no question): in the text font (≥ 28 px em on a projector),
  // on two lines where the page keeps three of its own, else on one cut with "…", else not at all.
  std::vector<std::string> stem_lines, stem_one;
  ImGui::PushFont(fonts.text);
  const float stem_line = ImGui::GetTextLineHeightWithSpacing();
  if (const auto* asked = s.CurrentStep(); asked && asked->predict) {   // open or revealed
    const std::string q = "? " + StepTextNow(s).predict;
    const float avail = w - ImGui::GetStyle().ItemSpacing.x;
    stem_lines = WrapLines(q, avail, true);
    if (stem_lines.size() > 2) {
      std::string rest;
      for (size_t k = 1; k < stem_lines.size(); ++k) rest += (k > 1 ? " " : "") + stem_lines[k];
      stem_lines.resize(2);
      stem_lines[1] = ElideToWidth(rest, avail);
    }
    stem_one = {ElideToWidth(q, avail)};
  }
  ImGui::PopFont();
  const float room_of_page = h - line * 1.2f;
  const auto stem_height = [&](int n) { return StemHeight(stem_line, n); };
  const int stem_fits = stem_lines.empty()                                               ? 0
                        : room_of_page - stem_height(static_cast<int>(stem_lines.size())) >= 3 * line ? static_cast<int>(stem_lines.size())
                        : room_of_page - stem_height(1) >= 2 * line                      ? 1
                                                                                         : 0;
  const int stem_here = std::min<int>(stem_pages[static_cast<size_t>(page)], stem_fits);
  const float shift = stem_here > 0 ? stem_height(stem_here) : 0.0f;
  const float bottom = page + 1 < pages ? tops[static_cast<size_t>(page) + 1] : top + h - shift;
  if (shift > 0) {
    ImGui::PushFont(fonts.text);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    for (const auto& l : stem_here == 1 ? stem_one : stem_lines) Said(l);
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
  const ImVec2 at(at0.x, at0.y + shift);
  // The page shown: drawn from its top, clipped where the next page begins.
  ImGui::PushClipRect(ImVec2(at.x, at.y), ImVec2(at.x + w, at.y + std::min(h - shift, bottom - top)), true);
  ImGui::SetCursorScreenPos(at);
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() - top);
  const size_t first = texts.size();
  // Where the last frame's pages end, for the paragraphs' last lines.
  TextPageGuide guide{at.y - top, room_of_page, tops, {}};
  for (size_t k = 0; k < tops.size(); ++k)
    guide.ends.push_back(tops[k] + room_of_page - stem_height(std::min<int>(k < stem_pages.size() ? stem_pages[k] : 0, stem_fits)));
  const std::vector<KeepTogether> keep = DrawStepText(s, fonts, &guide);
  ImGui::PopClipRect();
  // The Reveal row may share the mark's line where the two fit side by side (a projector's short row).
  const KeepTogether* reveal = nullptr;
  for (const auto& k : keep)
    if (k.kind == KeepTogether::kReveal) reveal = &k;
  float reveal_x1 = 0;
  for (size_t i = first; reveal && i < texts.size(); ++i)
    if (texts[i].y0 >= reveal->top - 0.5f && texts[i].y1 <= reveal->bottom + 0.5f) reveal_x1 = std::max(reveal_x1, texts[i].x1);
  const std::string widest = view::UiFormat(view::Str::text_reveal_next, s.options.lang, {"99", "99"});
  const float mark_w = ImGui::CalcTextSize(widest.c_str()).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetStyle().ItemSpacing.x * 2;
  const bool reveal_beside_mark = reveal && reveal_x1 > 0 && reveal_x1 - at.x + mark_w <= w && reveal->bottom - reveal->top <= h - room_of_page;
  const float reveal_extra = reveal_beside_mark ? h - room_of_page - 1.0f : 0.0f;
  // Where the pages begin: a new page at the first line that does not end inside this one.
  PageBreaks breaks = FindPageBreaks(texts, first, keep, at.y, top, {room_of_page, line, stem_fits, stem_line, reveal_extra});
  std::vector<float>& found = breaks.tops;
  std::vector<char>& found_stem = breaks.stem;
  const auto content_y = [&](float screen_y) { return screen_y - at.y + top; };
  // The pages the open question spans (PageDown shows them before it reveals) and the answer's page
  // (the reveal shows it).
  const auto page_of = [&](float y) {
    int k = 0;
    while (k + 1 < static_cast<int>(found.size()) && found[static_cast<size_t>(k) + 1] <= y + 0.5f) ++k;
    return k;
  };
  s.ui.question_last_page = 0;
  int answer_page = -1, verdict_page = -1;
  for (const auto& k : keep) {
    if (k.kind == KeepTogether::kQuestionBox) s.ui.question_last_page = page_of(content_y(k.bottom) - line);
    if (k.kind == KeepTogether::kAnswer) answer_page = page_of(content_y(k.top));
    if (k.kind == KeepTogether::kVerdict) verdict_page = page_of(content_y(k.top));
  }
  if (found.size() == 1) found = {0.0f}, found_stem = {0};  // it all fits: one page (the mark's line is not needed)
  // Lines outside the page shown are not on screen: drop them from the record (the legibility test
  // reads what the class sees).
  const float shown_to = page + 1 < pages ? bottom : top + h - shift;
  texts.erase(std::remove_if(texts.begin() + static_cast<std::ptrdiff_t>(first), texts.end(),
                             [&](const PaintedText& t) {
                               return t.y1 - at.y + top > shown_to + 0.5f || t.y0 - at.y + top < top - 0.5f;
                             }),
              texts.end());
  if (found != tops || found_stem != stem_pages) {
    tops = found;
    stem_pages = found_stem;
    s.ui.layout_settling = true;
    if (s.ui.text_page >= static_cast<int>(tops.size())) s.ui.text_page = static_cast<int>(tops.size()) - 1;
  } else if (s.ui.text_page < 0) {  // "the last page" is kept until two frames agree on the pages
    s.ui.text_page = static_cast<int>(tops.size()) - 1;
  } else if (s.ui.to_answer_page && (answer_page >= 0 || !s.ui.revealed || StepTextNow(s).answer.empty()) &&
             (verdict_page >= 0 || s.ui.answer_verdict < 0)) {
    // Just revealed: the answer's page; just checked: the verdict's — once this frame drew them (a check
    // that reveals does so in the middle of drawing the box, whose answer then shows a frame later).
    // A right answer (which reveals) shows its "✓ right" with the typed answer or the picked choice: the
    // student who got it sees so (a second walk-through's right answers lost their verdict); the
    // answer is on that page or the one before.
    const bool right = s.ui.answer_verdict == static_cast<int>(view::CheckVerdict::kRight);
    s.ui.text_page = right && verdict_page >= 0 ? verdict_page
                     : answer_page >= 0         ? answer_page
                     : verdict_page >= 0        ? verdict_page
                                                : s.ui.question_last_page;
    s.ui.to_answer_page = false;
    s.ui.layout_settling = true;  // draw that page
  }
  if (tops.size() > 1) {  // "▼ more: PageDown (1/2)" at the pane's foot, a button for the mouse
    // The next PageDown reveals the open question's answer once its last page is shown: the mark says
    // so ("more: PageDown (1/2)" promised a page and brought the answer, a helper). On the last page it
    // says what PageDown does there, the next step, before PageUp ("▲ PageUp (3/3)" alone read as if
    // PageDown went nowhere, a teacher's walk-through); the button does what it names first.
    const bool reveals_next = s.PredictPending() && page >= s.ui.question_last_page;
    const view::Str key = reveals_next ? view::Str::text_reveal_next : page + 1 < pages ? view::Str::text_more : view::Str::text_last_page;
    const std::string mark = view::UiFormat(key, s.options.lang, {std::to_string(page + 1), std::to_string(pages)});
    const float mw = ImGui::CalcTextSize(mark.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    // On the Reveal row where this page shows it (the open question's last row: it shares the mark's line).
    const bool on_reveal_row = reveal_beside_mark && reveal->top >= at.y - 0.5f && reveal->bottom <= at.y + (h - shift) + 0.5f;
    const float mark_y = on_reveal_row ? reveal->top + (reveal->bottom - reveal->top - ImGui::GetFontSize()) * 0.5f : at0.y + h - line;
    ImGui::SetCursorScreenPos(ImVec2(at.x + w - mw - ImGui::GetStyle().ItemSpacing.x, mark_y));
    if (ImGui::SmallButton(mark.c_str())) StepLesson(s, +1);
    SaidItem(mark, TextRole::kHint);
  }
  ImGui::EndChild();
}

}  // namespace

Painted DrawMainWindow(AppState& s, const Fonts& fonts, float arrow_progress, HeatmapRenderer* heatmap, const FillPass& fills) {
  const ImGuiIO& io = ImGui::GetIO();
  // The projector palette reaches the whole window: true white, black text, thick borders.
  ImGuiStyle& style = ImGui::GetStyle();
  const view::Palette pal = s.Palette();
  const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(ToImColor(pal.background));
  style.Colors[ImGuiCol_WindowBg] = s.options.projector ? bg : ImVec4(0.94f, 0.94f, 0.94f, 1.0f);
  if (s.ui.blank) {  // B or '.': a black screen (the clear colour is the window background), nothing drawn
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
    DrawHelp(s);
    return {};
  }
  style.Colors[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
  style.Colors[ImGuiCol_Text] = ImVec4(0, 0, 0, 1);  // black in both palettes
  style.ChildBorderSize = s.options.projector ? 2.0f : 1.0f;
  style.FrameBorderSize = s.options.projector ? 1.0f : 0.0f;
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  ImGui::Begin("Blockwise", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoBringToFrontOnFocus |
                   ImGuiWindowFlags_NoBackground);  // glClear paints it: one full-screen layer less to blend
  Painted painted;
  const TextLog log(&painted.texts, fonts.em_ratio);  // every line of text drawn, with its em (--dump-scene)
  ImGui::PushFont(fonts.chrome);
  DrawTopBar(s, fonts);
  DrawErrorBanner(s);
  ImGui::PopFont();
  // Below the top bar: the layout comes from the window (view::ComputeLayout), never from the font,
  // so larger text never shrinks the diagram; text and panels scroll instead.
  const ImVec2 origin = ImGui::GetCursorPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  if (s.ui.show_library) {  // the start screen: what there is to teach
    DrawLibrary(s, fonts, avail.x, avail.y, fills);
    ImGui::End();
    DrawHelp(s);
    return painted;
  }
  if (s.OnTitleCard() || s.OnEndCard()) {  // between two lessons of a course (or after its last): a card, nothing else
    if (s.OnEndCard()) DrawEndCard(s, fonts, avail.x, avail.y);
    else DrawTitleCard(s, fonts, avail.x, avail.y);
    ImGui::End();
    DrawHelp(s);
    return painted;
  }
  const float display_h = ImGui::GetIO().DisplaySize.y;
  // The side panel's least width: its table's numbers whole at the floor (PanelsLeastWidth).
  const float side_min = PanelsLeastWidth(s, fonts, FloorsFor(s, display_h).text);
  view::Layout L = LayOutMainWindow(s, {avail.x, avail.y, fonts.chrome_px, side_min, display_h});
  const float text_scale = s.DiagramTextScale();
  const auto place = [&](const view::Box& b) { ImGui::SetCursorPos(ImVec2(origin.x + b.x, origin.y + b.y)); };

  place(L.diagram);
  ImGui::BeginChild("diagram", ImVec2(L.diagram.w, L.diagram.h), false,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  float label_px = 0;
  {
    Painted diagram = DrawDiagram(s, fonts, L.diagram.w, L.diagram.h, text_scale, arrow_progress, &label_px, fills);
    diagram.texts = std::move(painted.texts);
    painted = std::move(diagram);
  }
  ImGui::EndChild();
  // The diagram's labels get a font baked at their size: rebuild the atlas when the scale moved by
  // more than a step (~12 %), e.g. after a resize or going fullscreen.
  if (label_px > 0 && std::abs(label_px - s.ui.diagram_px) > s.ui.diagram_px * 0.12f) {
    s.ui.diagram_px = std::min(label_px, 200.0f);
    s.ui.fonts_dirty = true;
  }

  place(L.text);
  // The title stays in view above the text that scrolls (a revealed answer scrolled into view on a
  // projector used to take the title with it); at most half the pane.
  const ImVec2 title_at = ImGui::GetCursorScreenPos();
  ImGui::PushClipRect(title_at, ImVec2(title_at.x + L.text.w, title_at.y + L.text.h * 0.5f), true);
  const float title_h = std::min(L.text.h * 0.5f, DrawStepTitle(s, fonts, L.text.w, L.text.h * 0.5f));
  ImGui::PopClipRect();
  place(L.text);
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + title_h);
  DrawPagedStepText(s, fonts, L.text.w, std::max(1.0f, L.text.h - title_h), painted.texts, painted.text_pane);
  if (L.heatmap.w > 0) {
    place(L.heatmap);
    ImGui::BeginChild("heatmap", ImVec2(L.heatmap.w, L.heatmap.h), false,
                      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
    DrawHeatmap(s, fonts, heatmap, fills);
    ImGui::EndChild();
  }
  if (L.side.w > 0) {
    place(L.side);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    painted.side_pane[0] = at.x, painted.side_pane[1] = at.y, painted.side_pane[2] = at.x + L.side.w, painted.side_pane[3] = at.y + L.side.h;
    // A laptop's panel scrolls (a student has a mouse; MOE/e4's routing table stopped at E6 with no
    // way on); a projector's never does (below).
    ImGui::BeginChild("right", ImVec2(L.side.w, L.side.h), true,
                      s.options.projector ? ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse : ImGuiWindowFlags_None);
    if (s.options.projector) {
      // The projector's panel has no scrollbar: its text shrinks until it fits, to 24 px em at most
      // (the key numbers' 36 then give way too; issue 29). What is still taller is cut, and the
      // legibility test names it.
      // The fit only shrinks while the panel shows the same thing (growing back made wrapped rows
      // flip between one line and two), and starts again at 1 when it shows something else.
      const std::string fit_for = std::to_string(s.ui.course_lesson) + "/" + std::to_string(s.ui.step) + "/" +
                                  std::to_string(s.ui.event) + "/" + s.options.lang + "/" + std::to_string(fonts.text_px) +
                                  (s.ui.revealed ? "/r" : "") + "/" + std::to_string(L.side.w) + "x" + std::to_string(L.side.h);
      // Something new in the panel: its tables size their columns from this frame's contents, so
      // this frame is not shown (main.cpp: a settling frame), only the next.
      const bool fresh = fit_for != s.ui.side_fit_for;
      if (fresh) s.ui.side_fit_for = fit_for, s.ui.side_fit = 1.0f, s.ui.layout_settling = true;
      const float y0 = ImGui::GetCursorPosY();
      const float undo = PanelCtrlUndo(s);   // Ctrl + does not enlarge the panel (panels.h)
      ImGui::SetWindowFontScale(s.ui.side_fit * undo);
      // Rows 52 px high need no 8 px between them: the separators part them.
      ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 2.0f));
      DrawPanels(s, fonts);
      ImGui::PopStyleVar();
      ImGui::SetWindowFontScale(1.0f);
      const float used = ImGui::GetCursorPosY() - y0, room = L.side.h - 2 * ImGui::GetStyle().WindowPadding.y;
      const float floor = std::min(1.0f, view::ProjectorFloors(ImGui::GetIO().DisplaySize.y).text / std::max(1.0f, fonts.Em(fonts.text_px)) / undo);
      float fit = s.ui.side_fit;
      // (Not from the fresh frame's height: a table whose last column wraps is far taller there, before
      // ImGui has its column widths — N49/m1's counters were shrunk to the floor by that one frame.)
      if (!fresh && used > room + 0.5f) fit = std::max(floor, std::min(fit - 0.01f, fit * room / used * 0.995f));
      if (fit < s.ui.side_fit) {
        s.ui.side_fit = fit;
        s.ui.layout_settling = true;
      }
    } else {
      const std::string shown_for = std::to_string(s.ui.course_lesson) + "/" + std::to_string(s.ui.step) + "/" +
                                    std::to_string(s.ui.event) + "/" + s.options.lang + (s.ui.revealed ? "/r" : "");
      if (shown_for != s.ui.side_fit_for) s.ui.side_fit_for = shown_for, s.ui.layout_settling = true;  // (as above)
      DrawPanels(s, fonts);
    }
    // Teacher notes never reach the projected screen: in projector or presenter mode they live in
    // the F5 window only; otherwise folded until opened.
    if (!s.ui.presenter && !s.options.projector) DrawTeacherNotes(s, fonts);
    if (!s.options.projector) DrawEditor(s);
    ImGui::EndChild();
  }
  place(L.timeline);
  ImGui::PushFont(fonts.chrome);
  DrawTimeline(s);
  ImGui::PopFont();
  ImGui::End();
  DrawHelp(s);
  return painted;
}


}  // namespace bw::app
