// Glyph coverage: every character of every lesson string (filled with the engine's numbers, zh and
// en, prediction prompts included) and of every scenario's on-screen text has a glyph in the font
// atlas the app builds (app::LoadFonts: Noto Sans CJK through fontconfig). A missing glyph shows
// as '?' on the projector; Noto Sans CJK lacks e.g. subscript digits (U+2081) and U+1D40 (ᵀ).
#include <gtest/gtest.h>
#include <imgui.h>

#include <cstdio>

#include "app/fonts.h"
#include "lesson_files.h"
#include "view/lesson_model.h"

namespace bw {
namespace {

struct Shown {
  std::string where, text;
};

std::vector<Shown> AllShownStrings() {
  std::vector<Shown> out;
  for (const auto& t : view::AllUiTexts()) out.push_back({"ui", t});
  for (const auto& path : lessons_test::ShippedLessons()) {
    const auto m = view::LoadLessonModel(path);
    const std::string f = path.filename().string();
    out.push_back({f + " title", m.lesson.title.zh});
    out.push_back({f + " title", m.lesson.title.en});
    for (int i = 0; i < static_cast<int>(m.lesson.steps.size()); ++i) {
      const auto& st = m.lesson.steps[i];
      const auto q = m.ScenarioOf(i).QuantitiesAt(m.EventOf(i));
      std::vector<const data::LocalText*> texts = {&st.title, &st.body, &st.further, &st.teacher_notes, &st.source};
      if (st.predict) texts.push_back(&*st.predict);
      if (st.answer) texts.push_back(&*st.answer);
      for (const auto* t : texts)
        for (const char* lang : {"zh", "en"})
          out.push_back({st.id + " " + lang, m.Fill(t->In(lang), q).text});
    }
    for (const auto& [key, sc] : m.scenarios)
      for (const auto& t : sc->Texts()) out.push_back({f + " scenario " + key, t});
  }
  return out;
}

TEST(GlyphCoverage, EveryLessonCharacterIsInTheFont) {
  ImGui::CreateContext();
  const auto shown = AllShownStrings();
  std::vector<std::string> texts;
  for (const auto& s : shown) texts.push_back(s.text);
  const app::Fonts fonts = app::LoadFonts(24.0f, texts);
  ASSERT_TRUE(fonts.error.empty()) << fonts.error;
  int checked = 0;
  for (const auto& s : shown) {
    const auto missing = app::MissingGlyphs(fonts, s.text);
    for (unsigned c : missing) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "U+%04X", c);
      ADD_FAILURE() << s.where << ": no glyph for " << hex << " in \"" << s.text << "\"";
    }
    ++checked;
  }
  EXPECT_GT(checked, 500);
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace bw
