// See texts.h.
#include "session/texts.h"

#include "view/lesson_text.h"
#include "view/scenario_model.h"

namespace bw::app {

const std::string& T(const AppState& s, view::Str key) { return view::UiText(key, s.options.lang); }

std::string Fill(const AppState& s, const std::string& tmpl) {
  const auto* cur = s.Current();
  if (!cur) return tmpl;
  // No placeholder, no quantities: a file of 65,536 blocks formats none of its numbers for the keys hint.
  if (tmpl.find_first_of("{}") == std::string::npos) return tmpl;
  // In a lesson, {KEY/NAME} may quote another of its scenarios (LessonModel::Fill).
  if (s.InLesson()) return s.model.lesson->Fill(tmpl, s.frame.Quantities(s)).text;
  return view::FillPlaceholders(tmpl, s.frame.Quantities(s)).text;
}

}  // namespace bw::app
