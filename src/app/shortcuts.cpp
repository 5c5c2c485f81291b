// The shortcut table and its matching; see shortcuts.h.
#include "app/shortcuts.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // ClearActiveID: a text field lets go of the keyboard

#include <algorithm>
#include <cstring>

#include "app/platform.h"
#include "app/toast.h"
#include "app/widgets.h"
#include "view/scene.h"

namespace bw::app {

namespace {

constexpr int kCtrl = GLFW_MOD_CONTROL, kShift = GLFW_MOD_SHIFT, kAlt = GLFW_MOD_ALT;

Trigger Key(int key, int need = 0, int forbid = 0) { return {key, 0, need, forbid, false}; }
Trigger Char(unsigned ch, int need = 0, int forbid = 0) { return {0, ch, need, forbid, false}; }
Trigger Typed(unsigned ch) { return {0, ch, 0, 0, true}; }

void Toggle(bool& b) { b = !b; }
void SetSpeed(AppState& s, float factor) {
  s.options.play_speed = std::clamp(s.options.play_speed * factor, 0.5f, 64.0f);
  s.ui.settings_dirty = true;
}

// US key positions for the fallback (a layout whose keys type no ASCII, e.g. Russian).
unsigned UsChar(int key) {
  if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) return static_cast<unsigned>('a' + (key - GLFW_KEY_A));
  if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) return static_cast<unsigned>('0' + (key - GLFW_KEY_0));
  switch (key) {
    case GLFW_KEY_EQUAL: return '=';
    case GLFW_KEY_MINUS: return '-';
    case GLFW_KEY_COMMA: return ',';
    default: return 0;
  }
}

}  // namespace

