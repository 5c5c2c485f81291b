// The UI string table (src/view/ui_strings.inc, issue 17): every Str has a zh and an en text, and
// the zh texts are Chinese by the classroom rule (english_words.h). That every table string has its
// glyphs in the atlas, whatever else is baked, is lessons_glyph_test's (TheAtlasKeepsItsBudget…).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "english_words.h"
#include "view/ui_text.h"

namespace bw::app {
namespace {

using view::Str;

// Whether `t` holds a CJK ideograph or CJK punctuation (U+3000–303F, U+4E00–9FFF, U+FF00–FFEF).
bool HasCjk(const std::string& t) {
  for (size_t i = 0; i + 2 < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if ((c & 0xF0) != 0xE0) continue;
    const unsigned cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(t[i + 1]) & 0x3Fu) << 6) |
                        (static_cast<unsigned char>(t[i + 2]) & 0x3Fu);
    if ((cp >= 0x3000 && cp <= 0x303F) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xFF00 && cp <= 0xFFEF)) return true;
  }
  return false;
}

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

TEST(UiText, FormatsFillTheirPlaceholdersInOrder) {
  EXPECT_EQ(view::UiFormat(Str::num_at_tile, "zh", {"1", "2"}), "分块 (1,2)");
  EXPECT_EQ(view::UiFormat(Str::num_at_tile, "en", {"1", "2"}), "tile (1,2)");
  EXPECT_EQ(view::UiFormat(Str::num_becomes, "en", {"float", "+\u221e"}), "float: becomes +\u221e");
}

}  // namespace
}  // namespace bw::app
