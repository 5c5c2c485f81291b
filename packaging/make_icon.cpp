// Writes the Blockwise icon as SVG and as PNGs from one description (below), so the two never
// disagree and no SVG renderer is needed at build time. The icon is the picture the app teaches:
// a 4 × 4 grid of score tiles under a causal mask, the tile being computed outlined in orange.
// Usage: make_icon OUT_DIR SIZE…   writes OUT_DIR/blockwise.svg and OUT_DIR/blockwise-SIZE.png.
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Rect {
  float x0, y0, x1, y1;   // in the 64 × 64 view box
  unsigned rgb;           // 0xRRGGBB, opaque
};

std::vector<Rect> Icon() {
  std::vector<Rect> r;
  r.push_back({0, 0, 64, 64, 0x263238});  // background
  constexpr float kOrigin = 6, kTile = 12, kGap = 1.5f;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const float x = kOrigin + static_cast<float>(j) * (kTile + kGap), y = kOrigin + static_cast<float>(i) * (kTile + kGap);
      const bool current = i == 2 && j == 1;
      if (current) r.push_back({x - 1.5f, y - 1.5f, x + kTile + 1.5f, y + kTile + 1.5f, 0xff7043});  // outline
      r.push_back({x, y, x + kTile, y + kTile, j > i ? 0x455a64u : (current ? 0xbbdefbu : 0x64b5f6u)});
    }
  return r;
}

std::string Svg(const std::vector<Rect>& rects) {
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\" viewBox=\"0 0 64 64\">\n";
  char buf[160];
  for (const auto& r : rects) {
    std::snprintf(buf, sizeof buf, "  <rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#%06x\"/>\n", r.x0, r.y0,
                  r.x1 - r.x0, r.y1 - r.y0, r.rgb);
    s += buf;
  }
  return s + "</svg>\n";
}

// Each pixel is covered by each rectangle by the exact area of their overlap (box-filtered edges).
std::vector<unsigned char> Raster(const std::vector<Rect>& rects, int size) {
  std::vector<float> px(static_cast<size_t>(size) * size * 3, 0.0f);
  const float scale = static_cast<float>(size) / 64.0f;
  for (const auto& r : rects) {
    const float c[3] = {static_cast<float>((r.rgb >> 16) & 255), static_cast<float>((r.rgb >> 8) & 255), static_cast<float>(r.rgb & 255)};
    for (int y = 0; y < size; ++y)
      for (int x = 0; x < size; ++x) {
        const float cx = std::max(0.0f, std::min(static_cast<float>(x + 1), r.x1 * scale) - std::max(static_cast<float>(x), r.x0 * scale));
        const float cy = std::max(0.0f, std::min(static_cast<float>(y + 1), r.y1 * scale) - std::max(static_cast<float>(y), r.y0 * scale));
        const float a = cx * cy;
        float* p = &px[(static_cast<size_t>(y) * size + x) * 3];
        for (int k = 0; k < 3; ++k) p[k] = p[k] * (1 - a) + c[k] * a;
      }
  }
  std::vector<unsigned char> out(px.size());
  for (size_t i = 0; i < px.size(); ++i) out[i] = static_cast<unsigned char>(std::clamp(px[i] + 0.5f, 0.0f, 255.0f));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: make_icon OUT_DIR SIZE...\n");
    return 2;
  }
  const std::string dir = argv[1];
  const auto rects = Icon();
  std::ofstream(dir + "/blockwise.svg") << Svg(rects);
  for (int i = 2; i < argc; ++i) {
    const int size = std::atoi(argv[i]);
    if (size < 16 || size > 1024) return std::fprintf(stderr, "make_icon: bad size %s\n", argv[i]), 2;
    const auto pixels = Raster(rects, size);
    const std::string path = dir + "/blockwise-" + std::to_string(size) + ".png";
    if (!stbi_write_png(path.c_str(), size, size, 3, pixels.data(), size * 3)) return std::fprintf(stderr, "make_icon: cannot write %s\n", path.c_str()), 1;
  }
  return 0;
}
