// Exports; see export.h.
#include "app/export.h"
#include "data/json_file.h"

#include <GL/gl.h>
#include <stb_image_write.h>

#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/paths.h"
#include "app/platform.h"

namespace bw::app {

std::string WritePixelsPng(const std::string& path, int x, int y, int w, int h) {
  std::vector<unsigned char> pixels(static_cast<size_t>(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  stbi_flip_vertically_on_write(1);  // GL's origin is bottom-left
  std::string bytes;  // encoded in memory, then written atomically
  const auto append = [](void* ctx, void* data, int size) {
    static_cast<std::string*>(ctx)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(append, &bytes, w, h, 4, pixels.data(), w * 4)) return path + ": not saved: PNG encoding failed";
  return platform::SaveUserFile(path, bytes);  // desktop: the file; web: a download
}

namespace {

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Save(const std::string& path, const std::string& bytes) { return platform::SaveUserFile(path, bytes); }

}  // namespace

std::string ExportPanelsCsv(const AppState& s, const std::string& path) {
  const auto* cur = s.Current();
  if (!cur) return path + ": not saved: nothing is open";
  std::string csv = "section,name,value\n";
  for (const auto& sec : cur->Panels(s.ui.event, "en")) {
    std::string cols;
    for (size_t i = 1; i < sec.columns.size(); ++i) cols += (i > 1 ? "|" : "") + sec.columns[i];
    for (const auto& r : sec.rows) {
      std::string v = r.value;
      for (auto& c : v)
        if (c == '\t') c = '|';
      csv += CsvField(sec.title) + "," + CsvField(r.name) + "," + CsvField(cols.empty() ? v : cols + ": " + v) + "\n";
    }
  }
  return Save(path, csv);
}

std::string ExportTraceJson(const AppState& s, const std::string& path) {
  const auto* cur = s.Current();
  if (!cur) return path + ": not saved: nothing is open";
  nlohmann::json j;
  j["file"] = cur->File();
  j["kind"] = cur->Kind();
  j["current_event"] = s.ui.event;
  j["events"] = nlohmann::json::array();
  for (int e = 0; e < cur->EventCount(); ++e) j["events"].push_back(cur->EventLabel(e));
  j["quantities_at_current_event"] = cur->QuantitiesAt(s.ui.event);
  return Save(path, data::DumpJson(j, 2) + "\n");
}

std::string ExportStem(const AppState& s) {
  std::string stem = "blockwise";
  if (s.OnEndCard()) {
    // The end card shows the course, not its last step (whose name its PNG had).
    stem += "-" + (s.model.course->course.id.empty() ? std::string("course") : s.model.course->course.id) + "-end";
  } else if (const auto* st = s.CurrentStep()) {
    const std::string& lesson_id = s.model.lesson->lesson.id;
    // Step ids usually carry the lesson id ("RC-T3/b2"); the lesson id is not repeated.
    stem += st->id.rfind(lesson_id + "/", 0) == 0 || lesson_id.empty() ? "-" + st->id : "-" + lesson_id + "-" + st->id;
  } else if (const auto* cur = s.Current()) {
    const bool edited = cur->File() == "(editor)";
    const std::string file = edited ? s.ui.opened_path : cur->File();
    stem += "-" + std::filesystem::path(file).stem().string() + (edited ? "-edited" : "") + "-e" + std::to_string(s.ui.event + 1);
  }
  for (auto& c : stem) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '/') c = '-';
    else if (u < 0x80 && !std::isalnum(u) && c != '-' && c != '_' && c != '.') c = '_';
  }
  return stem;
}

std::string ExportPath(const AppState& s, const std::string& suffix) {
  const std::filesystem::path dir = s.options.export_dir.empty() ? DefaultExportDir() : std::filesystem::path(s.options.export_dir);
  std::error_code ec;
  return (std::filesystem::absolute(dir, ec) / (ExportStem(s) + suffix)).lexically_normal().string();
}

std::string MakeExportFolder(const AppState& s) {
  const std::filesystem::path folder = std::filesystem::path(ExportPath(s, "")).parent_path();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  return ec ? folder.string() + ": cannot create the export folder: " + ec.message() : "";
}

}  // namespace bw::app
