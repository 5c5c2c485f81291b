// The P heatmap renderer; see heatmap.h.
#include "app/heatmap.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "app/gl_program.h"
#include "app/shaders.h"

namespace bw::app {

std::vector<float> HeatmapMipLevel(const float* values, int rows, int cols, int* out_rows, int* out_cols) {
  const int r2 = std::max(1, rows / 2), c2 = std::max(1, cols / 2);
  std::vector<float> out(static_cast<size_t>(r2) * c2);
  for (int i = 0; i < r2; ++i) {
    const int i0 = i * rows / r2, i1 = i + 1 == r2 ? rows : (i + 1) * rows / r2;
    for (int j = 0; j < c2; ++j) {
      const int j0 = j * cols / c2, j1 = j + 1 == c2 ? cols : (j + 1) * cols / c2;
      double sum = 0;
      for (int a = i0; a < i1; ++a)
        for (int b = j0; b < j1; ++b) sum += values[static_cast<size_t>(a) * cols + b];
      out[static_cast<size_t>(i) * c2 + j] = static_cast<float>(sum / ((i1 - i0) * (j1 - j0)));
    }
  }
  *out_rows = r2;
  *out_cols = c2;
  return out;
}

HeatmapRenderer::~HeatmapRenderer() {
  if (texture_) glDeleteTextures(1, &texture_);
  if (vbo_) glDeleteBuffers(1, &vbo_);
  if (vao_) glDeleteVertexArrays(1, &vao_);
  if (program_) glDeleteProgram(program_);
}

std::string HeatmapRenderer::Init() {
  std::string log;
  program_ = LinkProgram("heatmap", shaders::kHeatmapVert, shaders::kHeatmapFrag, {{0, "a_pos"}, {1, "a_uv"}}, &log);
  if (!program_) return log;
  loc_values_ = glGetUniformLocation(program_, "u_values");
  loc_decades_ = glGetUniformLocation(program_, "u_decades");
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glGenTextures(1, &texture_);
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_texture_);
  return "";
}

void HeatmapRenderer::Upload(const view::Heatmap& h) {
  const int v_rows = h.ValueRows(), v_cols = h.ValueCols();   // a reduced copy's own size
  if (uploaded_ == h.values && up_rows_ == v_rows && up_cols_ == v_cols) return;
  GLint prev = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prev);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, v_cols, v_rows, 0, GL_RED, GL_FLOAT, h.values);
  // The mip chain, averaged here (no glGenerateMipmap: WebGL 2 cannot for R32F), down to 1 × 1.
  std::vector<float> level;
  const float* src = h.values;
  int rows = v_rows, cols = v_cols, n = 0;
  while (rows > 1 || cols > 1) {
    level = HeatmapMipLevel(src, rows, cols, &rows, &cols);
    glTexImage2D(GL_TEXTURE_2D, ++n, GL_R32F, cols, rows, 0, GL_RED, GL_FLOAT, level.data());
    src = level.data();  // the next level reads this one (HeatmapMipLevel copies before we overwrite it)
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, n);
  // R32F is not linearly filterable in WebGL 2: the nearest mip level of CPU averages instead.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);  // small matrices: crisp cells
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(prev));
  uploaded_ = h.values;
  ++uploads_;
  up_rows_ = v_rows;
  up_cols_ = v_cols;
}

bool HeatmapRenderer::Draw(ImDrawList* dl, const view::Heatmap& h, ImVec2 p0, ImVec2 p1, float decades) {
  if (!ready() || h.rows <= 0 || h.cols <= 0 || !h.values) return false;
  if (h.ValueRows() > max_texture_ || h.ValueCols() > max_texture_) return false;
  Upload(h);
  // Pixel rectangle → normalised device coordinates of the frame being drawn.
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const auto nx = [&](float x) { return 2.0f * x / size.x - 1.0f; };
  const auto ny = [&](float y) { return 1.0f - 2.0f * y / size.y; };
  const float q[16] = {nx(p0.x), ny(p0.y), 0, 0, nx(p1.x), ny(p0.y), 1, 0,
                       nx(p0.x), ny(p1.y), 0, 1, nx(p1.x), ny(p1.y), 1, 1};
  std::copy(q, q + 16, quad_);
  decades_ = decades;
  const ImVec2 fbs = ImGui::GetIO().DisplayFramebufferScale;
  fb_scale_x_ = fbs.x, fb_scale_y_ = fbs.y;
  fb_height_ = size.y * fbs.y;
  dl->AddCallback(&HeatmapRenderer::Callback, this);
  dl->AddCallback(ImDrawCallback_ResetRenderState, nullptr);
  return true;
}

std::uint64_t HeatmapRenderer::Fingerprint(const ImDrawCmd& cmd) {
  const auto* self = static_cast<const HeatmapRenderer*>(cmd.UserCallbackData);
  struct {
    float quad[16];
    float decades, fb_height;
    std::uint64_t uploads, texture;
  } what{};
  std::copy(self->quad_, self->quad_ + 16, what.quad);
  what.decades = self->decades_;
  what.fb_height = self->fb_height_;
  what.uploads = self->uploads_;
  what.texture = self->texture_;
  return std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(&what), sizeof what));
}

void HeatmapRenderer::Callback(const ImDrawList*, const ImDrawCmd* cmd) {
  auto* self = static_cast<HeatmapRenderer*>(cmd->UserCallbackData);
  // Clip like ImGui does: the heatmap scrolls with its panel and never spills over its edges.
  const ImVec4 c = cmd->ClipRect;
  glEnable(GL_SCISSOR_TEST);
  glScissor(static_cast<GLint>(c.x * self->fb_scale_x_), static_cast<GLint>(self->fb_height_ - c.w * self->fb_scale_y_),
            static_cast<GLsizei>((c.z - c.x) * self->fb_scale_x_), static_cast<GLsizei>((c.w - c.y) * self->fb_scale_y_));
  glUseProgram(self->program_);
  glBindVertexArray(self->vao_);
  glBindBuffer(GL_ARRAY_BUFFER, self->vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof self->quad_, self->quad_, GL_STREAM_DRAW);
  glEnableVertexAttribArray(0);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), nullptr);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 4 * sizeof(float), reinterpret_cast<void*>(2 * sizeof(float)));
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, self->texture_);
  glUniform1i(self->loc_values_, 0);
  glUniform1f(self->loc_decades_, self->decades_);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

}  // namespace bw::app