const std::vector<Shortcut>& Shortcuts() {
  static const std::vector<Shortcut> table = {
      {view::Str::key_arrows, {Key(GLFW_KEY_RIGHT, 0, kShift), Key(GLFW_KEY_LEFT, 0, kShift)},
       [](AppState& s, const KeyPress& k) { StepEvent(s, k.key == GLFW_KEY_RIGHT ? +1 : -1); }},
      {view::Str::key_shift_arrows, {Key(GLFW_KEY_RIGHT, kShift), Key(GLFW_KEY_LEFT, kShift)},
       [](AppState& s, const KeyPress& k) { StepBlock(s, k.key == GLFW_KEY_RIGHT ? +1 : -1); }},
      {view::Str::key_pages, {Key(GLFW_KEY_PAGE_DOWN), Key(GLFW_KEY_PAGE_UP)},
       [](AppState& s, const KeyPress& k) {
         const std::string said = s.ui.status;
         StepLesson(s, k.key == GLFW_KEY_PAGE_DOWN ? +1 : -1);
         // The clicker at the course's (or a lesson's) end: large, where the teacher looks, not only
         // in the top bar's small status line.
         if (s.ui.status != said && !s.ui.status.empty() && LessonStatus(s)) ShowToast(s, s.ui.status, platform::Now());
       }},
      // A clicker's "blank screen" key sends B or '.' (as in presentation software).
      {view::Str::key_blank, {Char('b', 0, kCtrl | kAlt), Char('.', 0, kCtrl | kAlt)}, [](AppState& s, const KeyPress&) {
         Toggle(s.ui.blank);
         s.ui.playing = false;  // nothing moves on behind the black screen
       }},
      {view::Str::key_join, {Char('j', 0, kCtrl | kAlt)}, [](AppState& s, const KeyPress&) { Toggle(s.ui.show_join_card); }},
      {view::Str::key_home_end, {Key(GLFW_KEY_HOME), Key(GLFW_KEY_END)},
       [](AppState& s, const KeyPress& k) {
         const int to = k.key == GLFW_KEY_HOME ? 0 : 1 << 20;
         s.InLesson() ? GoToStep(s, to) : SetEvent(s, to);
       }},
      {view::Str::key_space, {Key(GLFW_KEY_SPACE)}, [](AppState& s, const KeyPress&) { TogglePlay(s); }},
      {view::Str::key_reveal, {Char('r', 0, kCtrl | kAlt)}, [](AppState& s, const KeyPress&) { Reveal(s); }},
      // The keyboard's way into the answer field (a helper found only the mouse; Tab made the
      // timeline a text field instead): the field takes the keyboard at the next frame.
      {view::Str::key_tab, {Key(GLFW_KEY_TAB)}, [](AppState& s, const KeyPress&) {
        // … on the page that shows it (a field on a later page took the typing unseen).
        if (s.PredictPending() && s.ui.text_page >= 0 && s.ui.text_page < s.ui.question_last_page) {
          s.ui.text_page = s.ui.question_last_page;
          s.ui.layout_settling = true;
        }
        s.ui.focus_answer = 30;   // frames: a slow frame (a sanitizer build) must not miss it
      }},
      // A choice question from the keyboard: its number picks it (a student's laptop needed the mouse for
      // RC-T3/b0's three choices; issue 29's walk-through). Only while a choice question is open.
      {view::Str::key_choice,
       {Typed('1'), Typed('2'), Typed('3'), Typed('4'), Typed('5'), Typed('6'), Typed('7'), Typed('8')},
       [](AppState& s, const KeyPress& k) {
         const auto* st = s.CurrentStep();
         if (!st || !st->check || st->check->choices.empty() || !s.PredictPending()) return;
         const int n = static_cast<int>(k.ch) - '0';
         if (n < 1 || n > static_cast<int>(st->check->choices.size())) return;
         CheckChoice(s, n);
         s.ui.to_answer_page = true;   // the page with the verdict (as a click on the choice)
       }},
      {view::Str::key_speed, {Typed('['), Typed(']')}, [](AppState& s, const KeyPress& k) { SetSpeed(s, k.ch == ']' ? 2.0f : 0.5f); }},
      {view::Str::key_f5, {Key(GLFW_KEY_F5)}, [](AppState& s, const KeyPress&) {
         const std::string warning = view::UiText(view::Str::presenter_one_screen, s.options.lang);
         TogglePresenter(s, platform::MonitorCount());
         if (s.ui.presenter_confirm) ShowToast(s, s.ui.status, platform::Now());  // large, over the picture: the teacher sees it
         else if (s.ui.toast == warning) s.ui.toast.clear();  // confirmed: the warning has done its work
       }},
      {view::Str::key_f11, {Key(GLFW_KEY_F11)},
       [](AppState& s, const KeyPress& k) {
         if (k.mods & kShift) {  // next monitor (the projector is often the second one)
           ++s.options.monitor;
           s.ui.settings_dirty = true;
           s.ui.monitor_changed = true;
         } else {
           Toggle(s.ui.fullscreen);
         }
       }},
      {view::Str::key_g, {Char('g', 0, kCtrl | kAlt)}, [](AppState& s, const KeyPress&) { Toggle(s.ui.show_gpu); }},
      {view::Str::key_p, {Char('p', 0, kCtrl | kAlt)},
       [](AppState& s, const KeyPress&) {
         Toggle(s.options.projector);
         s.ui.settings_dirty = true;
       }},
      {view::Str::key_l, {Char('l', 0, kCtrl | kAlt)},
       [](AppState& s, const KeyPress&) {
         s.options.lang = s.options.lang == "zh" ? "en" : "zh";
         s.ui.settings_dirty = true;
       }},
      // Ctrl +: the key that types '+' or '=' ('=' is '+' unshifted on US and French keyboards).
      {view::Str::key_font,
       {Char('+', kCtrl), Char('=', kCtrl), Key(GLFW_KEY_KP_ADD), Char('-', kCtrl), Key(GLFW_KEY_KP_SUBTRACT),
        Char('0', kCtrl), Key(GLFW_KEY_0, kCtrl), Key(GLFW_KEY_KP_0, kCtrl)},
       [](AppState& s, const KeyPress& k) {
         if (k.ch == '+' || k.ch == '=' || k.key == GLFW_KEY_KP_ADD) ScaleFont(s, 1.1f);
         else if (k.ch == '-' || k.key == GLFW_KEY_KP_SUBTRACT) ScaleFont(s, 1 / 1.1f);
         else ScaleFont(s, kDefaultFontPx / s.options.font_px);  // Ctrl 0: the default size
       }},
      {view::Str::key_open, {Char('o', kCtrl)}, [](AppState& s, const KeyPress&) { s.ui.show_open = true; }},
      {view::Str::key_export, {Char('e', kCtrl)},
       [](AppState& s, const KeyPress& k) {
         s.ui.export_request = (k.mods & kShift) ? Transient::Export::kData : Transient::Export::kPng;
       }},
      {view::Str::key_settings, {Char(',', kCtrl)}, [](AppState& s, const KeyPress&) { Toggle(s.ui.show_settings); }},
      {view::Str::key_help, {Typed('?')}, [](AppState& s, const KeyPress&) { Toggle(s.ui.show_help); }},
      {view::Str::key_escape, {Key(GLFW_KEY_ESCAPE)},
       [](AppState& s, const KeyPress&) { s.ui.show_help = s.ui.show_open = s.ui.show_settings = false; }},
      {view::Str::key_drop, {}, nullptr},  // not a key: listed so the overlay and README say it
  };
  return table;
}

