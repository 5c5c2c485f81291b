// Font atlas building (Dear ImGui + FreeType on the desktop, stb_truetype on the web); see fonts.h.
#include "app/fonts.h"

#include "app/platform.h"
#include "view/scene.h"

#include <imgui.h>
#ifdef IMGUI_ENABLE_FREETYPE  // desktop: libimgui-dev's FreeType builder; web: ImGui's stb_truetype
#include <imgui_freetype.h>
#endif
#include <imgui_internal.h>  // ImTextCharFromUtf8

#include <algorithm>
#include <cmath>
#include <fstream>
#include <cstdio>
#include <set>
#include <utility>
#include <vector>

namespace bw::app {

// FindCjkFont (fontconfig) is the desktop's: platform_glfw.cpp.

namespace platform {

FontBytes::FontBytes(FontBytes&& o) noexcept
    : data(std::exchange(o.data, nullptr)), size(std::exchange(o.size, 0)), index(o.index),
      source(std::move(o.source)), subset(o.subset) {}

FontBytes::~FontBytes() {
  if (data) ImGui::MemFree(data);
}

FontBytes ReadFontFile(const std::string& path) {
  FontBytes out;
  out.source = path;
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  const std::streamsize size = in ? static_cast<std::streamsize>(in.tellg()) : 0;
  if (size <= 0) return out;
  out.data = static_cast<char*>(ImGui::MemAlloc(static_cast<std::size_t>(size)));
  in.seekg(0);
  if (!in.read(out.data, size)) {
    ImGui::MemFree(std::exchange(out.data, nullptr));
    return out;
  }
  out.size = static_cast<std::size_t>(size);
  return out;
}

}  // namespace platform

namespace {

// The characters every atlas holds whatever the texts are, beside ImGui's default ranges.
void AddFixedGlyphs(ImFontGlyphRangesBuilder& builder) {
  // Symbols that numbers and diagrams use whatever the model holds (α = e^{m−m'}, Δ, ±∞ …).
  builder.AddText("0123456789.,:;+-=()[]/\u2212\u221e\u2248\u2192\u00d7\u00b7\u03a3\u03b1\u0394\u2260\u2014\u2026\u25b6\u25c0\u275a");
  // … and every symbol the scene builders and formulas use (src/view, src/engine): a generated text
  // of a lesson not open yet (β in a merge strip, τ in an attention diagram) then needs no rebuild.
  builder.AddText("±²µ·½×ΔΣαβδτᵀ–—“”…′ℓ←→↔∈−∘√∝∞≈≠≤≥⌈⌉⌊⌋□▸▼◆◇○✓／");
  // The state badges (view::StateBadge) and the wrong mark: drawn whatever the texts hold.
  for (auto st : {view::TileState::kPending, view::TileState::kInSram, view::TileState::kProcessed, view::TileState::kMasked,
                  view::TileState::kWritten, view::TileState::kNotWritten, view::TileState::kNotStored})
    builder.AddText(view::StateBadge(st));
  // U+0000 never goes into the ranges: the list is zero-terminated, so a range starting at 0 ended it
  // and every font failed to load (an ImGui assert; a text holding \u0000, issue 31). The loaders
  // refuse it; this keeps any other text (a typed one, a file name) from doing the same.
  builder.UsedChars[0] &= ~1u;
}

// "3 characters are not in the web font …: x (U+…)": the characters of `texts` the subset lacks, up
// to 24 of them; empty when it has them all.
std::string MissingGlyphReport(const Fonts& fonts, const std::vector<std::string>& texts) {
  std::string report;
  std::set<unsigned> missing;
  for (const auto& t : texts)
    for (unsigned c : MissingGlyphs(fonts, t)) missing.insert(c);
  if (!missing.empty()) {
    report = std::to_string(missing.size()) + " characters are not in the web font (they show as boxes):";
    int shown = 0;
    for (unsigned c : missing) {
      if (++shown > 24) {
        report += " \u2026";
        break;
      }
      // (With its code point: the character itself is drawn as the very box it reports — a new author
      // could not read which of theirs it was.)
      char buf[5] = {}, code[12] = {};
      ImTextCharToUtf8(buf, c);
      std::snprintf(code, sizeof code, "U+%04X", c);
      report += std::string(" ") + buf + " (" + code + ")";
    }
  }
  return report;
}

}  // namespace

Fonts LoadFonts(float base_px, const std::vector<std::string>& texts, float diagram_px, float chrome_px,
                const std::vector<std::string>* prefetch) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
#ifdef IMGUI_ENABLE_FREETYPE
  io.Fonts->FontBuilderIO = ImGuiFreeType::GetBuilderForFreeType();
#endif

  Fonts fonts;
  // The sizes the fields report (AtlasCovers compares them) and the ones baked, which the budget
  // below may clamp and shrink.
  fonts.body_px = base_px;
  fonts.text_px = base_px * 1.3f;
  fonts.large_px = base_px * 1.6f;
  fonts.chrome_px = chrome_px > 0 ? chrome_px : base_px;
  // The diagram's state words (0.85 em against its labels' 1.15 em) get their own bake: drawn
  // from the label size, bilinear sampling skipped the 1-pixel stroke of 一 ("读入一次" read
  // "读入 次" at 1280 × 720).
  fonts.small_px = std::max(9.0f, diagram_px > 0 ? diagram_px * (0.85f / 1.15f) : 0.6f * base_px);
  if (diagram_px > 0) fonts.diagram_px = diagram_px;
  std::vector<float> sizes = {fonts.body_px, fonts.text_px, fonts.large_px, fonts.chrome_px, fonts.small_px};
  if (diagram_px > 0) sizes.push_back(diagram_px);
  for (float& px : sizes) px = std::min(px, kMaxBakePx);

