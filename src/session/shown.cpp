// See shown.h.
#include "session/shown.h"
#include "view/gpu_text.h"
#include "view/ui_text.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "session/answer_check.h"
#include "session/texts.h"
#include "view/lesson_model.h"
#include "view/scenario_model.h"
#include "view/single_query_model.h"

namespace bw::app {

ShownStep StepTextNow(const AppState& s) {
  ShownStep out;
  const auto* st = s.CurrentStep();
  const auto& lang = s.options.lang;
  if (!st) {
    if (const auto* cur = s.Current()) {
      out.title = cur->Title().In(lang);
      out.body = T(s, view::Str::keys_hint);
    }
    return out;
  }
  out.title = Fill(s, st->title.In(lang));
  out.body = Fill(s, st->body.In(lang));
  if (st->predict) out.predict = Fill(s, st->predict->In(lang));
  if (s.PredictPending()) {
    out.reveal = T(s, view::Str::reveal_hint);
  } else {
    out.further = Fill(s, st->further.In(lang));
    if (st->answer) out.answer = Fill(s, st->answer->In(lang));
  }
  return out;
}

std::vector<view::PanelSection> PanelsNow(const AppState& s) {
  const auto* cur = s.Current();
  if (!cur) return {};
  auto sections = s.frame.Panels(s);   // a copy: answers and the projector's choice edit it
  // The step's "conceal": sections that would give the open question's answer away are left out —
  // on a projector, where the step's own panel is the one shown, that panel stays in its place
  // emptied, its title over one "? (predict first)" row, as a concealed diagram box does: in its
  // place the first other section came up (N23/c1's conceals its "run" panel, and the projector
  // showed Q_1's m, l, u table, whose rows count B_r, the answer).
  std::optional<view::PanelSection> emptied;
  if (const auto* st = s.CurrentStep(); st && s.PredictPending()) {
    const auto concealed = [&](const view::PanelSection& sec) {
      return std::find(st->conceal.begin(), st->conceal.end(), sec.id) != st->conceal.end();
    };
    if (s.options.projector && !st->panel.empty())
      for (const auto& sec : sections)
        if (sec.id == st->panel && concealed(sec)) {
          emptied = view::PanelSection{};
          emptied->id = sec.id;
          emptied->title = sec.title;
          emptied->rows.push_back({"", T(s, view::Str::hidden_answer)});
        }
    std::erase_if(sections, concealed);
  }
  if (emptied) return {*emptied};
  if (s.PredictPending())
    for (auto& sec : sections) {
      std::erase_if(sec.rows, [](const view::PanelRow& r) { return r.name_answers; });
      for (auto& r : sec.rows)
        if (r.answer) {
          r.value = T(s, view::Str::hidden_answer);
          r.warning = false;
          r.bar = -1;
        }
    }
  if (s.options.projector && !sections.empty()) {
    const auto* st = s.CurrentStep();
    size_t keep = 0;
    if (st && !st->panel.empty())
      for (size_t i = 0; i < sections.size(); ++i)
        if (sections[i].id == st->panel) keep = i;
    sections = {sections[keep]};
  }
  return sections;
}

view::Scene SceneNow(const AppState& s) {
  const auto* cur = s.Current();
  if (!cur) return {};
  view::Scene scene = s.frame.Scene(s);   // a copy: DropAnswers edits it
  DropAnswers(scene, s);
  MarkQuotedNumbers(scene, s);
  return scene;
}

std::string StepSaysNow(const AppState& s) {
  const auto* st = s.CurrentStep();
  if (!st) return "";
  const std::string& lang = s.options.lang;
  std::string said = Fill(s, st->body.In(lang));
  if (st->predict) said += "\n" + Fill(s, st->predict->In(lang));
  if (st->answer && s.ui.revealed) said += "\n" + Fill(s, st->answer->In(lang));
  return said;
}

bool QuotesANumberOf(const std::string& said, const std::string& text) {
  if (said.empty()) return false;
  // Each run of digits with the '.', '/' and ',' between them ("1/3", "0.3333", "1,600,000,000").
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 0; i < text.size();) {
    if (!digit(text[i])) {
      ++i;
      continue;
    }
    size_t j = i, digits = 0;
    while (j < text.size() && (digit(text[j]) || ((text[j] == '.' || text[j] == '/' || text[j] == ',') && j + 1 < text.size() && digit(text[j + 1]))))
      digits += digit(text[j++]) ? 1 : 0;
    if (digits >= 2) {
      const std::string number = text.substr(i, j - i);
      // Quoted whole: not a part of a longer number ("28" in "288").
      for (size_t at = said.find(number); at != std::string::npos; at = said.find(number, at + 1)) {
        const size_t end = at + number.size();
        if ((at == 0 || !digit(said[at - 1])) && (end >= said.size() || !digit(said[end]))) return true;
      }
    }
    i = j;
  }
  return false;
}

