// Scenario file, kind "gpu_run"; see gpu_run_scenario.h for the format.
#include "data/gpu_run_scenario.h"

#include <nlohmann/json.hpp>

namespace bw::data {

namespace {

// The path at `key` (relative, "/"-separated, not empty) resolved against `file`'s folder.
std::filesystem::path RecordingPath(const JsonReader& r, const nlohmann::json& doc, const std::string& file, const char* key,
                                    std::string& as_written) {
  const std::string jp = std::string("/") + key;
  as_written = r.String(doc[key], jp);
  if (as_written.empty()) r.Fail(jp, "the path is empty (name a recording, e.g. \"../../assets/gpu/recorded_run_h200.json\")");
  if (as_written.find('\\') != std::string::npos) r.Fail(jp, "the path holds a backslash (use \"/\")");
  if (as_written.front() == '/') r.Fail(jp, "the path is absolute; give it relative to this scenario file");
  return std::filesystem::path(file).parent_path() / std::filesystem::path(as_written);
}

}  // namespace

GpuRunScenario ParseGpuRunScenario(const nlohmann::json& doc, const std::string& file) {
  const JsonReader r(file);
  GpuRunScenario sc;
  sc.file = file;
  sc.title = r.OpenScenario(doc, "gpu_run", 1, {"recording", "compare", "scene"});
  r.Require(doc, "", "recording");
  sc.recording_path = RecordingPath(r, doc, file, "recording", sc.recording);
  if (doc.contains("compare")) sc.compare_path = RecordingPath(r, doc, file, "compare", sc.compare);
  if (doc.contains("scene")) {
    const std::string scene = r.String(doc["scene"], "/scene");
    if (scene != "replay" && scene != "warps") r.Fail("/scene", "expected \"replay\" or \"warps\", found \"" + scene + "\"");
    sc.warps = scene == "warps";
  }
  return sc;
}

GpuRunScenario LoadGpuRunScenario(const std::filesystem::path& path) { return ParseGpuRunScenario(ReadJsonFile(path), path.string()); }

}  // namespace bw::data
