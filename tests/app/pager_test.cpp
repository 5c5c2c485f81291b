// The step text's pages as a clicker meets them (DrawPagedStepText, app/main_window.cpp), off screen
// with the app's own drawing: a laptop's page never shows one choice of a question alone, and the last
// page's mark says what PageDown does there (a teacher's walk-through: RC-T3/b0
// on a 1280×720 laptop in English had its choice 3 alone on page 3, whose mark read "▲ PageUp (3/3)"
// though PageDown went on to the next step).
#include <gtest/gtest.h>

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "app/fonts.h"
#include "app/painter.h"
#include "app/panels.h"
#include "session/app_state.h"
#include "session/texts.h"
#include "offscreen_window.h"
#include "shipped_lessons.h"
#include "view/lesson_text.h"

namespace bw::app {
namespace {

class Pager : public MainWindowSuite {
 protected:
  // The fonts a window `h` rows high bakes at the default size (22), every lesson's state sized for them.
  static Fonts FontsFor(std::vector<AppState>& lessons, const std::vector<std::string>& texts, float h, bool projector) {
    return SizedFonts(lessons, texts, h, 22, projector);
  }

  static std::string PageTextY(const Painted& p) {
    std::string page;
    for (const auto& t : p.texts)
      if (t.region == "text") page += std::to_string(static_cast<int>(t.y0)) + "-" + std::to_string(static_cast<int>(t.y1)) + " " + t.text + "\n";
    return page;
  }
  static std::string PageText(const Painted& p) {
    std::string page;
    for (const auto& t : p.texts)
      if (t.region == "text") page += t.text + "\n";
    return page;
  }
};

TEST_F(Pager, ChoicesStayTogetherAndTheLastPageSaysWhatPageDownDoes) {
  struct Size {
    float w, h;
    bool projector;
  };
  int split_checked = 0, last_pages = 0;
  for (const Size z : {Size{1280, 720, false}, Size{1920, 1080, true}}) {
    auto [lessons, texts] = OpenShippedLessons();
    const Fonts fonts = FontsFor(lessons, texts, z.h, z.projector);
    ForEachStep(lessons, [&](AppState& s, const char* lang, int i, const auto& st) {
      s.ui.revealed_steps.clear();
      GoToStep(s, i);
      const std::string where = st.id + " " + lang + " " + std::to_string(static_cast<int>(z.w)) + "x" + std::to_string(static_cast<int>(z.h));
      // PageDown through the step: each page's text, to its last.
      // (It stops on the step's last page: PageDown there leaves the step, or the lesson.)
      for (int presses = 0; presses < 16 && s.ui.step == i; ++presses) {
        const Painted p = Frame(s, fonts, z.w, z.h);
        const std::string page = PageText(p);
        const int pages = static_cast<int>(s.ui.text_page_top.size());
        const int at = s.ui.text_page < 0 || s.ui.text_page >= pages ? pages - 1 : s.ui.text_page;
        // An open question's three choices or fewer: never one alone on a page (RC-T3/b0's choice 3
        // was). (Four do not always fit a laptop's pane under their question: DEC/d2's go two and two
        // in en, but three and one in zh, which this test does not yet hold.)
        // (A laptop's pane: a projector's holds the question and a choice or two a page, N23/c1's.)
        if (!z.projector && s.PredictPending() && st.check && !st.check->choices.empty() && st.check->choices.size() <= 3) {
          int here = 0;
          for (size_t k = 0; k < st.check->choices.size(); ++k)   // each a line of its own: "2. No: …"
            here += page.find(std::to_string(k + 1) + ". " + st.check->choices[k].In(lang).substr(0, 6)) != std::string::npos;
          if (here > 0) {
            ++split_checked;
            EXPECT_NE(here, 1) << where << " page " << at + 1 << "/" << pages << ": one choice alone on a page:\n" << page;
          }
        }
        // The last of several pages, the question answered: its mark names PageDown first.
        if (pages > 1 && at == pages - 1 && !s.PredictPending()) {
          ++last_pages;
          std::string mark;
          for (const auto& t : p.texts)
            if (t.region == "text" && t.role == PaintedText::Role::kHint && t.text.find("PageUp") != std::string::npos) mark = t.text;
          EXPECT_EQ(mark.find("\u25bc PageDown"), 0u) << where << ": the last page's mark is \"" << mark << "\"";
        }
        if (!s.PredictPending() && at == pages - 1) break;
        StepLesson(s, +1);
      }
    });
  }
  EXPECT_GT(split_checked, 10);
  EXPECT_GT(last_pages, 5);
}


// A formula, or a number with its unit, is never broken across lines (a teacher's walk-through saw
// "8 (6.1 | %)", "4 · 8 | · 2" and "40/3 ≈ | 13.33"); a page may end after a sentence inside a line.
TEST(PagerText, FormulasAndUnitsStayOnOneLine) {
  const auto may = [](const std::string& t, const std::string& before) { return view::MayBreakAtSpace(t, before.size()); };
  EXPECT_FALSE(may("8 (6.1 %)", "8 (6.1"));
  EXPECT_FALSE(may("need 4 \u00b7 8 \u00b7 2 numbers", "need 4 \u00b7 8"));
  EXPECT_FALSE(may("need 4 \u00b7 8 \u00b7 2 numbers", "need 4"));
  EXPECT_FALSE(may("O = 40/3 \u2248 13.33", "O = 40/3 \u2248"));
  EXPECT_FALSE(may("O = 40/3 \u2248 13.33", "O"));
  EXPECT_FALSE(may("moves 3.35 TB/s", "moves 3.35"));
  EXPECT_FALSE(may("inputs (6 positions, (2, 2, 2) per block)", "inputs (6 positions, (2,"));
  EXPECT_TRUE(may("8 queries, 8 keys", "8 queries,"));
  EXPECT_TRUE(may("M = 32 numbers", "M = 32"));
  EXPECT_TRUE(may("one row \u2014 not all", "one row"));
  EXPECT_TRUE(may("(6 positions, (2, 2, 2) per", "(6 positions,"));
  EXPECT_EQ(view::LastSentenceEnd("per second. Fourth, memory"), std::string("per second.").size());
  EXPECT_EQ(view::LastSentenceEnd("as in e.g. this one"), std::string_view::npos);
  EXPECT_EQ(view::LastSentenceEnd("a = 0.5 and b"), std::string_view::npos);
  EXPECT_EQ(view::LastSentenceEnd("\u4e0d\u80fd\u3002\u6240\u4ee5"), std::string("\u4e0d\u80fd\u3002").size());
}

// The pages of N23/c1 and RC-T3/b0, b1 as the teacher's clicker meets them, in zh and en, on a 1080p
// projector and a 1280×720 laptop, to the reveal and on to the next step: each page's text lines.
struct WalkedPage {
  std::string id, lang, where, text;
  bool open, last;
  std::vector<std::pair<std::string, float>> lines;   // the text's lines, and their tops' share of the pane's height
};
std::vector<WalkedPage> WalkPages(std::vector<AppState>& lessons, const Fonts& fonts, float w, float h,
                                  const std::vector<std::string>& ids, Painted (*frame)(AppState&, const Fonts&, float, float)) {
  std::vector<WalkedPage> out;
  for (auto& s : lessons)
    for (const char* lang : {"zh", "en"}) {
      s.options.lang = lang;
      const auto& steps = s.model.lesson->lesson.steps;
      for (int i = 0; i < static_cast<int>(steps.size()); ++i) {
        if (!ids.empty() && std::find(ids.begin(), ids.end(), steps[static_cast<size_t>(i)].id) == ids.end()) continue;
        s.ui.revealed_steps.clear();
        GoToStep(s, i);
        for (int presses = 0; presses < 16 && s.ui.step == i; ++presses) {
          const Painted p = frame(s, fonts, w, h);
          const int pages = static_cast<int>(s.ui.text_page_top.size());
          const int at = s.ui.text_page < 0 || s.ui.text_page >= pages ? pages - 1 : s.ui.text_page;
          WalkedPage page{steps[static_cast<size_t>(i)].id, lang, "", "", s.PredictPending(), at == pages - 1, {}};
          page.where = page.id + " " + lang + " " + std::to_string(static_cast<int>(w)) + "x" + std::to_string(static_cast<int>(h)) + " page " +
                       std::to_string(at + 1) + "/" + std::to_string(pages) + (page.open ? "" : " (revealed)");
          for (const auto& t : p.texts)
            if (t.region == "text" && t.role != PaintedText::Role::kHint) {
              page.text += t.text + "\n";
              page.lines.emplace_back(t.text, (t.y0 - p.text_pane[1]) / (p.text_pane[3] - p.text_pane[1]));
            } else if (t.region == "text" && t.text.rfind("\u25bc", 0) != 0 && t.text.rfind("\u25b2", 0) != 0) {
              page.text += "[" + t.text + "]\n";   // the Reveal row (not the page's mark)
            }
          out.push_back(page);
          if (!s.PredictPending() && at == pages - 1) break;
          StepLesson(s, +1);
        }
      }
    }
  return out;
}

// N23/c1 in en on a 1080p projector put each of its three choices on a page of its own, and RC-T3/b0
// and b1 the Reveal row on a page without the choices (a teacher's walk-through): the page that offers
// the reveal shows every choice and the question ("? …", its own line or the repeated one). (On a
// 1280×720 laptop in English the Reveal row, with its key hint too wide to sit beside the page's mark,
// still goes to a page after the choices, under the repeated question: not yet held here.)
TEST_F(Pager, TheRevealsPageShowsTheQuestionAndEveryChoice) {
  struct Size { float w, h; bool projector; };
  int checked = 0;
  for (const Size z : {Size{1920, 1080, true}}) {
    auto [lessons, texts] = OpenShippedLessons();
    const Fonts fonts = FontsFor(lessons, texts, z.h, z.projector);
    for (const auto& page : WalkPages(lessons, fonts, z.w, z.h, {"N23/c1", "RC-T3/b0", "RC-T3/b1"}, &Frame)) {
      if (!page.open || page.text.find("[") == std::string::npos) continue;   // the page with the Reveal row
      ++checked;
      EXPECT_TRUE(page.text.rfind("? ", 0) == 0 || page.text.find("\n? ") != std::string::npos) << page.where << ": no question\n" << page.text;
      for (int k = 1; k <= 3; ++k)
        EXPECT_NE(page.text.find(std::to_string(k) + ". "), std::string::npos) << page.where << ": choice " << k << " is not beside Reveal\n" << page.text;
    }
  }
  EXPECT_EQ(checked, 6);   // 3 steps × 2 languages
}

// A page followed by another ends at a sentence where a sentence ends in its lower half (English pages
// broke mid-sentence, "… per second. Fourth, memory | bandwidth …", a teacher's walk-through).
TEST_F(Pager, NoPageEndsMidSentenceWhereASentenceEndsOnIt) {
  const auto ends_sentence = [](std::string l) {
    while (!l.empty() && l.back() == ' ') l.pop_back();
    if (l.empty()) return true;
    for (const char* e : {";", ":", "\uff1b", "\uff1a"})
      if (l.size() >= std::strlen(e) && l.compare(l.size() - std::strlen(e), std::strlen(e), e) == 0) return true;
    return view::LastSentenceEnd(l + " x") == l.size();
  };
  int checked = 0;
  auto [lessons, texts] = OpenShippedLessons();
  const Fonts fonts = FontsFor(lessons, texts, 1080, true);
  for (const auto& page : WalkPages(lessons, fonts, 1920, 1080, {"N23/c1", "RC-T3/b0", "RC-T3/b1"}, &Frame)) {
    if (page.last || page.lines.empty() || page.text.find("\n[") != std::string::npos || ends_sentence(page.lines.back().first)) continue;
    ++checked;
    bool inside = false;   // a sentence ends in the page's lower half
    for (const auto& [line, at] : page.lines)
      inside |= at >= 0.5f && (ends_sentence(line) || view::LastSentenceEnd(line) != std::string_view::npos);
    EXPECT_FALSE(inside) << page.where << ": ends mid-sentence, though a sentence ends on it\n" << page.text;
  }
  EXPECT_GT(checked, 0);
}

// BW_PAGER_DUMP=1: every page of N23/c1, RC-T3/b0 and b1 (zh, en; laptop and projector), for a look.
TEST_F(Pager, DumpPages) {
  if (!std::getenv("BW_PAGER_DUMP")) GTEST_SKIP();
  struct Size { float w, h; bool projector; };
  for (const Size z : {Size{1280, 720, false}, Size{1920, 1080, true}}) {
    auto [lessons, texts] = OpenShippedLessons();
    const Fonts fonts = SizedFonts(lessons, texts, z.h, std::getenv("BW_PAGER_FONT") ? std::stof(std::getenv("BW_PAGER_FONT")) : 22.0f, z.projector);
    ForEachStep(lessons, [&](AppState& s, const char* lang, int i, const auto& st) {
      if (std::getenv("BW_PAGER_STEP") ? st.id != std::getenv("BW_PAGER_STEP") : (!std::getenv("BW_PAGER_ALL") && st.id != "N23/c1" && st.id != "RC-T3/b0" && st.id != "RC-T3/b1")) return;
      s.ui.revealed_steps.clear();
      GoToStep(s, i);
      for (int presses = 0; presses < 16 && s.ui.step == i; ++presses) {
        const Painted p = Frame(s, fonts, z.w, z.h);
        const int pages = static_cast<int>(s.ui.text_page_top.size());
        const int at = s.ui.text_page < 0 || s.ui.text_page >= pages ? pages - 1 : s.ui.text_page;
        std::printf("==== %s %s %dx%d page %d/%d%s\n%s", st.id.c_str(), lang, static_cast<int>(z.w), static_cast<int>(z.h), at + 1, pages,
                    s.PredictPending() ? "" : " (revealed)", std::getenv("BW_PAGER_DUMP_Y") ? PageTextY(p).c_str() : PageText(p).c_str());
        if (!s.PredictPending() && at == pages - 1) break;
        StepLesson(s, +1);
      }
    });
  }
}

}  // namespace
}  // namespace bw::app
