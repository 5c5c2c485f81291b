// Glyphs on demand; see glyphs.h.
#include "app/glyphs.h"

#include "app/shown.h"

namespace bw::app {

std::vector<std::string> RuntimeTexts(const AppState& s) {
  std::vector<std::string> t = s.options.recent;
  const Editor& ed = s.ui.editor;
  for (const std::string* p : {&s.ui.open_path, &s.ui.status, &s.ui.toast, &s.ui.error, &s.ui.opened_path,
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

}  // namespace bw::app
