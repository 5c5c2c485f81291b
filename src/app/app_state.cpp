// AppState actions; see app_state.h.
#include "app/app_state.h"
#include "app/replay_clock.h"

#include <algorithm>

#include "data/json_file.h"
#include "view/document.h"

namespace bw::app {

namespace {

// A new step is shown: its question is open (unless the class has seen its answer already: going
// back to a revealed step shows the answer again) and nothing is typed.
void NewStep(AppState& s) {
  if (LessonStatus(s)) s.ui.status.clear();
  s.ui.revealed = s.ui.revealed_steps.count(s.ui.step) > 0;
  s.ui.answer_typed.fill('\0');
  s.ui.answer_choice = 0;
  s.ui.answer_verdict = -1;
  s.ui.answer_mistake = -1;
}

}  // namespace

std::optional<view::Str> LessonStatus(const AppState& s) {
  for (const view::Str k : {view::Str::lesson_end, view::Str::play_question_open})
    for (const char* lang : {"zh", "en"})
      if (s.ui.status == view::UiText(k, lang)) return k;
  return std::nullopt;
}

void SetEvent(AppState& s, int event) {
  const auto* cur = s.Current();
  if (!cur) return;
  s.ui.event = std::clamp(event, 0, cur->EventCount() - 1);
  if (s.InLesson()) {
    const int owner = s.model.lesson->OwnerStep(s.ui.step, s.ui.event);
    if (owner != s.ui.step) {
      s.ui.step = owner;
      NewStep(s);
    }
  }
}

void GoToStep(AppState& s, int step) {
  if (!s.InLesson()) return;
  s.ui.step = std::clamp(step, 0, static_cast<int>(s.model.lesson->lesson.steps.size()) - 1);
  s.ui.event = s.model.lesson->EventOf(s.ui.step);
  NewStep(s);
}

void StepLesson(AppState& s, int delta) {
  if (!s.InLesson()) return StepEvent(s, delta);
  s.ui.playing = false;
  if (delta > 0 && s.PredictPending()) return Reveal(s);
  const int last = static_cast<int>(s.model.lesson->lesson.steps.size()) - 1;
  if (delta > 0 && s.ui.step == last) {  // the clicker at the end: say so instead of doing nothing
    s.ui.status = view::UiText(view::Str::lesson_end, s.options.lang);
    return;
  }
  GoToStep(s, s.ui.step + delta);
}

void Reveal(AppState& s) {
  if (s.CurrentStep() && s.CurrentStep()->predict && !s.ui.revealed) {
    s.ui.revealed = s.ui.scroll_to_answer = true;
    s.ui.revealed_steps.insert(s.ui.step);
    // "Not right yet: think again (or ask for the reveal)" is stale once the answer is shown.
    if (s.ui.answer_verdict != static_cast<int>(view::CheckVerdict::kRight)) s.ui.answer_verdict = s.ui.answer_mistake = -1;
  }
  if (s.ui.status == view::UiText(view::Str::play_question_open, s.options.lang)) s.ui.status.clear();
}

void CheckTypedAnswer(AppState& s) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check || st->check->number.empty()) return;
  const int e = s.model.lesson->EventOf(s.ui.step);  // the step's own event: where the lesson checked it exists
  const auto expected = s.model.lesson->ScenarioOf(s.ui.step).NumberAt(e, st->check->number);
  if (!expected) return;
  const std::string typed(s.ui.answer_typed.data());
  const auto v = view::CheckTypedNumber(typed, *expected);
  s.ui.answer_verdict = static_cast<int>(v);
  s.ui.answer_mistake = -1;
  // A known wrong answer (the plain mean 65/3 for 160/7) is named, by the same rule as the right one.
  if (v == view::CheckVerdict::kWrong)
    for (size_t k = 0; k < st->check->mistakes.size() && s.ui.answer_mistake < 0; ++k)
      if (const auto m = s.model.lesson->ScenarioOf(s.ui.step).NumberAt(e, st->check->mistakes[k].number);
          m && view::CheckTypedNumber(typed, *m) == view::CheckVerdict::kRight)
        s.ui.answer_mistake = static_cast<int>(k);
  if (v == view::CheckVerdict::kRight) Reveal(s);
}

std::string MistakeHint(const AppState& s) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check || s.ui.answer_mistake < 0 || s.ui.answer_mistake >= static_cast<int>(st->check->mistakes.size())) return "";
  const auto& L = *s.model.lesson;
  const int e = L.EventOf(s.ui.step);   // filled where it was checked: the step's own event
  const auto& tmpl = st->check->mistakes[static_cast<size_t>(s.ui.answer_mistake)].hint.In(s.options.lang);
  return L.Fill(tmpl, s.ui.event == e ? s.frame.Quantities(s) : L.ScenarioOf(s.ui.step).QuantitiesAt(e)).text;
}

void CheckChoice(AppState& s, int choice) {
  const auto* st = s.CurrentStep();
  if (!st || !st->check || st->check->choices.empty()) return;
  if (choice < 1 || choice > static_cast<int>(st->check->choices.size())) return;
  s.ui.answer_choice = choice;
  const bool right = choice == st->check->correct;
  s.ui.answer_verdict = static_cast<int>(right ? view::CheckVerdict::kRight : view::CheckVerdict::kWrong);
  if (right) Reveal(s);
}

