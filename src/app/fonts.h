// Fonts: Noto Sans CJK (found through fontconfig) rasterised by FreeType, with glyph ranges built
// from the strings the app actually shows, so Chinese never renders as '?' boxes.
// Sizes are in pixels = base size × scale; everything else in the app is in font units (em).
#pragma once

#include <string>
#include <vector>

struct ImFont;

namespace bw::app {

struct FontFile {
  std::string path;
  int index = 0;   // face index inside a .ttc collection
};

// The Noto Sans CJK SC regular face, or an empty path when fontconfig finds none.
FontFile FindCjkFont();

struct Fonts {
  ImFont* body = nullptr;    // base size
  ImFont* text = nullptr;    // 1.3 × base: lesson prose in projector and presenter modes
  ImFont* large = nullptr;   // 1.6 × base: headings and big diagram numbers
  ImFont* diagram = nullptr; // the diagram's label size (its scale follows the window, not the font)
  ImFont* chrome = nullptr;  // top bar and timeline: sized from the window (view::ChromePx), not Ctrl ±
  ImFont* small = nullptr;   // the diagram's state words (0.85/1.15 of its label size), sharp
  float body_px = 0, text_px = 0, large_px = 0, diagram_px = 0, chrome_px = 0, small_px = 0;
  // ImGui's font size is the line height (ascender − descender: ≈ 1.45 em for Noto Sans CJK); the
  // glyphs' size, the em, is a full-width ideograph's advance. em_ratio = em / font size, read from
  // the baked body font (一's advance), so the legibility rules are measured in the glyphs' ink.
  float em_ratio = 1.0f / 1.448f;
  float Em(float font_px) const { return font_px * em_ratio; }
  std::string error;         // non-empty when the CJK font could not be loaded
  // Web edition (a build-time subset of the font): the shown characters it lacks, as one line
  // ("3 characters are not in the web font: 龘 …"); empty when none are or the font is complete.
  std::string missing;
  // The atlas budget (LoadFonts): characters of `texts` left out because the atlas was full (0 =
  // none), and the most it could hold at these sizes. The caller shows them in the UI language.
  int dropped_glyphs = 0;
  int glyph_capacity = 0;
  // < 1 when the sizes asked for were baked smaller to fit the budget (the glyphs are then drawn
  // from the smaller bake, scaled up by ImGui where a size is forced).
  float bake_scale = 1.0f;
};

// The atlas budget (issue 31: a 49,000-character title baked every glyph at six sizes, 13 s and
// 1.1 GB, then aborted ImGui's packer in projector mode; font 96 at 4K overran FreeType's 256 KiB
// glyph buffer in libimgui 1.86, imgui_freetype.cpp, and corrupted the heap):
//   - no size is baked above kMaxBakePx (an ideograph of 300 px is ~207 px of ink, 171 KB of the
//     builder's 4-byte buffer);
//   - at most kMaxAtlasGlyphs characters (the shipped course uses about 2,000), taken from `texts` in
//     order (the UI's strings come first, the folder's last), the rest counted in dropped_glyphs;
//   - an estimated area of at most kMaxAtlasPixels (4096 × 16384 at 85 % packing: within ImGui's
//     32,768-row limit and every desktop GL's 16,384 texture side); past it the sizes are baked
//     smaller, down to half, then characters are dropped.
inline constexpr float kMaxBakePx = 300.0f;
inline constexpr int kMaxAtlasGlyphs = 8000;
inline constexpr double kMaxAtlasPixels = 4096.0 * 16384.0 * 0.85;

// Rebuilds the ImGui font atlas (call before NewFrame; the GL texture is recreated by the backend).
// `texts` are every string that can appear on screen; their characters form the glyph ranges.
// `diagram_px` (0 = none) bakes a fourth size for the diagram's labels, so they stay sharp at any scale.
// `chrome_px` (0 = the base size) bakes the top bar's and timeline's size.
// `prefetch` (optional): texts that may be shown later (the lesson folder's other files): their
// characters fill what room the budget leaves, and none is reported as dropped.
Fonts LoadFonts(float base_px, const std::vector<std::string>& texts, float diagram_px = 0, float chrome_px = 0,
                const std::vector<std::string>* prefetch = nullptr);

// Characters in `text` that the loaded body font has no glyph for (tests: glyph coverage).
std::vector<unsigned> MissingGlyphs(const Fonts& fonts, const std::string& text);

}  // namespace bw::app
