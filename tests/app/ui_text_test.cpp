// The UI string table (src/view/ui_strings.inc, issue 17): every Str has a zh and an en text, and
// the zh texts are Chinese by the classroom rule (english_words.h). That every table string has its
// glyphs in the atlas, whatever else is baked, is lessons_glyph_test's (TheAtlasKeepsItsBudget…).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "english_words.h"
#include "view/cjk.h"
#include "view/ui_text.h"

namespace bw::app {
namespace {

using view::Str;

using view::HasCjk;  // the rule the app wraps by (view/cjk.h)

std::vector<Str> AllStr() {
  std::vector<Str> out;
  for (int i = 0; i < view::kStrCount; ++i) out.push_back(static_cast<Str>(i));
  return out;
}

TEST(UiText, EveryStringHasBothTexts) {
  ASSERT_GT(view::kStrCount, 300);
  for (Str s : AllStr()) {
    EXPECT_FALSE(view::UiText(s, "zh").empty()) << view::StrName(s);
    EXPECT_FALSE(view::UiText(s, "en").empty()) << view::StrName(s);
  }
  EXPECT_STREQ(view::StrName(Str::hbm_title), "hbm_title");
  EXPECT_EQ(view::UiText(Str::done, "en"), "done");
  EXPECT_EQ(view::UiText(Str::done, "zh"), "已处理");
}

TEST(UiText, ChineseTextsAreChinese) {
  // Besides the classroom's names: key caps, file formats, a vendor, and two words the prose
  // quotes from code (C's float, a logit typed into the editor).
  const std::set<std::string> also = {"Shift", "Ctrl", "Esc", "Enter", "Tab", "Backspace", "PageUp", "PageDown", "Home", "End",
                                      "NVIDIA", "PNG", "CSV", "JSON", "float", "logit"};
  // The language switch names the other language; "token" is said as it is.
  const std::set<Str> names_english = {Str::lang_switch, Str::key_l};
  const std::set<Str> no_cjk = {Str::lang_switch, Str::het_token, Str::moe_token, Str::evp_token};
  for (Str s : AllStr()) {
    const std::string& zh = view::UiText(s, "zh");
    if (!no_cjk.count(s)) {
      EXPECT_TRUE(HasCjk(zh)) << view::StrName(s) << ": \"" << zh << "\"";
    }
    if (names_english.count(s)) continue;
    for (const auto& w : EnglishWords(zh, also)) ADD_FAILURE() << view::StrName(s) << ": \"" << w << "\" in \"" << zh << "\"";
  }
}

// The one CJK rule (view/cjk.h) at its edges: what the zh texts must hold and the en texts must not.
TEST(UiText, TheCjkRuleTakesItsRangesAndNothingElse) {
  EXPECT_FALSE(view::IsCjk(0x2E7F));
  EXPECT_TRUE(view::IsCjk(0x2E80));   // CJK radicals
  EXPECT_TRUE(view::IsCjk(0x3002));   // 。
  EXPECT_TRUE(view::IsCjk(0x9FFF));
  EXPECT_FALSE(view::IsCjk(0xA000));
  EXPECT_FALSE(view::IsCjk(0xF8FF));
  EXPECT_TRUE(view::IsCjk(0xF900));   // compatibility ideographs
  EXPECT_TRUE(view::IsCjk(0xFAFF));
  EXPECT_FALSE(view::IsCjk(0xFB00));
  EXPECT_TRUE(view::IsCjk(0xFF0C));   // ，
  EXPECT_FALSE(view::IsCjk(0xFFF0));
  EXPECT_TRUE(HasCjk("tile \u5206\u5757"));        // 分块
  EXPECT_TRUE(HasCjk("(1\uff0c2)"));                // a full-width comma alone
  EXPECT_FALSE(HasCjk("tile (1,2) \u2248 0.4 \u00d7 m\u2081"));  // ≈ × ₁: not CJK
  EXPECT_FALSE(HasCjk("\xe5\x88"));                // a cut sequence is no character
}

TEST(UiText, FormatsFillTheirPlaceholdersInOrder) {
  EXPECT_EQ(view::UiFormat(Str::num_at_tile, "zh", {"1", "2"}), "分块 (1,2)");
  EXPECT_EQ(view::UiFormat(Str::num_at_tile, "en", {"1", "2"}), "tile (1,2)");
  EXPECT_EQ(view::UiFormat(Str::num_becomes, "en", {"float", "+\u221e"}), "float: becomes +\u221e");
}

}  // namespace
}  // namespace bw::app
