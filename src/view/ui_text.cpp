// The UI string table (see ui_text.h): the texts of every Str, built from view/ui_strings.inc in
// the enum's order.
#include "view/ui_text.h"

#include <array>

namespace bw::view {

namespace {

struct Texts {
  std::string zh, en;
};

struct Row {
  const char* name;
  const char* zh;
  const char* en;
};

constexpr Row kRows[] = {
#define BW_STR(name, zh, en) {#name, zh, en},
#include "view/ui_strings.inc"
#undef BW_STR
};
static_assert(std::size(kRows) == static_cast<std::size_t>(kStrCount), "one row per Str");

const std::array<Texts, kStrCount>& Table() {
  static const auto table = [] {
    std::array<Texts, kStrCount> t;
    for (int i = 0; i < kStrCount; ++i) t[static_cast<std::size_t>(i)] = {kRows[i].zh, kRows[i].en};
    return t;
  }();
  return table;
}

}  // namespace

const std::string& UiText(Str s, const std::string& lang) {
  const auto& t = Table()[static_cast<std::size_t>(s)];
  return lang == "zh" ? t.zh : t.en;
}

std::string UiFormat(Str s, const std::string& lang, const std::vector<std::string>& args) {
  std::string out = UiText(s, lang);
  std::size_t at = 0;
  for (const auto& a : args) {
    at = out.find("{}", at);
    if (at == std::string::npos) break;
    out.replace(at, 2, a);
    at += a.size();
  }
  return out;
}

const char* StrName(Str s) { return kRows[static_cast<int>(s)].name; }

std::vector<std::string> AllUiTexts() {
  std::vector<std::string> out;
  for (int i = 0; i < kStrCount; ++i)
    for (const char* lang : {"zh", "en"}) out.push_back(UiText(static_cast<Str>(i), lang));
  return out;
}

}  // namespace bw::view
