// The P heatmap: our own OpenGL program (shaders/heatmap.vert, shaders/heatmap.frag, embedded at
// build time) draws the probability matrix from a float texture through a colour map, inside the
// ImGui frame via an ImDrawList callback. The texture is uploaded once per matrix, R32F with a mip
// chain averaged here on the CPU (HeatmapMipLevel) and sampled NEAREST_MIPMAP_NEAREST: legal in
// OpenGL 3.0 and WebGL 2 alike (WebGL 2 can neither filter R32F linearly nor generate its mipmaps),
// so N = 4096 scrubs smoothly; the current tile's outline is drawn by ImGui on top.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "view/scenario_model.h"

namespace bw::app {

// One mip level down: rows × cols → max(1, rows/2) × max(1, cols/2), each texel the mean of the
// source texels it covers (2 × 2; an odd last row or column folds into the last texel). Exact zeros
// (masked) stay zero only where every covered texel is zero. Row-major, `rows · cols` floats.
std::vector<float> HeatmapMipLevel(const float* values, int rows, int cols, int* out_rows, int* out_cols);

class HeatmapRenderer {
 public:
  HeatmapRenderer() = default;
  HeatmapRenderer(const HeatmapRenderer&) = delete;
  HeatmapRenderer& operator=(const HeatmapRenderer&) = delete;
  ~HeatmapRenderer();

  // Compiles the program; call with the GL context current. Returns "" or the compile/link log.
  std::string Init();
  bool ready() const { return program_ != 0; }
  // Queues the heatmap of `h` into `dl` over the screen rectangle [p0, p1] (pixels). Returns false
  // (and draws nothing) when the matrix does not fit in a texture.
  bool Draw(ImDrawList* dl, const view::Heatmap& h, ImVec2 p0, ImVec2 p1, float decades);
  // Partial redraw (damage.h): whether `cmd` is a heatmap callback, and a fingerprint of what that
  // callback draws (its rectangle, scale, texture and the upload it holds); equal fingerprints, same pixels.
  static bool IsCallback(const ImDrawCmd& cmd) { return cmd.UserCallback == &Callback; }
  static std::uint64_t Fingerprint(const ImDrawCmd& cmd);

 private:
  static void Callback(const ImDrawList* dl, const ImDrawCmd* cmd);
  void Upload(const view::Heatmap& h);

  unsigned program_ = 0, vao_ = 0, vbo_ = 0, texture_ = 0;
  int loc_values_ = -1, loc_decades_ = -1;
  const float* uploaded_ = nullptr;
  int up_rows_ = 0, up_cols_ = 0;
  std::uint64_t uploads_ = 0;  // textures uploaded so far: a new picture even where `uploaded_` is reused
  int max_texture_ = 0;
  // What the callback draws (one heatmap per frame).
  float quad_[16] = {};
  float decades_ = 6;
  float fb_scale_x_ = 1, fb_scale_y_ = 1, fb_height_ = 0;  // to turn ImGui clip rects into glScissor
};

}  // namespace bw::app
