// The settings window; see settings_window.h.
#include "app/settings_window.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/paths.h"
#include "app/platform.h"
#include "app/settings.h"
#include "app/widgets.h"
#include "view/scene.h"

namespace bw::app {

namespace {

void Label(const AppState& s, view::Str key) {
  ImGui::TableNextRow();
  ImGui::TableSetColumnIndex(0);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(T(s, key).c_str());
  ImGui::TableSetColumnIndex(1);
  ImGui::SetNextItemWidth(-1);
}

}  // namespace

void DrawSettingsWindow(AppState& s) {
  if (!s.ui.show_settings) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(display.x * 0.9f, ImGui::GetFontSize() * 34), 0), ImGuiCond_Always);
  ImGui::Begin((T(s, view::Str::settings_title) + "###settings").c_str(), &s.ui.show_settings,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize);
  bool dirty = false;
  if (ImGui::BeginTable("settings", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch, 2.2f);

    Label(s, view::Str::set_language);
    if (ImGui::RadioButton("中文", s.options.lang == "zh")) s.options.lang = "zh", dirty = true;
    ImGui::SameLine();
    if (ImGui::RadioButton("English", s.options.lang == "en")) s.options.lang = "en", dirty = true;

    Label(s, view::Str::set_palette);
    if (ImGui::RadioButton(T(s, view::Str::set_classroom).c_str(), !s.options.projector)) s.options.projector = false, dirty = true;
    ImGui::SameLine();
    if (ImGui::RadioButton(T(s, view::Str::projector).c_str(), s.options.projector)) s.options.projector = true, dirty = true;

    Label(s, view::Str::set_font);
    float px = s.options.font_px;
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (ImGui::SliderFloat("##font", &px, 10.0f, 96.0f, "%.0f px", ImGuiSliderFlags_AlwaysClamp) && std::round(px) != s.options.font_px) {
      s.options.font_px = std::round(px);
      s.ui.fonts_dirty = dirty = true;
    }
    ImGui::SameLine();
    if (ImGui::Button(T(s, view::Str::set_default).c_str())) {
      s.options.font_px = kDefaultFontPx;
      s.ui.fonts_dirty = dirty = true;
    }

    Label(s, view::Str::set_monitor);
    const std::vector<std::string> monitors = platform::MonitorNames();
    const int count = static_cast<int>(monitors.size());
    const auto monitor_name = [&](int i) { return std::to_string(i + 1) + ": " + (i < count ? monitors[static_cast<size_t>(i)] : "?"); };
    const int current = count > 0 ? s.options.monitor % count : 0;
    if (ImGui::BeginCombo("##monitor", count > 0 ? monitor_name(current).c_str() : "—")) {
      for (int i = 0; i < count; ++i)
        if (ImGui::Selectable(monitor_name(i).c_str(), i == current)) {
          s.options.monitor = i;
          s.ui.monitor_changed = dirty = true;
        }
      ImGui::EndCombo();
    }

    Label(s, view::Str::set_export_dir);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (ImGui::InputTextWithHint("##export", DefaultExportDir().string().c_str(), &s.options.export_dir)) dirty = true;
    ImGui::SameLine();
    if (ImGui::Button((T(s, view::Str::set_default) + "##export").c_str())) s.options.export_dir.clear(), dirty = true;

    Label(s, view::Str::set_play_speed);
    float speed = s.options.play_speed;
    if (ImGui::SliderFloat("##speed", &speed, 0.5f, 64.0f, T(s, view::Str::set_speed_format).c_str(),
                           ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) {
      s.options.play_speed = speed;
      dirty = true;
    }
    // A live class (desktop: main fills class_addresses): the interface the students' network
    // reaches and a port, then Start; while one runs, its URL and code (the notes window ends it).
    if (auto& c = s.ui.class_setup; !c.addresses.empty()) {
      Label(s, view::Str::set_class);
      if (s.ui.live_class.live) {
        ImGui::TextUnformatted((s.ui.live_class.url + "  \u00b7  " + T(s, view::Str::class_code) + " " + s.ui.live_class.code).c_str());
      } else {
        c.pick = std::clamp(c.pick, 0, static_cast<int>(c.addresses.size()) - 1);
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
        if (ImGui::BeginCombo("##class_address", c.addresses[static_cast<size_t>(c.pick)].c_str())) {
          for (int i = 0; i < static_cast<int>(c.addresses.size()); ++i)
            if (ImGui::Selectable(c.addresses[static_cast<size_t>(i)].c_str(), i == c.pick)) c.pick = i;
          ImGui::EndCombo();
        }
        ImGui::SameLine();
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 3.5f);
        ImGui::InputInt("##class_port", &c.port, 0);
        c.port = std::clamp(c.port, 0, 65535);
        ImGui::SameLine();
        if (ImGui::Button(T(s, view::Str::set_class_start).c_str())) {
          std::string address = c.addresses[static_cast<size_t>(c.pick)];
          address = address.substr(0, address.find(' '));   // "192.168.1.20 (wlan0)"
          c.start_at = address + ":" + std::to_string(c.port);
        }
        if (!c.error.empty()) {
          ImGui::PushTextWrapPos(0);
          ImGui::TextColored(ImVec4(0.72f, 0.11f, 0.11f, 1), "%s", c.error.c_str());
          ImGui::PopTextWrapPos();
        }
      }
    }
    ImGui::EndTable();
  }
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s %s", T(s, view::Str::set_saved_in).c_str(), SettingsPath().string().c_str());
  ImGui::PopTextWrapPos();
  if (dirty) s.ui.settings_dirty = true;
  ImGui::End();
}

}  // namespace bw::app
