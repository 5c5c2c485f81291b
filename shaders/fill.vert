// No #version line: the platform prefixes its own (platform::ShaderPrelude: GLSL 1.30 or GLSL ES 3.00).
// Flat fills (app/fill_shader.h): Dear ImGui's vertex layout and projection, colour only. The
// attribute names are the ImGui OpenGL3 backend's; FillShader binds them to that program's locations.
uniform mat4 ProjMtx;
in vec2 Position;
in vec2 UV;
in vec4 Color;
out vec4 Frag_Color;
void main() {
  Frag_Color = Color;
  gl_Position = ProjMtx * vec4(Position.xy, 0.0, 1.0);
}
