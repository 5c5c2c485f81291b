// The one "is CJK" rule (issue 35): the app's line wrapping breaks between any two CJK characters
// (app/widgets.cpp), and the tests that hold a zh text to Chinese and an en text to none
// (ui_text_test, lessons_test) ask the same question.
#pragma once

#include <cstddef>
#include <string_view>

namespace bw::view {

// CJK radicals, symbols and punctuation, kana and ideographs (U+2E80–U+9FFF), compatibility
// ideographs (U+F900–U+FAFF) and full-width forms (U+FF00–U+FFEF: "，", "：", "（").
constexpr bool IsCjk(char32_t c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF);
}

// Whether UTF-8 `text` holds a CJK character (every one of them is a three-byte sequence).
constexpr bool HasCjk(std::string_view text) {
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    const auto a = static_cast<unsigned char>(text[i]), b = static_cast<unsigned char>(text[i + 1]),
               c = static_cast<unsigned char>(text[i + 2]);
    if ((a & 0xF0) != 0xE0 || (b & 0xC0) != 0x80 || (c & 0xC0) != 0x80) continue;
    if (IsCjk(static_cast<char32_t>(((a & 0x0Fu) << 12) | ((b & 0x3Fu) << 6) | (c & 0x3Fu)))) return true;
  }
  return false;
}

}  // namespace bw::view
