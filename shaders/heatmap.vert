// No #version line: the platform prefixes its own (platform::ShaderPrelude: GLSL 1.30 or GLSL ES 3.00).
// Heatmap quad: positions in normalised device coordinates, texture coordinates 0–1.
in vec2 a_pos;
in vec2 a_uv;
out vec2 v_uv;
void main() {
  v_uv = a_uv;
  gl_Position = vec4(a_pos, 0.0, 1.0);
}
