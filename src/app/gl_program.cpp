// See gl_program.h.
#include "app/gl_program.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include "app/platform.h"

namespace bw::app {

namespace {

GLuint Compile(GLenum kind, const char* src, const std::string& name, std::string* log) {
  const GLuint s = glCreateShader(kind);
  const std::string prelude = platform::ShaderPrelude();
  const char* parts[2] = {prelude.c_str(), src};
  glShaderSource(s, 2, parts, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char buf[2048];
    glGetShaderInfoLog(s, sizeof buf, nullptr, buf);
    *log += name + (kind == GL_VERTEX_SHADER ? ".vert: " : ".frag: ") + buf;
    glDeleteShader(s);
    return 0;
  }
  return s;
}

}  // namespace

unsigned LinkProgram(const std::string& name, const char* vert, const char* frag,
                     const std::vector<std::pair<int, const char*>>& attributes, std::string* log) {
  const GLuint vs = Compile(GL_VERTEX_SHADER, vert, name, log);
  const GLuint fs = Compile(GL_FRAGMENT_SHADER, frag, name, log);
  if (!vs || !fs) {
    if (vs) glDeleteShader(vs);
    if (fs) glDeleteShader(fs);
    return 0;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  for (const auto& [location, attribute] : attributes) glBindAttribLocation(program, static_cast<GLuint>(location), attribute);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    char buf[2048];
    glGetProgramInfoLog(program, sizeof buf, nullptr, buf);
    glDeleteProgram(program);
    *log += name + " program: " + buf;
    return 0;
  }
  return program;
}

}  // namespace bw::app
