// Persistent settings; see settings.h.
#include "app/settings.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "app/platform.h"
#include "data/json_file.h"

namespace bw::app {

std::filesystem::path SettingsPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  std::filesystem::path base;
  if (xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME")) base = std::filesystem::path(home) / ".config";
  else base = ".";
  return base / "blockwise" / "settings.json";
}

std::string LoadSettings(AppState& s, const std::filesystem::path& path) {
  try {
    const auto text = platform::ReadSettingsText(path);  // desktop: the file; web: local storage
    if (!text) return "";
    const auto j = data::ParseJsonText(*text, path.string());
    Options o = s.options;
    if (j.contains("lang") && j["lang"].is_string() && (j["lang"] == "zh" || j["lang"] == "en")) o.lang = j["lang"];
    if (j.contains("projector") && j["projector"].is_boolean()) o.projector = j["projector"];
    if (j.contains("font_px") && j["font_px"].is_number()) o.font_px = std::clamp(j["font_px"].get<float>(), 10.0f, 96.0f);
    if (j.contains("play_speed") && j["play_speed"].is_number())
      o.play_speed = std::clamp(j["play_speed"].get<float>(), 0.5f, 64.0f);
    if (j.contains("monitor") && j["monitor"].is_number_integer()) o.monitor = std::clamp(j["monitor"].get<int>(), 0, 16);
    if (j.contains("export_dir") && j["export_dir"].is_string()) o.export_dir = j["export_dir"];
    if (j.contains("recent") && j["recent"].is_array()) {
      o.recent.clear();
      for (const auto& r : j["recent"])
        if (r.is_string() && o.recent.size() < kMaxRecent) o.recent.push_back(r);
    }
    s.options = o;
    return "";
  } catch (const std::exception& e) {
    return std::string("settings ignored: ") + e.what();
  }
}

std::string SaveSettings(const AppState& s, const std::filesystem::path& path) {
  nlohmann::json j = {{"lang", s.options.lang},         {"projector", s.options.projector},
                      {"font_px", s.options.font_px},   {"play_speed", s.options.play_speed},
                      {"monitor", s.options.monitor},   {"export_dir", s.options.export_dir},
                      {"recent", s.options.recent}};
  return platform::WriteSettingsText(path, j.dump(2) + "\n");
}

std::string LanguageFromLocale(const char* lc_all, const char* lc_messages, const char* lang) {
  for (const char* v : {lc_all, lc_messages, lang})
    if (v && *v) return std::string(v).rfind("zh", 0) == 0 ? "zh" : "en";
  return "en";
}

}  // namespace bw::app