unsigned LayoutChar(int key, int scancode) {
  // The numpad matches by key; a key GLFW has no token for (xdotool's scratch keycodes) has no shortcut.
  if (key == GLFW_KEY_UNKNOWN || (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_EQUAL)) return 0;
  const char* name = platform::KeyName(key, scancode);
  if (name && name[0] && !name[1] && static_cast<unsigned char>(name[0]) < 0x80) {
    const unsigned c = static_cast<unsigned char>(name[0]);
    return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
  }
  if (name && name[0]) {  // a character outside ASCII: a letter of another script, or e.g. French 'à' on the 0 key
    return UsChar(key) >= 'a' && UsChar(key) <= 'z' ? UsChar(key) : 0;
  }
  return UsChar(key);
}

const Shortcut* Match(const KeyPress& k) {
  for (const auto& sc : Shortcuts())
    for (const auto& t : sc.triggers) {
      if (t.typed) continue;
      if ((k.mods & t.need) != t.need || (k.mods & t.forbid)) continue;
      if (t.key ? k.key == t.key : (t.ch != 0 && k.ch == t.ch)) return &sc;
    }
  return nullptr;
}

const Shortcut* MatchTyped(unsigned ch) {
  for (const auto& sc : Shortcuts())
    for (const auto& t : sc.triggers)
      if (t.typed && t.ch == ch) return &sc;
  return nullptr;
}

std::string ShortcutMarkdown(const std::string& lang) {
  std::string md = view::UiText(view::Str::key_table_head, lang) + "\n| --- | --- |\n";
  for (const auto& sc : Shortcuts()) {
    const std::string& line = view::UiText(sc.help, lang);
    const auto tab = line.find('\t');
    md += "| " + line.substr(0, tab) + " | " + (tab == std::string::npos ? "" : line.substr(tab + 1)) + " |\n";
  }
  return md;
}

