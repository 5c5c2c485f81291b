// The step text's pages as a clicker meets them (DrawPagedStepText, app/main_window.cpp), off screen
// with the app's own drawing: a laptop's page never shows one choice of a question alone, and the last
// page's mark says what PageDown does there (a teacher's walk-through: RC-T3/b0
// on a 1280×720 laptop in English had its choice 3 alone on page 3, whose mark read "▲ PageUp (3/3)"
// though PageDown went on to the next step).
#include <gtest/gtest.h>

#include <imgui.h>

#include <string>
#include <vector>

#include "app/fonts.h"
#include "app/painter.h"
#include "app/panels.h"
#include "session/app_state.h"
#include "session/texts.h"
#include "offscreen_window.h"
#include "shipped_lessons.h"

namespace bw::app {
namespace {

class Pager : public MainWindowSuite {
 protected:
  // The fonts a window `h` rows high bakes at the default size (22), every lesson's state sized for them.
  static Fonts FontsFor(std::vector<AppState>& lessons, const std::vector<std::string>& texts, float h, bool projector) {
    return SizedFonts(lessons, texts, h, 22, projector);
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
    for (auto& s : lessons) {
      const auto& L = *s.model.lesson;
      for (const char* lang : {"zh", "en"}) {
        s.options.lang = lang;
        for (int i = 0; i < static_cast<int>(L.lesson.steps.size()); ++i) {
          const auto& st = L.lesson.steps[static_cast<size_t>(i)];
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
        }
      }
    }
  }
  EXPECT_GT(split_checked, 10);
  EXPECT_GT(last_pages, 5);
}

}  // namespace
}  // namespace bw::app
