// Glyph coverage: every character of every lesson string (filled with the engine's numbers, zh and
// en, prediction prompts included) and of every scenario's on-screen text has a glyph in the font
// atlas the app builds (app::LoadFonts: Noto Sans CJK through fontconfig). A missing glyph shows
// as '?' on the projector; Noto Sans CJK lacks e.g. subscript digits (U+2081) and U+1D40 (ᵀ).
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <cstdio>
#include <map>
#include <memory>
#include <set>

#include "app/fonts.h"
#include "lesson_files.h"
#include "view/lesson_model.h"
#include "view/scenario_model.h"
#include "view/ui_text.h"

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
      for (const auto& t : data::StepTexts(st))
        for (const char* lang : {"zh", "en"})
          out.push_back({st.id + t.path + " " + lang, m.Fill(t.text->In(lang), q).text});
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

// A model's Texts() samples its events (attention_model.cpp: one event per label, digits aside):
// every character its event labels and titles and its side panels show at any event, in either
// language, must still be among them or the UI table's (both are baked: app::ShownTexts), for
// every lesson's scenarios and every shipped scenario file.
TEST(GlyphCoverage, ModelTextsHoldEveryEventsCharacters) {
  // Each character with the first string it was seen in (for the failure message).
  const auto chars = [](const std::string& t, std::map<unsigned, std::string>& out) {
    for (const char* s = t.c_str(); *s;) {
      unsigned c = 0;
      const int n = ImTextCharFromUtf8(&c, s, nullptr);
      if (n <= 0) break;
      s += n;
      if (c > 0xFF) out.try_emplace(c, t);  // below: ImGui's default ranges, always baked
    }
  };
  std::vector<std::pair<std::string, std::shared_ptr<const view::ScenarioModel>>> models;
  for (const auto& path : lessons_test::ShippedLessons())
    for (const auto& [key, sc] : view::LoadLessonModel(path).scenarios) models.emplace_back(path.filename().string() + " " + key, sc);
  for (const auto& path : lessons_test::ShippedScenarios()) models.emplace_back(path.filename().string(), view::LoadScenarioModel(path));
  ASSERT_GT(models.size(), 10u);
  for (const auto& [where, m] : models) {
    std::map<unsigned, std::string> listed, shown;
    for (const auto& t : view::AllUiTexts()) chars(t, listed);  // baked beside every model's (app::ShownTexts)
    for (const auto& t : m->Texts()) chars(t, listed);
    for (int e = 0; e < m->EventCount(); ++e) {
      chars(m->EventLabel(e), shown);
      for (const char* lang : {"zh", "en"}) {
        chars(m->EventTitle(e, lang), shown);
        for (const auto& sec : m->Panels(e, lang)) {
          chars(sec.title, shown);
          for (const auto& col : sec.columns) chars(col, shown);
          for (const auto& r : sec.rows) chars(r.name + r.value, shown);
        }
      }
    }
    for (const auto& [c, text] : shown)
      EXPECT_TRUE(listed.count(c)) << where << ": U+" << std::hex << c << " of \"" << text << "\" is shown but not in Texts()";
  }
}

// The atlas budget (app/fonts.h, issue 31). A title of 49,000 distinct characters baked every one at
// six sizes (13 s, 1.1 GB, then black boxes, or ImGui's packer aborting in projector mode); font 96
// in projector mode at 4K asked for 460-px glyphs, past libimgui 1.86's 256 KiB FreeType buffer
// (heap corruption). Now: at most kMaxAtlasGlyphs characters, the rest counted; the UI's strings
// first; no size baked above kMaxBakePx; a prefetch never pushes out a shown character.
TEST(GlyphCoverage, TheAtlasKeepsItsBudgetWhateverTheTextsAndSizes) {
  ImGui::CreateContext();
  std::string huge;
  for (unsigned c = 0x3400; c <= 0x9FFF; ++c) {
    char u[5] = {};
    ImTextCharToUtf8(u, c);
    huge += u;
  }
  std::vector<std::string> texts = view::AllUiTexts();
  texts.push_back(huge);
  const app::Fonts fonts = app::LoadFonts(24.0f, texts, 30.0f, 20.0f);
  ASSERT_TRUE(fonts.error.empty()) << fonts.error;
  EXPECT_LE(fonts.glyph_capacity, app::kMaxAtlasGlyphs);
  EXPECT_GT(fonts.dropped_glyphs, 19000);  // 27,648 asked for, at most 8,000 baked in all
  for (const auto& t : view::AllUiTexts())  // the UI's own strings came first: all baked
    EXPECT_TRUE(app::MissingGlyphs(fonts, t).empty()) << t;
  ImGuiIO& io = ImGui::GetIO();
  EXPECT_LE(static_cast<double>(io.Fonts->TexWidth) * io.Fonts->TexHeight, 4096.0 * 16384.0);

  // Font 96, projector, 4K: the sizes the app asked for then (text 288 px, diagram 300 px).
  const app::Fonts big = app::LoadFonts(288.0f, view::AllUiTexts(), 300.0f, 120.0f);
  ASSERT_NE(big.large, nullptr);
  EXPECT_LE(big.large->FontSize, app::kMaxBakePx);
  EXPECT_EQ(big.body_px, 288.0f) << "the fields keep the sizes asked for (AtlasCovers compares them)";
  EXPECT_LE(static_cast<double>(io.Fonts->TexWidth) * io.Fonts->TexHeight, 4096.0 * 16384.0);

  // A sibling file's 49,000 characters as prefetch: nothing shown is dropped, nothing is reported.
  const std::vector<std::string> prefetch{huge};
  const app::Fonts with = app::LoadFonts(24.0f, view::AllUiTexts(), 30.0f, 20.0f, &prefetch);
  EXPECT_EQ(with.dropped_glyphs, 0);
  for (const auto& t : view::AllUiTexts()) EXPECT_TRUE(app::MissingGlyphs(with, t).empty()) << t;
  ImGui::DestroyContext();
}

}  // namespace
}  // namespace bw
