// No #version line: the platform prefixes its own (platform::ShaderPrelude: GLSL 1.30 or GLSL ES 3.00).
// Flat fills: the vertex colour, with no texture fetch. ImGui's own fragment shader multiplies the
// colour by a sample of the font atlas's white pixel (1.0), so the pixels are the same; on software
// OpenGL (llvmpipe) the fetch is half the cost of a filled pixel.
in vec4 Frag_Color;
out vec4 Out_Color;
void main() {
  Out_Color = Frag_Color;
}
