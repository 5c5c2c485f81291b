// Save As; see save_as.h.
#include "app/save_as.h"
#include "data/json_file.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "app/paths.h"
#include "app/platform.h"
#include "data/scenario.h"
#include "view/single_query_model.h"

namespace bw::app {

std::string SaveAsTarget(const std::string& path) {
  std::error_code ec;
  const std::string full = std::filesystem::absolute(path, ec).lexically_normal().string();
  return ec ? std::string() : full;
}

std::string SaveScenarioAs(AppState& s, const std::string& path) {
  const auto* m = dynamic_cast<const view::SingleQueryModel*>(s.Current());
  if (!m) return path + ": not saved: the open scenario is not a single-query scenario";
  std::error_code ec;
  const std::string full = std::filesystem::absolute(path, ec).lexically_normal().string();
  if (ec) return path + ": not saved: " + ec.message();
  nlohmann::json j = data::SingleQueryScenarioToJson(m->scenario());
  j["$schema"] = SchemaRefFor(full, "scenario-v1.schema.json");
  if (std::string err = platform::SaveUserFile(full, data::DumpJson(j, 2) + "\n"); !err.empty()) return err;  // web: a download
  auto& recent = s.options.recent;
  recent.erase(std::remove(recent.begin(), recent.end(), full), recent.end());
  recent.insert(recent.begin(), full);
  if (recent.size() > kMaxRecent) recent.resize(kMaxRecent);
  s.ui.settings_dirty = true;
  return "";
}

}  // namespace bw::app