void MarkQuotedNumbers(view::Scene& scene, const AppState& s) {
  if (!s.options.projector || !s.CurrentStep()) return;
  const std::string said = StepSaysNow(s);
  // (Not the merge strip's lines: the strip sizes and spaces its own lines for the key size where they
  // fit, and an m′ line grown here ran 14 px into the l′ line under it: issue 29's walk-through.)
  for (auto& t : scene.texts)
    if (!t.key && t.id.rfind("strip.", 0) != 0 && QuotesANumberOf(said, t.text)) t.key = true;
}

void DropAnswers(view::Scene& scene, const AppState& s) {
  if (!s.PredictPending()) return;
  std::erase_if(scene.rects, [](const view::SceneRect& r) { return r.answer; });
  // The merge strip under the diagram, where the step's "conceal" names it (view::kConcealStrip), says
  // where it went: one muted line in place of its first line (a blank band there read as a missing
  // picture). Not named, it stays: a question about something else keeps its picture (issue 32).
  const bool strip_hidden = ConcealedNow(s, view::kConcealStrip);
  const auto is_strip = [](const view::SceneText& t) { return t.id.rfind("strip.", 0) == 0; };
  const auto strip = std::find_if(scene.texts.begin(), scene.texts.end(), is_strip);
  std::optional<view::SceneText> placeholder;
  if (strip_hidden && strip != scene.texts.end())
    placeholder = view::SceneText{"strip.hidden", strip->x, strip->y, strip->size_em, s.Palette().text_muted, T(s, view::Str::hidden_merge)};
  std::erase_if(scene.texts, [&](const view::SceneText& t) { return is_strip(t) ? strip_hidden : t.answer; });
  if (placeholder) scene.texts.push_back(std::move(*placeholder));
  // The step's "conceal": a named rect stays (the layout does not jump on reveal), its label reads
  // "? (predict first)", and what is drawn inside it is left out.
  const auto* st = s.CurrentStep();
  if (!st) return;
  for (const auto& id : st->conceal) {
    const view::SceneRect* found = scene.FindRect(id);
    if (!found) continue;  // a panel section's id (PanelsNow), or a rect this event does not draw
    const view::SceneRect box = *found;
    const auto inside = [&](float x, float y) { return x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h; };
    std::erase_if(scene.texts, [&](const view::SceneText& t) { return inside(t.x, t.y); });
    std::erase_if(scene.rects, [&](const view::SceneRect& r) { return r.id != id && inside(r.x, r.y) && inside(r.x + r.w * 0.999f, r.y + r.h * 0.999f); });
    for (auto& r : scene.rects)
      if (r.id == id) {
        r.label = T(s, view::Str::hidden_answer);
        r.sublabel.clear();
      }
  }
}

bool ConcealedNow(const AppState& s, const std::string& id) {
  const auto* st = s.CurrentStep();
  return st && s.PredictPending() && std::find(st->conceal.begin(), st->conceal.end(), id) != st->conceal.end();
}

std::string AwayFromStepLine(const AppState& s) {
  if (!s.InLesson() || !s.Current() || s.ui.event == s.model.lesson->EventOf(s.ui.step)) return "";
  const int e = s.model.lesson->EventOf(s.ui.step);
  return T(s, view::Str::text_is_about) + " " + std::to_string(e + 1) + "/" + std::to_string(s.Current()->EventCount()) + "  " +
         s.Current()->EventTitle(e, s.options.lang) + "  \u00b7  " + T(s, view::Str::text_go_back);
}

std::vector<VisibleText> VisibleTextsWhere(const AppState& s) {
  std::vector<VisibleText> out;
  const auto add = [&](std::string where, const std::string& text, bool rect_label = false) {
    if (!text.empty()) out.push_back({std::move(where), text, rect_label});
  };
  const ShownStep st = StepTextNow(s);
  add("step text", AwayFromStepLine(s));
  add("step title", st.title);
  add("step text", st.body);
  add("step question", st.predict);
  add("step text", st.reveal);
  add("step answer", st.answer);
  add("step text", st.further);
  if (const auto* step = s.CurrentStep(); step && step->check && !st.reveal.empty())
    for (const auto& c : step->check->choices) add("step question", c.In(s.options.lang));
  add("step text", MistakeHint(s));
  for (const auto& sec : PanelsNow(s)) {
    const std::string where = "panel " + sec.id;
    add(where, sec.title);
    for (const auto& c : sec.columns) add(where, c);
    for (const auto& r : sec.rows) {
      add(where, r.name, true);   // (a row's name is its label: "2" is block 2)
      add(where, r.value);
    }
  }
  if (const auto* cur = s.Current()) {
    const auto scene = SceneNow(s);
    for (const auto& r : scene.rects) {
      add("diagram " + r.id, r.label, true);
      add("diagram " + r.id, r.sublabel, true);
    }
    for (const auto& t : scene.texts) add(t.id.empty() ? "diagram" : "diagram " + t.id, t.text);
    for (const auto& a : scene.arrows) add("diagram arrow", a.label);
    add("timeline", cur->EventTitle(s.ui.event, s.options.lang));
  }
  return out;
}