void HandleKeys(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  std::vector<KeyPress> keys;
  keys.swap(s.ui.keys);
  // F5's one-screen warning asks for F5 again at once: any other key withdraws it (a helper's second
  // F5, two steps later, opened the notes over the projection without a word).
  for (const KeyPress& k : keys)
    if (k.key != GLFW_KEY_F5 && s.ui.presenter_confirm) {
      if (s.ui.toast == s.ui.status) s.ui.toast.clear();
      CancelPresenterConfirm(s);
    }
  if (io.WantTextInput) {  // typing in a text field: the keys are the field's, except those no field
    // types. Esc still closes the open dialog (its path field has the focus when it opens: Esc once,
    // not twice, as the shortcut list says; a helper found it took two). In the lesson's answer
    // field a clicker's PageDown and PageUp and F5 still step the lesson and open the notes (a
    // helper's clicker went dead while a student's answer sat unchecked there); the field then lets
    // go of the keyboard, so Space and R are shortcuts again.
    const bool answer_field = AnswerFieldActive(s);
    for (const KeyPress& k : keys) {
      if (s.ui.show_open && (k.key == GLFW_KEY_UP || k.key == GLFW_KEY_DOWN)) {  // the Ctrl+O list, from its field
        s.ui.open_pick += k.key == GLFW_KEY_DOWN ? 1 : -1;
        continue;
      }
      const bool clicker = k.key == GLFW_KEY_PAGE_DOWN || k.key == GLFW_KEY_PAGE_UP || k.key == GLFW_KEY_F5;
      if (k.key != GLFW_KEY_ESCAPE && !(clicker && answer_field)) continue;
      if (clicker) ImGui::ClearActiveID();
      // A typed answer not checked yet: the clicker's PageDown checks it first (as Enter would), the
      // next one reveals (a helper's typed "10" vanished unchecked under the reveal).
      if (k.key == GLFW_KEY_PAGE_DOWN && s.ui.answer_typed[0] != '\0' && s.ui.answer_verdict < 0) {
        CheckTypedAnswer(s);
        continue;
      }
      if (const Shortcut* sc = Match(k); sc && sc->run) sc->run(s, k);
    }
    return;
  }
  size_t first = 0;   // the keys the start screen took; the rest (after it closed) step the lesson
  bool typed = false;  // the typed characters went into the library's filter
  if (s.ui.show_library && !io.WantTextInput) {  // the start screen: keys pick, typed text filters
    // Typed text first: "mask⏎" arriving in one frame filters, then opens what the filter left.
    for (ImWchar c : io.InputQueueCharacters) {
      if (c < 0x20 || c == 0x7F) continue;
      char u[5] = {};
      s.ui.library_filter += ImTextCharToUtf8(u, c);
      s.ui.library_pick = 0;
    }
    typed = true;
    for (; first < keys.size() && s.ui.show_library; ++first) {
      const KeyPress& k = keys[first];
      switch (k.key) {
        case GLFW_KEY_LEFT: case GLFW_KEY_PAGE_UP: LibraryMove(s, -1); continue;
        case GLFW_KEY_RIGHT: LibraryMove(s, +1); continue;
        case GLFW_KEY_UP: LibraryMove(s, -s.ui.library_columns); continue;
        case GLFW_KEY_DOWN: LibraryMove(s, +s.ui.library_columns); continue;
        case GLFW_KEY_HOME: LibraryMove(s, -(1 << 20)); continue;
        case GLFW_KEY_END: LibraryMove(s, 1 << 20); continue;
        case GLFW_KEY_ENTER: case GLFW_KEY_KP_ENTER: case GLFW_KEY_PAGE_DOWN: LibraryOpen(s); continue;
        case GLFW_KEY_BACKSPACE:
          if (!s.ui.library_filter.empty()) {  // one UTF-8 character
            size_t n = s.ui.library_filter.size() - 1;
            while (n > 0 && (static_cast<unsigned char>(s.ui.library_filter[n]) & 0xC0) == 0x80) --n;
            s.ui.library_filter.resize(n);
            s.ui.library_pick = 0;
          }
          continue;
        case GLFW_KEY_ESCAPE:
          if (!s.ui.library_filter.empty()) s.ui.library_filter.clear();
          else if (s.Current()) s.ui.show_library = false;  // back to the lesson behind it
          s.ui.library_pick = 0;
          continue;
        default: break;
      }
      // Ctrl shortcuts and the function keys still work (Ctrl+O, Ctrl +, F11); letters are typed.
      if ((k.mods & (kCtrl | kAlt)) || (k.key >= GLFW_KEY_F1 && k.key <= GLFW_KEY_F25))
        if (const Shortcut* sc = Match(k); sc && sc->run) sc->run(s, k);
    }
  }
  for (size_t i = first; i < keys.size(); ++i) {
    const KeyPress& k = keys[i];
    if (s.ui.blank) {
      // A blanked screen: the clicker's keys (and Esc) bring the same step back before they do
      // anything else; B, '.' and F5 work; nothing else acts unseen behind the black screen.
      if (k.key == GLFW_KEY_PAGE_DOWN || k.key == GLFW_KEY_PAGE_UP || k.key == GLFW_KEY_ESCAPE) {
        s.ui.blank = false;
        continue;
      }
      const Shortcut* sc = Match(k);
      if (sc && sc->run && (sc->help == view::Str::key_blank || sc->help == view::Str::key_f5)) sc->run(s, k);
      continue;
    }
    if (const Shortcut* sc = Match(k); sc && sc->run) sc->run(s, k);
  }
  if (typed || s.ui.blank) return;
  for (ImWchar c : io.InputQueueCharacters)
    if (const Shortcut* sc = MatchTyped(c); sc && sc->run) sc->run(s, KeyPress{0, 0, c});
}

void DrawHelp(AppState& s) {
  if (!s.ui.show_help) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::Begin(view::UiText(view::Str::shortcuts, s.options.lang).c_str(), &s.ui.show_help,
               ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_BordersInnerH)) {
    for (const auto& sc : Shortcuts()) {
      const std::string& line = view::UiText(sc.help, s.options.lang);
      const auto tab = line.find('\t');
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(line.substr(0, tab).c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(tab == std::string::npos ? "" : line.substr(tab + 1).c_str());
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace bw::app
