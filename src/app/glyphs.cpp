// Glyphs on demand; see glyphs.h.
#include "app/glyphs.h"

#include <filesystem>
#include <map>

#include <nlohmann/json.hpp>

#include "data/json_file.h"
#include "session/shown.h"

namespace bw::app {

std::vector<std::string> RuntimeTexts(const AppState& s) {
  std::vector<std::string> t = s.options.recent;
  const Editor& ed = s.ui.editor;
  for (const std::string* p : {&s.ui.open_path, &s.ui.library_filter, &s.ui.status, &s.ui.toast, &s.ui.error, &s.ui.opened_path,
                               &s.options.export_dir, &ed.scores, &ed.values, &ed.blocks, &ed.save_path, &ed.error})
    if (!p->empty()) t.push_back(*p);
  if (s.ui.answer_typed[0]) t.emplace_back(s.ui.answer_typed.data());  // a typed answer (full-width digits)
  // And whatever the window shows now: a string no model's Texts() lists still gets its glyphs
  // (and a character the font lacks is counted in missing_glyphs, not drawn as "?" unnoticed).
  for (auto& v : VisibleTexts(s)) t.push_back(std::move(v));
  return t;
}

std::set<unsigned> MissingGlyphs(const Fonts& fonts, const std::vector<std::string>& texts) {
  std::set<unsigned> missing;
  for (const auto& t : texts)
    for (unsigned c : MissingGlyphs(fonts, t)) missing.insert(c);
  return missing;
}

void RequestGlyphs(AppState& s, const Fonts& fonts, std::set<unsigned>& tried) {
  if (!fonts.body) return;
  const std::set<unsigned> missing = MissingGlyphs(fonts, RuntimeTexts(s));
  s.ui.missing_glyphs = static_cast<int>(missing.size());
  for (unsigned c : missing)
    if (tried.insert(c).second) s.ui.fonts_dirty = true;
}

const std::vector<std::string>& FolderTexts(FolderTextCache& cache, const std::string& opened_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path folder = fs::path(opened_path).parent_path();
  auto [it, fresh] = cache.try_emplace(folder.string());
  if (!fresh || opened_path.empty()) return it->second;
  std::vector<std::string>& out = it->second;
  const auto collect = [&](const nlohmann::json& j, auto&& self) -> void {
    if (j.is_string()) out.push_back(j.get<std::string>());
    else if (j.is_structured())
      for (const auto& v : j) self(v, self);
  };
  for (const fs::path& dir : {folder, folder / "scenarios"})
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json" || !e.is_regular_file(ec) || e.file_size(ec) > (1u << 20)) continue;
      // Through the loaders' reader: a regular file, nesting bounded (kMaxJsonDepth), so `collect`
      // recurses at most that deep; a file the loaders refuse (U+0000, bad JSON) adds nothing.
      try {
        collect(data::ReadJsonFile(e.path()), collect);
      } catch (const std::exception&) {
      }
    }
  return out;
}

bool AtlasCovers(const Fonts& fonts, const std::vector<std::string>& texts, float base_px, float diagram_px, float chrome_px) {
  if (!fonts.body || !fonts.error.empty()) return false;
  if (fonts.body_px != base_px || fonts.chrome_px != (chrome_px > 0 ? chrome_px : base_px)) return false;
  if (diagram_px > 0 ? fonts.diagram_px != diagram_px : fonts.diagram != nullptr) return false;
  return MissingGlyphs(fonts, texts).empty();
}

}  // namespace bw::app
