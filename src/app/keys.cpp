// Keyboard: the queued key presses applied to AppState's actions; see panels.h.
#include "app/panels.h"
#include "app/widgets.h"

#include <imgui.h>
#include <GLFW/glfw3.h>

#include <algorithm>

namespace bw::app {

void HandleKeys(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  std::vector<KeyPress> keys;
  keys.swap(s.ui.keys);
  if (io.WantTextInput) return;  // typing in a text field: the keys are the field's
  for (const KeyPress& k : keys) {
    const bool shift = k.mods & GLFW_MOD_SHIFT, ctrl = k.mods & GLFW_MOD_CONTROL;
    switch (k.key) {
      case GLFW_KEY_RIGHT: shift ? StepBlock(s, +1) : StepEvent(s, +1); break;
      case GLFW_KEY_LEFT: shift ? StepBlock(s, -1) : StepEvent(s, -1); break;
      case GLFW_KEY_PAGE_DOWN: StepLesson(s, +1); break;
      case GLFW_KEY_PAGE_UP: StepLesson(s, -1); break;
      case GLFW_KEY_HOME: s.InLesson() ? GoToStep(s, 0) : SetEvent(s, 0); break;
      case GLFW_KEY_END: s.InLesson() ? GoToStep(s, 1 << 20) : SetEvent(s, 1 << 20); break;
      case GLFW_KEY_SPACE: TogglePlay(s); break;
      case GLFW_KEY_R: if (!ctrl) Reveal(s); break;
      case GLFW_KEY_ESCAPE: s.ui.show_help = s.ui.show_open = false; break;
      case GLFW_KEY_F5: s.ui.presenter = !s.ui.presenter; break;
      case GLFW_KEY_F11:
        if (shift) {  // next monitor (the projector is often the second one)
          ++s.options.monitor;
          s.ui.settings_dirty = true;
          s.ui.monitor_changed = true;
        } else {
          s.ui.fullscreen = !s.ui.fullscreen;
        }
        break;
      case GLFW_KEY_G: if (!ctrl) s.ui.show_gpu = !s.ui.show_gpu; break;
      case GLFW_KEY_O: if (ctrl) s.ui.show_open = true; break;
      case GLFW_KEY_EQUAL:
      case GLFW_KEY_KP_ADD: if (ctrl || k.key == GLFW_KEY_KP_ADD) ScaleFont(s, 1.1f); break;
      case GLFW_KEY_MINUS:
      case GLFW_KEY_KP_SUBTRACT: if (ctrl || k.key == GLFW_KEY_KP_SUBTRACT) ScaleFont(s, 1 / 1.1f); break;
      case GLFW_KEY_0: if (ctrl) ScaleFont(s, 22.0f / s.options.font_px); break;
      case GLFW_KEY_P:
        if (!ctrl) s.options.projector = !s.options.projector, s.ui.settings_dirty = true;
        break;
      case GLFW_KEY_L:
        if (!ctrl) s.options.lang = s.options.lang == "zh" ? "en" : "zh", s.ui.settings_dirty = true;
        break;
      default: break;
    }
  }
  for (ImWchar c : io.InputQueueCharacters) {
    if (c == '?') s.ui.show_help = !s.ui.show_help;
    if (c == ']') s.options.play_speed = std::min(64.0f, s.options.play_speed * 2), s.ui.settings_dirty = true;
    if (c == '[') s.options.play_speed = std::max(0.5f, s.options.play_speed / 2), s.ui.settings_dirty = true;
  }
}

}  // namespace bw::app
