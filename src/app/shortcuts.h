// The one shortcut table: it drives HandleKeys (dispatch), the '?' overlay (DrawHelp) and the README's
// key table (tests/app/shortcuts_test checks README.md against ShortcutMarkdown("en")).
//
// Shortcuts match the character the keyboard layout puts on a key, not the US key position: Ctrl +
// is the key that types '+' or '=' (US '=', German '+', French '='), Ctrl − the key that types '-'
// (US '-', German '-' beside '.', French '-' on 6), letters by the letter they type (AZERTY's A is A).
// Key codes (the window library's, named in shortcuts.cpp only) are US positions, so the key callback
// asks the layout for the key's character (LayoutChar) and queues it with the press. Numpad + − 0 work too. Layouts without Latin letters
// fall back to the US position (as browsers do).
#pragma once

#include <string>
#include <vector>

#include "session/app_state.h"
#include "view/ui_text.h"

namespace bw::app {

struct Trigger {
  int key = 0;          // a key code (named keys: arrows, F5, numpad …; shortcuts.cpp); 0 = match `ch` instead
  unsigned ch = 0;      // the layout's character on the key (lowercase), or a typed character when `typed`
  int need = 0;         // modifier bits (Ctrl, Shift, Alt: shortcuts.cpp) that must be held
  int forbid = 0;       // modifier bits that must not be held
  bool typed = false;   // match a typed character (ImGui's input queue: '?', '[', ']' are shifted on many layouts)
};

struct Shortcut {
  view::Str help;                      // "keys\tdoes" in zh and en (the overlay and README row)
  std::vector<Trigger> triggers;
  void (*run)(AppState& s, const KeyPress& k);  // the action (AppState's actions: StepLesson, StepEvent, …)
};

// Every shortcut, in the order the overlay and the README list them.
const std::vector<Shortcut>& Shortcuts();

// The character the current layout types on `key` without modifiers, lowercase, or a US-position
// fallback when the layout gives none in ASCII; 0 for named keys and the numpad. Call from the
// platform's key callback (platform::KeyName needs its window system running).
unsigned LayoutChar(int key, int scancode);

// The first shortcut a key press or a typed character triggers, or nullptr. Pure (tests call it).
const Shortcut* Match(const KeyPress& k);
const Shortcut* MatchTyped(unsigned ch);

// The README's key table in `lang`: a header and one "| keys | does |" row per shortcut.
std::string ShortcutMarkdown(const std::string& lang);

// Applies the queued key presses (s.ui.keys) and this frame's typed characters through the table;
// nothing while a text field has the keyboard. Call after ImGui::NewFrame.
void HandleKeys(AppState& s);
// The '?' overlay: the table's rows in the current language.
void DrawHelp(AppState& s);

}  // namespace bw::app
