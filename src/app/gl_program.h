// Compiling and linking our own OpenGL programs (the P heatmap, the flat fills): the platform's
// version line first (platform::ShaderPrelude: GLSL 1.30 on the desktop, GLSL ES 3.00 on the web).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace bw::app {

// Links `vert` and `frag` into a program with each attribute bound to the given location (before
// linking). Returns the program, or 0 with the compile or link log (each line prefixed with `name`)
// appended to *log. Call with the GL context current.
unsigned LinkProgram(const std::string& name, const char* vert, const char* frag,
                     const std::vector<std::pair<int, const char*>>& attributes, std::string* log);

}  // namespace bw::app
