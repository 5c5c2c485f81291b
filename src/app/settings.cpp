// Persistent settings; see settings.h.
#include "app/settings.h"

#include <cstdlib>
#include <optional>
#include <nlohmann/json.hpp>

#include "app/platform.h"
#include "data/json_file.h"
#include "data/user_file.h"

namespace bw::app {

std::filesystem::path SettingsPath() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  std::filesystem::path base;
  if (xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = std::filesystem::path(home) / ".config";
  // Neither set (a service, `env -i`): the account's home from the password database (web: none);
  // never the current folder, where ./blockwise/ would appear wherever the app was started (issue 31).
  else if (const std::string account = platform::AccountHome(); !account.empty()) base = std::filesystem::path(account) / ".config";
  else return {};
  return base / "blockwise" / "settings.json";
}

std::filesystem::path SettingsAsidePath(const std::filesystem::path& path) { return path.string() + ".bad"; }

std::string LoadSettings(AppState& s, const std::filesystem::path& path) {
  std::optional<std::string> text;
  std::vector<std::string> bad;  // "/font_px: expected a number", …
  Options o = s.options;
  try {
    text = platform::ReadSettingsText(path);  // desktop: the file (regular, size capped); web: local storage
    if (!text) return "";
    const auto j = data::ParseJsonText(*text, path.string());
    if (!j.is_object()) throw data::LoadError(path.string(), "", std::string("expected an object, found ") + j.type_name());
    // Field by field: a wrong one is named and left at its default, the others are kept.
    const auto field = [&](const char* key, auto&& valid, auto&& take, const char* expected) {
      const auto it = j.find(key);
      if (it == j.end()) return;
      if (valid(*it)) take(*it);
      else bad.push_back(std::string("/") + key + ": expected " + expected);
    };
    field("lang", [](const nlohmann::json& v) { return v == "zh" || v == "en"; }, [&](const nlohmann::json& v) { o.lang = v; }, "\"zh\" or \"en\"");
    field("projector", [](const nlohmann::json& v) { return v.is_boolean(); }, [&](const nlohmann::json& v) { o.projector = v; }, "true or false");
    field("font_px", [](const nlohmann::json& v) { return v.is_number(); },
          [&](const nlohmann::json& v) { o.font_px = std::clamp(v.get<float>(), 10.0f, 96.0f); }, "a number");
    field("play_speed", [](const nlohmann::json& v) { return v.is_number(); },
          [&](const nlohmann::json& v) { o.play_speed = std::clamp(v.get<float>(), 0.5f, 64.0f); }, "a number");
    field("monitor", [](const nlohmann::json& v) { return v.is_number_integer(); },
          [&](const nlohmann::json& v) { o.monitor = static_cast<int>(std::clamp<std::int64_t>(v.get<std::int64_t>(), 0, 16)); }, "a whole number");
    field("export_dir", [](const nlohmann::json& v) { return v.is_string(); }, [&](const nlohmann::json& v) { o.export_dir = v; }, "a string");
    field("recent", [](const nlohmann::json& v) { return v.is_array(); },
          [&](const nlohmann::json& v) {
            o.recent.clear();
            for (const auto& r : v)
              if (!r.is_string()) bad.push_back("/recent: an entry that is not a string");
              else if (o.recent.size() < kMaxRecent) o.recent.push_back(r);
          },
          "an array of paths");
  } catch (const std::exception& e) {
    bad.assign(1, e.what());
    o = s.options;  // nothing of an unreadable file is used
  }
  s.options = o;
  if (bad.empty()) return "";
  // The file as it was is kept aside before the next save replaces it: the user's choices are not
  // lost without a word (issue 31).
  std::string line = "settings: " + bad.front() + (bad.size() > 1 ? " (and " + std::to_string(bad.size() - 1) + " more)" : "");
  if (text) {
    const std::filesystem::path aside = SettingsAsidePath(path);
    const std::string err = platform::WriteSettingsText(aside, *text);
    line += err.empty() ? "; the file as it was is kept as " + aside.string() : "; could not keep a copy: " + err;
  }
  return line + "; the rest of the settings are used";
}

std::string SaveSettings(const Options& o, const std::filesystem::path& path) {
  // A recent file whose name is not UTF-8 (caf\xE9.json) cannot be written into JSON as it is, and
  // written as U+FFFD it would name no file: it is left out of the saved list (issue 31).
  nlohmann::json recent = nlohmann::json::array();
  for (const std::string& r : o.recent)
    if (data::IsUtf8(r)) recent.push_back(r);
  nlohmann::json j = {{"lang", o.lang},         {"projector", o.projector},
                      {"font_px", o.font_px},   {"play_speed", o.play_speed},
                      {"monitor", o.monitor},   {"recent", recent}};
  if (data::IsUtf8(o.export_dir)) j["export_dir"] = o.export_dir;
  return platform::WriteSettingsText(path, data::DumpJson(j, 2) + "\n");
}

Options OptionsToSave(const Options& now, const Options& before, const RunOverrides& given) {
  Options o = now;
  if (given.lang && now.lang == *given.lang) o.lang = before.lang;
  if (given.projector && now.projector == *given.projector) o.projector = before.projector;
  if (given.font_px && now.font_px == *given.font_px) o.font_px = before.font_px;
  return o;
}

std::string LanguageFromLocale(const char* lc_all, const char* lc_messages, const char* lang) {
  for (const char* v : {lc_all, lc_messages, lang})
    if (v && *v) return std::string(v).rfind("zh", 0) == 0 ? "zh" : "en";
  return "en";
}

}  // namespace bw::app
