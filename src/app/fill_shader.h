// Flat fills without the font atlas fetch (issue 16). Dear ImGui draws everything with one program:
// vertex colour × a texture sample, where a fill samples the atlas's white pixel (1.0). On software
// OpenGL (Mesa's llvmpipe) that fetch is about half the cost of each filled pixel: one full-screen
// quad at 1920 × 1080 took 14.9 ms with ImGui's program and blending, 7.7 ms with colour only
// (docs/performance.md). The painter queues the diagram's opaque fills first, between this
// program's callback and ImDrawCallback_ResetRenderState; the picture is the same pixel for pixel.
#pragma once

#include <imgui.h>

#include <string>

namespace bw::app {

class FillShader {
 public:
  FillShader() = default;
  FillShader(const FillShader&) = delete;
  FillShader& operator=(const FillShader&) = delete;
  ~FillShader();

  // The ImDrawCallback that swaps the ImGui OpenGL3 backend's program for the colour-only one
  // (shaders/fill.vert, fill.frag): same attribute locations (asked of the backend's program, which
  // is current when a callback runs) and the same projection matrix; blending and the scissor stay
  // as the backend set them. The backend's next ImDrawCallback_ResetRenderState restores its own
  // program. The first call links the program; if that fails, the warning is printed once and the
  // callback does nothing from then on (ImGui's program draws the fills: slower, same pixels).
  // UserCallbackData: this FillShader. Call only with this object's GL context current.
  static void Callback(const ImDrawList* dl, const ImDrawCmd* cmd);

 private:
  unsigned program_ = 0;         // ours
  unsigned imgui_program_ = 0;   // the backend's, whose attribute locations ours was linked with
  int loc_proj_ = -1, loc_imgui_proj_ = -1;
  bool failed_ = false;
};

}  // namespace bw::app
