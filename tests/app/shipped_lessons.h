// Every shipped lesson opened as the app opens it, one AppState each, and every text they can show
// (the glyphs an atlas for them needs): what the off-screen paint tests (geometry, legibility) start from.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../lessons/lesson_files.h"
#include "app/panels.h"
#include "session/app_state.h"

namespace bw::app {

struct ShippedLessons {
  std::vector<AppState> states;
  std::vector<std::string> texts;
};

// Fails the calling test (ADD_FAILURE) for a lesson that does not open.
inline ShippedLessons OpenShippedLessons() {
  ShippedLessons out;
  for (const auto& file : lessons_test::ShippedLessons()) {
    out.states.emplace_back();
    if (!OpenFile(out.states.back(), file.string())) ADD_FAILURE() << file << ": " << out.states.back().ui.error;
    const auto t = ShownTexts(out.states.back());
    out.texts.insert(out.texts.end(), t.begin(), t.end());
  }
  return out;
}

// Calls fn(state, lang, i, step) for every step i of every lesson, in zh and then en, with the state's
// language set (the lesson x language x step walk of the paint tests).
template <class Fn>
void ForEachStep(std::vector<AppState>& lessons, Fn&& fn) {
  for (auto& s : lessons) {
    const auto& L = *s.model.lesson;
    for (const char* lang : {"zh", "en"}) {
      s.options.lang = lang;
      for (int i = 0; i < static_cast<int>(L.lesson.steps.size()); ++i) fn(s, lang, i, L.lesson.steps[static_cast<size_t>(i)]);
    }
  }
}

}  // namespace bw::app
