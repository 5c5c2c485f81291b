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

}  // namespace bw::app