  // Glyph ranges: the fixed sets, then the characters of `texts` in order, within the budget.
  ImFontGlyphRangesBuilder builder;
  builder.AddRanges(io.Fonts->GetGlyphRangesDefault());
  AddFixedGlyphs(builder);
  int count = 0;
  for (unsigned c = 0; c <= IM_UNICODE_CODEPOINT_MAX; ++c) count += builder.GetBit(c) ? 1 : 0;
  // The texts' distinct characters, in order of first use; then the prefetch's.
  std::vector<unsigned> wanted, extra;
  {
    std::vector<bool> seen(IM_UNICODE_CODEPOINT_MAX + 1, false);
    const auto scan = [&](const std::vector<std::string>& list, std::vector<unsigned>& out) {
      for (const auto& t : list)
        for (const char *p = t.c_str(), *end = p + t.size(); p < end;) {
          unsigned int c = 0;
          const int len = ImTextCharFromUtf8(&c, p, end);
          if (len <= 0) break;
          p += len;
          if (c == 0 || c > IM_UNICODE_CODEPOINT_MAX || seen[c] || builder.GetBit(c)) continue;
          seen[c] = true;
          out.push_back(c);
        }
    };
    scan(texts, wanted);
    if (prefetch) scan(*prefetch, extra);
  }
  // The area each character takes, summed over the sizes (ink ≈ 0.75 of the size, 2 px padding).
  const auto area_per_glyph = [&](float scale) {
    double a = 0;
    for (float px : sizes) a += std::pow(px * scale * 0.75 + 2.0, 2.0);
    return a;
  };
  const int want = std::min<int>(count + static_cast<int>(wanted.size()), kMaxAtlasGlyphs);
  float scale = 1.0f;
  if (want * area_per_glyph(1.0f) > kMaxAtlasPixels)
    scale = std::max(0.5f, static_cast<float>(std::sqrt(kMaxAtlasPixels / (want * area_per_glyph(1.0f)))));
  fonts.bake_scale = scale;
  fonts.glyph_capacity = std::min(kMaxAtlasGlyphs, static_cast<int>(kMaxAtlasPixels / area_per_glyph(scale)));
  for (unsigned c : wanted) {
    if (count >= fonts.glyph_capacity) {
      ++fonts.dropped_glyphs;
      continue;
    }
    builder.SetBit(c);
    ++count;
  }
  // The prefetch only fills what room is left: a sibling file never shrinks the sizes, never drops
  // a shown character and is never reported.
  for (unsigned c : extra) {
    if (count >= fonts.glyph_capacity) break;
    builder.SetBit(c);
    ++count;
  }
  // The atlas keeps a pointer to the ranges: they must outlive it (static storage, rebuilt here).
  static ImVector<ImWchar> ranges;
  ranges.clear();
  builder.BuildRanges(&ranges);
  // The sizes baked (the fields keep the sizes asked for: AtlasCovers compares those).
  const auto bake = [&](float px) { return std::min(px, kMaxBakePx) * scale; };

  // The face's bytes come through the platform seam (desktop: fontconfig's file; web: the subset).
  platform::FontBytes file = platform::CjkFontBytes();
  ImFontConfig cfg;
  cfg.FontNo = file.index;
  cfg.OversampleH = 1;
  cfg.PixelSnapH = true;
  // The .ttc is ~19 MB: read once and shared between the sizes. ImGui 1.86 copies the bytes for
  // every font added with FontDataOwnedByAtlas = false, so the atlas owns the one buffer through the
  // first font's config and the later configs are marked as borrowing it (ClearInputData frees it
  // once, after the bake).
  if (file.data) {
    const int n = static_cast<int>(file.size);
    void* shared = file.Release();
    cfg.FontDataOwnedByAtlas = true;  // no copy on AddFont
    const auto add = [&](float px) {  // io.Fonts->Clear() above: the first config added owns the bytes
      ImFont* f = io.Fonts->AddFontFromMemoryTTF(shared, n, bake(px), &cfg, ranges.Data);
      if (io.Fonts->ConfigData.Size > 1) io.Fonts->ConfigData.back().FontDataOwnedByAtlas = false;  // borrows them
      return f;
    };
    fonts.body = add(fonts.body_px);
    fonts.text = add(fonts.text_px);
    fonts.large = add(fonts.large_px);
    fonts.chrome = add(fonts.chrome_px);
    if (diagram_px > 0) fonts.diagram = add(diagram_px);
    fonts.small = add(fonts.small_px);
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
  // The em: 一 (U+4E00) advances one em in a CJK face; the default font (no CJK) keeps 1/1.448.
  if (const ImFontGlyph* g = fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(0x4E00)); g && fonts.body->FontSize > 0)
    fonts.em_ratio = g->AdvanceX / fonts.body->FontSize;
  io.Fonts->ClearInputData();  // glyphs are baked; the TTF bytes and configs are no longer needed
  // A user's own file may use characters the web font's subset lacks: say which.
  if (file.subset && fonts.error.empty()) fonts.missing = MissingGlyphReport(fonts, texts);
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
