// See fill_shader.h.
#include "app/fill_shader.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include <cstdio>
#include <utility>
#include <vector>

#include "app/gl_program.h"
#include "app/shaders.h"

namespace bw::app {

FillShader::~FillShader() {
  if (program_) glDeleteProgram(program_);
}

void FillShader::Callback(const ImDrawList*, const ImDrawCmd* cmd) {
  auto* self = static_cast<FillShader*>(cmd->UserCallbackData);
  if (self->failed_) return;
  GLint current = 0;
  glGetIntegerv(GL_CURRENT_PROGRAM, &current);
  const auto imgui = static_cast<unsigned>(current);
  if (imgui == 0 || imgui == self->program_) return;  // no backend program bound, or ours already is
  if (imgui != self->imgui_program_) {  // first use (the backend creates its program on its first frame)
    std::vector<std::pair<int, const char*>> attributes;
    for (const char* name : {"Position", "UV", "Color"})
      if (const GLint loc = glGetAttribLocation(imgui, name); loc >= 0) attributes.emplace_back(loc, name);
    std::string log;
    if (self->program_) glDeleteProgram(self->program_);
    self->program_ = LinkProgram("fill", shaders::kFillVert, shaders::kFillFrag, attributes, &log);
    if (!self->program_) {
      self->failed_ = true;
      std::fprintf(stderr, "warning: flat fills drawn with ImGui's program: %s\n", log.c_str());
      return;
    }
    self->imgui_program_ = imgui;
    self->loc_imgui_proj_ = glGetUniformLocation(imgui, "ProjMtx");
    self->loc_proj_ = glGetUniformLocation(self->program_, "ProjMtx");
  }
  GLfloat projection[16];
  glGetUniformfv(imgui, self->loc_imgui_proj_, projection);
  glUseProgram(self->program_);
  glUniformMatrix4fv(self->loc_proj_, 1, GL_FALSE, projection);
}

}  // namespace bw::app
