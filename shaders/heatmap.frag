// No #version line: the platform prefixes its own (platform::ShaderPrelude: GLSL 1.30 or GLSL ES 3.00).
// Heatmap of attention probabilities P (one float per texel, in [0, 1]) through a colour map.
// Probabilities span many decades, so the colour follows log10(p) over u_decades decades below 1;
// exactly 0 (masked, or no weight) is drawn in a flat grey so it never looks like "small".
// The texture is mipmapped: at N = 4096 in a few hundred pixels the minified average stays smooth.
uniform sampler2D u_values;
uniform float u_decades;
in vec2 v_uv;
out vec4 frag_color;

// Viridis through five of its published anchor colours (#440154 #3b528b #21918c #5ec962 #fde725),
// linearly between them: perceptually ordered, readable in greyscale and by most colour-blind viewers.
vec3 viridis(float t) {
  vec3 a[5] = vec3[5](vec3(0.267, 0.005, 0.329), vec3(0.231, 0.322, 0.545), vec3(0.129, 0.569, 0.549),
                      vec3(0.369, 0.788, 0.384), vec3(0.992, 0.906, 0.145));
  float x = clamp(t, 0.0, 1.0) * 4.0;
  int i = int(min(floor(x), 3.0));
  return mix(a[i], a[i + 1], x - float(i));
}

void main() {
  float p = texture(u_values, v_uv).r;
  if (p <= 0.0) {
    frag_color = vec4(0.82, 0.82, 0.82, 1.0);
    return;
  }
  float t = clamp(1.0 + log(p) / (log(10.0) * u_decades), 0.0, 1.0);
  frag_color = vec4(viridis(t), 1.0);
}
