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
};

// Rebuilds the ImGui font atlas (call before NewFrame; the GL texture is recreated by the backend).
// `texts` are every string that can appear on screen; their characters form the glyph ranges.
// `diagram_px` (0 = none) bakes a fourth size for the diagram's labels, so they stay sharp at any scale.
// `chrome_px` (0 = the base size) bakes the top bar's and timeline's size.
Fonts LoadFonts(float base_px, const std::vector<std::string>& texts, float diagram_px = 0, float chrome_px = 0);

// Characters in `text` that the loaded body font has no glyph for (tests: glyph coverage).
std::vector<unsigned> MissingGlyphs(const Fonts& fonts, const std::string& text);

}  // namespace bw::app
