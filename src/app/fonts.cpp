// Font atlas building (Dear ImGui + FreeType on the desktop, stb_truetype on the web); see fonts.h.
#include "app/fonts.h"

#include "app/platform.h"
#include "view/scene.h"

#include <imgui.h>
#ifdef IMGUI_ENABLE_FREETYPE  // desktop: libimgui-dev's FreeType builder; web: ImGui's stb_truetype
#include <imgui_freetype.h>
#endif
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <fstream>
#include <iterator>
#include <set>
#include <vector>

namespace bw::app {

// FindCjkFont (fontconfig) is the desktop's: platform_glfw.cpp.

Fonts LoadFonts(float base_px, const std::vector<std::string>& texts, float diagram_px, float chrome_px) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
#ifdef IMGUI_ENABLE_FREETYPE
  io.Fonts->FontBuilderIO = ImGuiFreeType::GetBuilderForFreeType();
#endif

  // Glyph ranges from the strings actually shown, plus printable ASCII for typed input.
  ImFontGlyphRangesBuilder builder;
  builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
  for (const auto& t : texts) builder.AddText(t.c_str(), t.c_str() + t.size());
  // Symbols that numbers and diagrams use whatever the model holds (α = e^{m−m'}, Δ, ±∞ …).
  builder.AddText("0123456789.,:;+-=()[]/\u2212\u221e\u2248\u2192\u00d7\u00b7\u03a3\u03b1\u0394\u2260\u2014\u2026\u25b6\u25c0\u275a");
  // The state badges (view::StateBadge) and the wrong mark: drawn whatever the texts hold.
  for (auto st : {view::TileState::kPending, view::TileState::kInSram, view::TileState::kProcessed, view::TileState::kMasked,
                  view::TileState::kWritten, view::TileState::kNotWritten, view::TileState::kNotStored})
    builder.AddText(view::StateBadge(st));
  // The atlas keeps a pointer to the ranges: they must outlive it (static storage, rebuilt here).
  static ImVector<ImWchar> ranges;
  ranges.clear();
  builder.BuildRanges(&ranges);

  Fonts fonts;
  // The face's bytes come through the platform seam (desktop: fontconfig's file; web: the subset).
  platform::FontBytes file = platform::CjkFontBytes();
  ImFontConfig cfg;
  cfg.FontNo = file.index;
  cfg.OversampleH = 1;
  cfg.PixelSnapH = true;
  fonts.body_px = base_px;
  fonts.text_px = base_px * 1.3f;
  fonts.large_px = base_px * 1.6f;
  // The .ttc is ~19 MB: read it once, share it between the three sizes, and drop it (and the
  // atlas's other build inputs) once the glyphs are baked.
  std::vector<char> ttf = std::move(file.bytes);
  if (!ttf.empty()) {
    cfg.FontDataOwnedByAtlas = false;
    const int n = static_cast<int>(ttf.size());
    fonts.body = io.Fonts->AddFontFromMemoryTTF(ttf.data(), n, fonts.body_px, &cfg, ranges.Data);
    fonts.text = io.Fonts->AddFontFromMemoryTTF(ttf.data(), n, fonts.text_px, &cfg, ranges.Data);
    fonts.large = io.Fonts->AddFontFromMemoryTTF(ttf.data(), n, fonts.large_px, &cfg, ranges.Data);
    fonts.chrome_px = chrome_px > 0 ? chrome_px : base_px;
    fonts.chrome = io.Fonts->AddFontFromMemoryTTF(ttf.data(), n, fonts.chrome_px, &cfg, ranges.Data);
    if (diagram_px > 0) {
      fonts.diagram_px = diagram_px;
      fonts.diagram = io.Fonts->AddFontFromMemoryTTF(ttf.data(), n, diagram_px, &cfg, ranges.Data);
    }
  }
  if (!fonts.body || !fonts.text || !fonts.large) {
    fonts.error = "Noto Sans CJK was not found (Debian package fonts-noto-cjk); Chinese text cannot be shown.";
    io.Fonts->Clear();
    ImFontConfig def;
    def.SizePixels = base_px;
    fonts.body = io.Fonts->AddFontDefault(&def);
    def.SizePixels = base_px * 1.3f;
    fonts.text = io.Fonts->AddFontDefault(&def);
    def.SizePixels = base_px * 1.6f;
    fonts.large = io.Fonts->AddFontDefault(&def);
    fonts.chrome = fonts.body;
    fonts.chrome_px = base_px;
  }
  io.Fonts->Build();
  io.Fonts->ClearInputData();  // glyphs are baked; the TTF bytes and configs are no longer needed
  if (file.subset && fonts.error.empty()) {  // a user's own file may use characters the subset lacks: say which
    std::set<unsigned> missing;
    for (const auto& t : texts)
      for (unsigned c : MissingGlyphs(fonts, t)) missing.insert(c);
    if (!missing.empty()) {
      fonts.missing = std::to_string(missing.size()) + " characters are not in the web font (they show as boxes):";
      int shown = 0;
      for (unsigned c : missing) {
        if (++shown > 24) {
          fonts.missing += " \u2026";
          break;
        }
        char buf[5] = {};
        ImTextCharToUtf8(buf, c);
        fonts.missing += std::string(" ") + buf;
      }
    }
  }
  return fonts;
}

std::vector<unsigned> MissingGlyphs(const Fonts& fonts, const std::string& text) {
  std::vector<unsigned> missing;
  const char* s = text.c_str();
  const char* end = s + text.size();
  while (s < end) {
    unsigned int c = 0;
    const int len = ImTextCharFromUtf8(&c, s, end);
    if (len <= 0) break;
    s += len;
    if (c < 0x20) continue;
    if (!fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(c))) missing.push_back(c);
  }
  return missing;
}

}  // namespace bw::app