void TogglePlay(AppState& s) {
  if (TimelineScrubsGpu(s)) return ToggleGpuReplay(s);  // Space plays what the timeline shows
  const auto* cur = s.Current();
  if (!cur) return;
  if (s.ui.playing) {
    s.ui.playing = false;
    return;
  }
  if (s.ui.event + 1 >= cur->EventCount()) {
    if (!s.InLesson()) return SetEvent(s, 0);
    GoToStep(s, s.ui.step);
  }
  s.ui.playing = true;
}

bool PlayTick(AppState& s) {
  const auto* cur = s.Current();
  if (!cur || s.ui.event + 1 >= cur->EventCount()) {
    s.ui.playing = false;
    return false;
  }
  const int step = s.ui.step;
  // A question still open stays on screen: playing stops at the step's last event instead of
  // carrying the class into the next step before the answer was shown (PageDown or R reveals it).
  if (s.PredictPending() && s.model.lesson->OwnerStep(step, s.ui.event + 1) != step) {
    s.ui.playing = false;
    s.ui.status = view::UiText(view::Str::play_question_open, s.options.lang);
    return false;
  }
  // Playing never jumps over steps: the next event may belong to a step further on in the lesson
  // (steps bound to this scenario elsewhere, LessonModel::OwnerStep); then it stops here, and
  // PageDown goes on in the lesson's order (Space on MASK/k4 ran into k6, past k5, a review found).
  if (const int next = s.InLesson() ? s.model.lesson->OwnerStep(step, s.ui.event + 1) : step; next != step && next != step + 1) {
    s.ui.playing = false;
    return false;
  }
  SetEvent(s, s.ui.event + 1);
  if (s.ui.step != step || s.ui.event + 1 >= cur->EventCount()) s.ui.playing = false;
  return true;
}

void StepEvent(AppState& s, int delta) { SetEvent(s, s.ui.event + delta); }

void StepBlock(AppState& s, int delta) {
  const auto* cur = s.Current();
  if (!cur) return;
  const auto marks = cur->BlockMarks();
  if (delta > 0) {
    for (const auto& m : marks)
      if (m.event > s.ui.event) return SetEvent(s, m.event);
    SetEvent(s, cur->EventCount() - 1);
  } else {
    for (auto it = marks.rbegin(); it != marks.rend(); ++it)
      if (it->event < s.ui.event) return SetEvent(s, it->event);
    SetEvent(s, 0);
  }
}

namespace {

std::filesystem::file_time_type MTime(const std::string& path) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(path, ec);
  return ec ? std::filesystem::file_time_type::min() : t;
}

void Watch(AppState& s, const std::string& path) {
  s.ui.opened_path = path;
  s.ui.watched.clear();
  s.ui.watched.emplace_back(path, MTime(path));
  if (s.model.lesson && !s.model.standalone)
    for (const auto& [key, ref] : s.model.lesson->lesson.scenarios) s.ui.watched.emplace_back(ref.path.string(), MTime(ref.path.string()));
}

}  // namespace

bool ReloadIfChanged(AppState& s) {
  bool changed = false;
  for (auto& [path, mtime] : s.ui.watched) {
    const auto now = MTime(path);
    if (now != mtime) {
      changed = true;
      mtime = now;  // a file that fails to load is not retried until it changes again
    }
  }
  if (!changed) return false;
  const int step = s.ui.step, event = s.ui.event;
  auto watched = s.ui.watched;
  if (OpenFile(s, s.ui.opened_path)) {
    if (s.InLesson()) GoToStep(s, step);
    SetEvent(s, event);
    s.ui.status = "reloaded " + s.ui.opened_path;
  } else {
    s.ui.watched = watched;  // keep watching the file that failed, with its new time
  }
  return true;
}

bool OpenFile(AppState& s, const std::string& path) {
  try {
    view::OpenedDocument doc = view::OpenDocument(path);
    if (doc.lesson) {
      s.model.standalone.reset();
      s.model.lesson = std::move(*doc.lesson);
      s.ui.revealed_steps.clear();
      GoToStep(s, 0);
    } else {
      s.model.standalone = std::move(doc.scenario);
      s.ui.event = 0;
    }
    s.ui.playing = false;
    s.ui.error.clear();
    Watch(s, path);
    // Recent files are absolute (and normal), so they open from any working folder.
    std::error_code ec;
    const std::string full = std::filesystem::absolute(path, ec).lexically_normal().string();
    auto& recent = s.options.recent;
    recent.erase(std::remove(recent.begin(), recent.end(), full), recent.end());
    recent.insert(recent.begin(), full);
    if (recent.size() > kMaxRecent) recent.resize(kMaxRecent);
    s.ui.settings_dirty = true;
    s.ui.fonts_dirty = true;  // new strings may need new glyphs
    return true;
  } catch (const data::LoadError& e) {
    s.ui.error = e.what();
  } catch (const std::exception& e) {  // an engine refusal (ValidationError) or allocation failure
    s.ui.error = path + ": (document): " + e.what();
  }
  s.ui.fonts_dirty = true;  // the error line may name a path with new characters
  return false;
}

void ScaleFont(AppState& s, float factor) {
  s.options.font_px = std::clamp(s.options.font_px * factor, 10.0f, 96.0f);
  s.ui.fonts_dirty = true;
  s.ui.settings_dirty = true;
}

}  // namespace bw::app
