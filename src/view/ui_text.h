// Fixed user-interface strings in zh and en, named by an enumerator: UiText(Str::hbm_title, lang).
// The rows are in view/ui_strings.inc (name, zh, en); the enum and the text table are both built
// from that one list, so a misspelt name does not compile and a name cannot lack its texts.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bw::view {

enum class Str : int {
#define BW_STR(name, zh, en) name,
#include "view/ui_strings.inc"
#undef BW_STR
};

// How many strings the table holds: Str(0) … Str(kStrCount - 1).
inline constexpr int kStrCount = 0
#define BW_STR(name, zh, en) +1
#include "view/ui_strings.inc"
#undef BW_STR
    ;

// The text of `s` in `lang` ("zh"; anything else is English).
const std::string& UiText(Str s, const std::string& lang);
// The text of `s` with each "{}" replaced by the next of `args` ("第 {} 行" / "row {}").
std::string UiFormat(Str s, const std::string& lang, const std::vector<std::string>& args);
// The enumerator's name ("hbm_title"), for test messages.
const char* StrName(Str s);
// Every UI string in both languages, by iterating the enum (the app builds its font glyph ranges
// from these and the lesson).
std::vector<std::string> AllUiTexts();

}  // namespace bw::view