std::vector<std::string> VisibleTexts(const AppState& s) {
  std::vector<std::string> out;
  for (auto& v : VisibleTextsWhere(s)) out.push_back(std::move(v.text));
  return out;
}

std::vector<std::string> NumbersIn(const std::string& text) {
  std::vector<std::string> out;
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t i = 0; i < text.size();) {
    if (!digit(text[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && (digit(text[j]) || ((text[j] == '.' || text[j] == '/') && j + 1 < text.size() && digit(text[j + 1])))) ++j;
    // A sign right before it: "-", or U+2212 (the minus sign the panels print).
    size_t from = i;
    if (i >= 1 && text[i - 1] == '-') from = i - 1;
    else if (i >= 3 && text.compare(i - 3, 3, "\xe2\x88\x92") == 0) from = i - 3;
    // (a number inside a longer word or id, "l@3" or "K_12", is not one: a letter or '@' or '_' right before)
    const char before = from > 0 ? text[from - 1] : ' ';
    if (!(std::isalpha(static_cast<unsigned char>(before)) || before == '@' || before == '_'))
      out.push_back(text.substr(from, j - from));
    i = j;
  }
  return out;
}

std::vector<AnswerShown> AnswersShownBeforeReveal(AppState& s) {
  std::vector<AnswerShown> out;
  if (!s.model.lesson) return out;
  const view::LessonModel& L = *s.model.lesson;
  const std::string lang = s.options.lang;
  const bool projector = s.options.projector;
  for (int i = 0; i < static_cast<int>(L.lesson.steps.size()); ++i) {
    const auto& step = L.lesson.steps[static_cast<size_t>(i)];
    if (!step.predict) continue;
    const std::optional<StepQuestion> q = step.check && !step.check->number.empty() ? QuestionOf(L, i) : std::nullopt;
    GoToStep(s, i);
    if (!s.PredictPending()) continue;
    // A scenario's own inputs are on screen from the start (the K/V tile's "w 3, 1 · v 30, 40"): a
    // label whose numbers (two or more) are all inputs gives nothing away, even when the answer
    // happens to equal one of them (EXAMPLE's output is 40, key 4's value).
    std::vector<view::ExpectedNumber> inputs;
    if (const auto* sq = dynamic_cast<const view::SingleQueryModel*>(&L.ScenarioOf(i))) {
      const engine::SingleQueryProblem& p = sq->run().problem;
      for (size_t k = 0; k < p.scores.size(); ++k)
        inputs.push_back({p.scores[k], p.exact_weights ? std::optional((*p.exact_weights)[k]) : std::nullopt});
      for (Eigen::Index r = 0; r < p.values.rows(); ++r)
        for (Eigen::Index c = 0; c < p.values.cols(); ++c)
          inputs.push_back({p.values(r, c), p.exact_values ? std::optional((*p.exact_values)[static_cast<size_t>(r)][static_cast<size_t>(c)])
                                                           : std::nullopt});
    }
    const auto is_input = [&](const std::string& token) {
      return std::any_of(inputs.begin(), inputs.end(),
                         [&](const view::ExpectedNumber& x) { return view::CheckTypedNumber(token, x) == view::CheckVerdict::kRight; });
    };
    bool found = false;
    // Two passes: the number question's own check first (its message names the quantity asked for),
    // then the numbers every question's answer quotes.
    for (const bool quotes : {false, true})
    for (const bool proj : {false, true}) {
      if (found) break;
      s.options.projector = proj;
      for (const char* l : {"zh", "en"}) {
        s.options.lang = l;
        // Every question, of whatever kind (a choice, or none checked): a number its answer quotes
        // and its title, body, question and choices do not (two digits or more, not an input) is the
        // answer's own, and is not drawn while the question is open. (Only number questions were
        // looked at: N23/c1's choice question showed its answer's "288 B" in the comparison panel.)
        std::vector<std::string> own;
        if (quotes && step.answer) {
          std::string said = Fill(s, step.title.In(l)) + "\n" + Fill(s, step.body.In(l)) + "\n" + Fill(s, step.predict->In(l));
          if (step.check)
            for (const auto& c : step.check->choices) said += "\n" + c.In(l);
          const std::vector<std::string> given = NumbersIn(said);
          for (const std::string& token : NumbersIn(Fill(s, step.answer->In(l)))) {
            size_t digits = 0;
            for (char c : token) digits += (c >= '0' && c <= '9') ? 1 : 0;
            if (digits >= 2 && !is_input(token) && std::find(given.begin(), given.end(), token) == given.end()) own.push_back(token);
          }
        }
        for (const VisibleText& v : VisibleTextsWhere(s)) {
          if (v.where.rfind("step ", 0) == 0) continue;  // the author's own words: theirs to read
          for (const std::string& token : NumbersIn(v.text))
            if (std::find(own.begin(), own.end(), token) != own.end()) {
              out.push_back({i, step.id, "", token, v.where, v.text, l, proj});
              found = true;
              break;
            }
          if (found) break;
          if (quotes || !q || !q->number) continue;
          const std::vector<std::string> numbers = NumbersIn(v.text);
          if (numbers.size() >= 2 && std::all_of(numbers.begin(), numbers.end(), is_input)) continue;
          for (const std::string& token : numbers) {
            size_t digits = 0;
            for (char c : token) digits += (c >= '0' && c <= '9') ? 1 : 0;
            // One digit ("2", "7") stands for too many things on screen — but not as a panel value's or a
            // free text's only number ("3 skipped", "l: 4"): there it is the count a question asks for.
            const bool value = !v.rect_label && (v.where.rfind("panel ", 0) == 0 || v.where.rfind("diagram", 0) == 0);
            // … or a count with its word after it ("6 computed, 3 skipped").
            const auto counted = [&] {
              for (size_t at = v.text.find(token + " "); at != std::string::npos; at = v.text.find(token + " ", at + 1)) {
                const size_t next = at + token.size() + 1;
                const bool starts = at == 0 || !std::isdigit(static_cast<unsigned char>(v.text[at - 1]));
                const unsigned char c = next < v.text.size() ? static_cast<unsigned char>(v.text[next]) : 0;
                // a letter, or a CJK character (UTF-8 lead bytes E3–E9; not × or ≈, which are signs: "3 × 3")
                if (starts && (std::isalpha(c) || (c >= 0xE3 && c <= 0xE9))) return true;
              }
              return false;
            };
            if (digits < 2 && !(value && (numbers.size() == 1 || counted()))) continue;
            if (CheckNumberAnswer(*q, token).verdict != view::CheckVerdict::kRight) continue;
            out.push_back({i, step.id, step.check->number, token, v.where, v.text, l, proj});
            found = true;
            break;
          }
          if (found) break;
        }
        if (found) break;
      }
      if (found) break;
    }
  }
  s.options.lang = lang;
  s.options.projector = projector;
  GoToStep(s, 0);
  return out;
}

std::vector<std::string> ShownTexts(const AppState& s) {
  std::vector<std::string> texts = view::AllUiTexts();
  for (auto& t : view::AllGpuTexts()) texts.push_back(std::move(t));  // the GPU panel's own table (view/gpu_text.h)
  const auto add_model = [&](const view::ScenarioModel& m) {
    auto t = m.Texts();
    texts.insert(texts.end(), t.begin(), t.end());
  };
  if (s.model.lesson) {
    const auto& L = *s.model.lesson;
    texts.push_back(L.lesson.title.zh);
    texts.push_back(L.lesson.title.en);
    // Every text of every step, a checked exercise's choice buttons and hints among them (BWD/r1's
    // 得 and 样 were "?" without the choices).
    for (const auto& st : L.lesson.steps)
      for (const auto& t : data::StepTexts(st)) {
        texts.push_back(t.text->zh);
        texts.push_back(t.text->en);
      }
    for (const auto& [k, m] : L.scenarios) add_model(*m);
  }
  if (s.model.standalone) add_model(*s.model.standalone);
  if (s.model.course) {  // the title cards and the presenter's outline
    const auto& C = *s.model.course;
    for (const auto* t : {&C.course.title}) {
      texts.push_back(t->zh);
      texts.push_back(t->en);
    }
    for (const auto& l : C.course.lessons) {
      texts.push_back(l.covers.zh);
      texts.push_back(l.covers.en);
    }
    for (const auto& o : C.outlines) {
      texts.push_back(o.title.zh);
      texts.push_back(o.title.en);
      for (const auto& st : o.steps) {
        texts.push_back(st.title.zh);
        texts.push_back(st.title.en);
      }
    }
  }
  for (const auto& e : s.model.library) {  // the start screen and the Ctrl+O list
    texts.push_back(e.title.zh);
    texts.push_back(e.title.en);
  }
  if (!s.ui.error.empty()) texts.push_back(s.ui.error);
  return texts;
}

}  // namespace bw::app
