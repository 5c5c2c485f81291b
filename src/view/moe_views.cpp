// MoeModel's views after the router: the training-compute estimate C_train ≈ 6·N·D with N = total and
// N = active (MOE/e6), expert parallelism (dispatch → experts → combine, copies per link, the busiest
// device), and the CPU/GPU placement (HET): routed experts in CPU memory, attention and the shared
// part in GPU HBM, the link labelled with the bytes per token. Every figure is engine/moe_plan.h's.
// [SECTION] Formatting
// [SECTION] Compute
// [SECTION] Expert parallelism
// [SECTION] CPU/GPU
#include <algorithm>

#include "view/format.h"
#include "view/moe_model.h"

namespace bw::view {

// [SECTION] Formatting -------------------------------------------------------------------------------

std::string FormatFlops(const engine::BigInt& z) {
  const std::string s = engine::ToString(z);
  if (s.size() <= 7) return FormatInt(std::stoll(s));
  // Two significant digits, rounded half up: 6,000,000,000,000,000,000,000 → "6.0×10^21".
  const engine::BigInt scale = boost::multiprecision::pow(engine::BigInt(10), static_cast<unsigned>(s.size() - 2));
  const engine::BigInt lead = (z + scale / 2) / scale;   // 10 … 100
  int exp = static_cast<int>(s.size()) - 1;
  std::string d = engine::ToString(lead);
  if (d.size() == 3) d = "10", ++exp;   // 99.5… rounded up to 100
  return d.substr(0, 1) + "." + d.substr(1, 1) + "\u00d710^" + std::to_string(exp);
}

namespace {

std::string Times(std::int64_t num, std::int64_t den) {
  return FormatDouble(static_cast<double>(num) / static_cast<double>(den)) + "\u00d7";
}

}  // namespace

// [SECTION] Compute ----------------------------------------------------------------------------------

Scene MoeModel::BuildComputeScene(const std::string& lang, const Palette& pal, bool floors) const {
  // At the floors (SceneFrame::floors) the same picture in a 40 × 15.9 em frame: every text 1.4 times
  // larger on screen; a bar too short for its figure has it beside its end. (D, a number the step is
  // about, is drawn at the key size: the bar under it starts clear of it, its foot was cut: issue 29.)
  const float kW = floors ? 40 : 56, kH = floors ? 15.9f : 22, kBarX = floors ? 12.5f : 17, kBarW = kW - kBarX - (floors ? 0.6f : 3);
  const float kTitle = floors ? 1.0f : 1.3f, kLine = floors ? 1.2f : 1.0f, x0 = floors ? 0.4f : 1;
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& est = *compute_;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.floors = floors;
  sc.background = pal.background;
  sc.texts.push_back({"compute.title", x0, floors ? 0.2f : 0.6f, kTitle, pal.text, T(Str::moe_compute_title)});
  sc.texts.push_back({"compute.D", x0, floors ? 1.4f : 2.6f, 1.0f, pal.text_muted,
                      T(Str::moe_d) + " = " + FormatFlops(engine::BigInt(scenario_.deployment->training_tokens))});
  // Two linear bars: 6·N·D with the total and with the active parameter count.
  const double frac = static_cast<double>(est.ratio_den) / static_cast<double>(est.ratio_num);   // active / total
  const auto bar = [&](const std::string& id, float y, float w, const std::string& name, const std::string& n,
                       const engine::BigInt& flops, TileState st) {
    sc.texts.push_back({id + ".name", x0, y + (floors ? 0.0f : 0.3f), 1.0f, pal.text, name});
    sc.texts.push_back({id + ".n", x0, y + (floors ? kLine : 1.6f), 1.0f, pal.text, "N = " + n});
    SceneRect r = BoxRect(id, kBarX, y, w, floors ? 2.3f : 2.6f, pal.processed, pal, st);
    const std::string figure = "6\u00b7N\u00b7D = " + FormatFlops(flops) + " FLOPs";
    if (floors && EstimateWidthEm(figure) * 1.15f + 1.0f > w)
      sc.texts.push_back({id + ".flops", kBarX + w + 0.5f, y + 0.5f, 1.0f, pal.text, figure});
    else
      r.label = figure;
    sc.rects.push_back(r);
  };
  bar("compute.total", floors ? 3.35f : 5.0f, kBarW, T(Str::moe_n_total), FormatParams(count_.total), est.with_total, TileState::kProcessed);
  bar("compute.active", floors ? 6.25f : 9.0f, kBarW * static_cast<float>(frac), T(Str::moe_n_active), FormatParams(count_.active_per_token),
      est.with_active, TileState::kInSram);
  sc.texts.push_back({"compute.ratio", x0, floors ? 9.05f : 13.4f, floors ? 1.5f : 1.6f, pal.text,
                      T(Str::moe_ratio) + T(Str::colon) + FormatParams(count_.total) + " / " + FormatParams(count_.active_per_token) + " = " +
                          std::to_string(est.ratio_num) + "/" + std::to_string(est.ratio_den) + " = " +
                          Times(est.ratio_num, est.ratio_den)});
  sc.texts.back().key = floors;
  sc.texts.push_back({"compute.over", x0, floors ? 11.2f : 15.8f, 1.0f, pal.text, T(Str::moe_overcount)});
  sc.texts.push_back({"compute.missing", x0, floors ? 12.5f : 17.3f, 1.0f, pal.text, T(Str::moe_missing)});
  sc.texts.push_back({"compute.c_note", x0, floors ? 14.1f : 19.6f, 0.95f, pal.text, T(Str::moe_c_note)});
  return sc;
}

// [SECTION] Expert parallelism ---------------------------------------------------------------------------

// phase 0 = dispatch, 1 = experts compute, 2 = combine.
Scene MoeModel::BuildExpertParallelScene(int phase, const std::string& lang, const Palette& pal, bool floors) const {
  // At the floors (SceneFrame::floors): a 41 × 16 em frame (every text 1.37 times larger on screen), a
  // device's name over its tokens or its experts, and the load without "busiest" (the red border and
  // the line under the picture name the busiest device).
  const float kW = floors ? 41 : 56, kH = floors ? 16 : 22, kTopY = floors ? 1.6f : 2.6f, kTopH = floors ? 3.0f : 3.6f,
              kBotY = floors ? 8.4f : 12.0f, kBotH = floors ? 4.2f : 6.6f;
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& ep = *ep_;
  const std::int64_t G = ep.devices;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.floors = floors;
  sc.background = pal.background;
  const Str phase_key = phase == 0 ? Str::ep_dispatch : phase == 1 ? Str::ep_compute : Str::ep_combine;
  sc.texts.push_back({"ep.title", floors ? 0.4f : 0.6f, floors ? 0.2f : 0.4f, floors ? 1.0f : 1.15f, pal.text,
                      T(Str::ep_title) + " " + std::to_string(G) + " " + T(Str::ep_devices) + " \u2014 " + T(phase_key)});
  const float gap = floors ? 0.8f : 1.0f, w = (kW - 1.2f - gap * static_cast<float>(G - 1)) / static_cast<float>(G);
  std::vector<float> dev_x;
  for (std::int64_t d = 0; d < G; ++d) dev_x.push_back(0.6f + (w + gap) * static_cast<float>(d));
  const std::string sep = floors ? "\n" : T(Str::colon);
  // Top row: each device's own tokens (its shard of the batch).
  for (std::int64_t d = 0; d < G; ++d) {
    std::string toks;
    for (std::int64_t t = 0; t < ep.tokens; ++t)
      if (ep.home_of_token[static_cast<size_t>(t)] == d) toks += (toks.empty() ? "" : ", ") + scenario_.token_labels[static_cast<size_t>(t)];
    SceneRect r = BoxRect("ep.shard." + std::to_string(d + 1), dev_x[static_cast<size_t>(d)], kTopY, w, kTopH, pal.panel_hbm, pal);
    r.label = T(Str::ep_device) + " " + std::to_string(d + 1) + sep + (toks.empty() ? "\u2014" : toks);
    if (!floors) r.sublabel = T(Str::ep_tokens);
    sc.rects.push_back(r);
  }
  // Bottom row: each device's experts and the assignments they compute.
  for (std::int64_t d = 0; d < G; ++d) {
    std::string ex;
    for (std::int64_t e = 0; e < ep.experts; ++e)
      if (ep.device_of_expert[static_cast<size_t>(e)] == d) ex += (ex.empty() ? "E" : ", E") + std::to_string(e + 1);
    const bool busiest = d == ep.busiest_device;
    const TileState st = phase == 1 ? (busiest ? TileState::kInSram : TileState::kProcessed) : TileState::kNone;
    SceneRect r = BoxRect("ep.device." + std::to_string(d + 1), dev_x[static_cast<size_t>(d)], kBotY, w, kBotH, pal.panel_sram, pal, st);
    r.border_em = busiest ? pal.line_em * 1.6f : pal.line_em * 0.6f;
    if (busiest) r.border = pal.write_arrow;
    r.label = T(Str::ep_device) + " " + std::to_string(d + 1) + sep + ex;
    r.sublabel = T(Str::ep_load) + " " + std::to_string(ep.load[static_cast<size_t>(d)]) +
                 (busiest && !floors ? " \u2014 " + T(Str::ep_busiest) : "");
    sc.rects.push_back(r);
  }
  // Links: dispatch a → b (top to bottom), combine b → a (bottom to top), each labelled with its copies.
  if (phase != 1) {
    for (std::int64_t a = 0; a < G; ++a)
      for (std::int64_t b = 0; b < G; ++b) {
        const std::int64_t n = ep.dispatch[static_cast<size_t>(a)][static_cast<size_t>(b)];
        if (n == 0) continue;
        const float xa = dev_x[static_cast<size_t>(a)] + w * static_cast<float>(b + 1) / static_cast<float>(G + 1);
        const float xb = dev_x[static_cast<size_t>(b)] + w * static_cast<float>(a + 1) / static_cast<float>(G + 1);
        SceneArrow arr;
        arr.id = std::string(phase == 0 ? "dispatch." : "combine.") + std::to_string(a + 1) + "." + std::to_string(b + 1);
        arr.kind = phase == 0 ? ArrowKind::kRead : ArrowKind::kWrite;
        arr.color = phase == 0 ? pal.read_arrow : pal.write_arrow;
        if (phase == 0) arr.points = {{xa, kTopY + kTopH}, {xb, kBotY}};
        else arr.points = {{xb, kBotY}, {xa, kTopY + kTopH}};
        arr.label = std::to_string(n) + (a == b ? " " + T(Str::ep_local) : "");
        const float t = 0.3f + 0.4f * static_cast<float>(b) / static_cast<float>(std::max<std::int64_t>(1, G - 1));
        arr.label_at = {xa + (xb - xa) * t + 0.2f, kTopY + kTopH + (kBotY - kTopY - kTopH) * t - 0.5f};
        sc.arrows.push_back(arr);
      }
  }
  sc.texts.push_back({"ep.summary", 0.6f, kH - (floors ? 2.75f : 2.8f), floors ? 1.0f : 0.95f, pal.text,
                      T(Str::ep_remote) + " " + std::to_string(ep.remote_copies) + " (" + T(Str::ep_each_way) + "), " + T(Str::ep_local) +
                          " " + std::to_string(ep.local_copies) + "; " + T(Str::ep_busiest_link) + " " + std::to_string(ep.busiest_link)});
  sc.texts.push_back({"ep.critical", 0.6f, kH - (floors ? 1.4f : 1.5f), floors ? 1.0f : 0.95f, pal.write_arrow,
                      T(Str::ep_loads) + " " + FormatIntTuple(ep.load) + T(Str::list_semicolon) + T(Str::ep_busiest) + T(Str::colon) + T(Str::ep_device) + " " + std::to_string(ep.busiest_device + 1) + T(Str::list_comma) +
                          std::to_string(ep.busiest_load) + " " + T(Str::ep_assignments) + " (" + T(Str::ep_mean) + " " +
                          FormatDouble(static_cast<double>(routing_.assignments - routing_.dropped_assignments) / static_cast<double>(G)) + ")"});
  return sc;
}

// [SECTION] CPU/GPU ----------------------------------------------------------------------------------------

// The experts of each NUMA node of the CPU panel, two to a row: the token's chosen ones "in SRAM"
// colour (being computed), the others stored. `label_h`: the node's name above its experts.
void MoeModel::AddNumaNodes(Scene& sc, std::int64_t token, float x, float y, float w, float h, float label_h, float expert_h,
                            bool stored_word, const std::string& lang, const Palette& pal) const {
  const std::int64_t E = scenario_.config.experts, half = (E + 1) / 2;
  const float node_w = (w - 0.6f) / 2;
  std::vector<bool> chosen(static_cast<size_t>(E), false);
  if (token >= 0)
    for (auto x2 : routing_.routes[static_cast<size_t>(token)].experts) chosen[static_cast<size_t>(x2)] = true;
  for (int node = 0; node < 2; ++node) {
    const float nx = x + (node_w + 0.6f) * static_cast<float>(node);
    SceneRect n = BoxRect("numa." + std::to_string(node), nx, y, node_w, h, pal.background, pal);
    n.label = UiText(Str::het_numa, lang) + " " + std::to_string(node);
    n.dashed = true;
    sc.rects.push_back(n);
    const std::int64_t e0 = node == 0 ? 0 : half, e1 = node == 0 ? half : E;
    const std::int64_t per_row = 2;
    const float ew = (node_w - 0.9f) / static_cast<float>(per_row);
    for (std::int64_t k = 0; k < e1 - e0; ++k) {
      const std::int64_t xe = e0 + k;
      const float exx = nx + 0.3f + (ew + 0.3f) * static_cast<float>(k % per_row);
      const float eyy = y + label_h + (expert_h + 0.3f) * static_cast<float>(k / per_row);
      SceneRect r = BoxRect("expert." + std::to_string(xe + 1), exx, eyy, ew, expert_h, pal.pending, pal,
                            chosen[static_cast<size_t>(xe)] ? TileState::kInSram : TileState::kPending);
      r.label = "E" + std::to_string(xe + 1);
      r.sublabel = chosen[static_cast<size_t>(xe)] ? ShortStateWord(r.state, lang) : stored_word ? UiText(Str::het_stored, lang) : "";
      sc.rects.push_back(r);
    }
  }
}

Scene MoeModel::BuildCpuGpuScene(std::int64_t token, const std::string& lang, const Palette& pal, bool floors) const {
  if (floors) return BuildCpuGpuFloorsScene(token, lang, pal);
  constexpr float kW = 56, kH = 22, kGpuX = 0, kGpuW = 17, kLinkX = 17.5f, kLinkW = 10.5f, kCpuX = 28.5f, kCpuW = 27.5f;
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& pl = *placement_;
  const auto& c = scenario_.config;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.background = pal.background;
  // Bytes are spelt out here: the same picture counts parameters in B (billions, "0.2B").
  const std::string unit = T(Str::unit_bytes);
  const auto bytes = [&](std::int64_t b) { return FormatInt(b) + " " + unit + " (" + FormatBytes(b) + ")"; };

  // GPU: HBM with attention and the shared part.
  SceneRect gpu = BoxRect("gpu", kGpuX, 0, kGpuW, kH, pal.panel_hbm, pal);
  gpu.border_em = pal.line_em;
  sc.rects.push_back(gpu);
  sc.texts.push_back({"gpu.title", kGpuX + 0.6f, 0.5f, 1.2f, pal.text, "GPU"});
  SceneRect hbm = BoxRect("gpu.hbm", kGpuX + 0.6f, 2.4f, kGpuW - 1.2f, 8.0f, pal.processed, pal);
  hbm.label = T(Str::het_gpu_hbm) + "\n" + FormatParams(c.shared_params) + " \u00d7 " + std::to_string(pl.weight_bits) + " bit";
  hbm.sublabel = bytes(pl.gpu_weight_bytes);
  sc.rects.push_back(hbm);
  SceneRect attn = BoxRect("gpu.attention", kGpuX + 0.6f, 11.2f, kGpuW - 1.2f, 3.4f, pal.in_sram, pal);
  attn.label = T(Str::het_gpu_compute);
  sc.rects.push_back(attn);

  // CPU: memory in two NUMA nodes holding the routed experts, and the cores that compute them.
  SceneRect cpu = BoxRect("cpu", kCpuX, 0, kCpuW, kH, pal.panel_sram, pal);
  cpu.border_em = pal.line_em;
  sc.rects.push_back(cpu);
  sc.texts.push_back({"cpu.title", kCpuX + 0.6f, 0.5f, 1.2f, pal.text, "CPU"});
  sc.texts.push_back({"cpu.mem", kCpuX + 0.6f, 1.9f, 0.9f, pal.text,
                      T(Str::het_cpu_mem) + T(Str::colon) + std::to_string(c.experts) + " \u00d7 " + FormatParams(c.expert_params) + " \u00d7 " +
                          std::to_string(pl.weight_bits) + " bit = " + bytes(pl.cpu_weight_bytes)});
  AddNumaNodes(sc, token, kCpuX + 0.6f, 3.4f, kCpuW - 1.2f, 9.6f, 1.6f, 3.0f, true, lang, pal);
  SceneRect cores = BoxRect("cpu.cores", kCpuX + 0.6f, 13.8f, kCpuW - 1.2f, 3.2f, pal.in_sram, pal);
  cores.label = T(Str::het_cpu_cores);
  cores.sublabel = T(Str::het_weights_read) + " " + std::to_string(c.top_k) + " \u00d7 " + FormatParams(c.expert_params) + " \u00d7 " +
                   std::to_string(pl.weight_bits) + " bit = " + bytes(pl.expert_bytes_per_token) + " / token";
  sc.rects.push_back(cores);
  sc.texts.push_back({"cpu.binding", kCpuX + 0.6f, 17.4f, 0.85f, pal.text_muted, T(Str::het_binding)});
  if (placement_q_)
    sc.texts.push_back({"cpu.quantised", kCpuX + 0.6f, 18.8f, 0.85f, pal.text,
                        T(Str::het_quantised) + " " + std::to_string(placement_q_->weight_bits) + " bit" + T(Str::colon) +
                            FormatBytes(placement_q_->cpu_weight_bytes) + " " + T(Str::het_in_memory) + T(Str::list_comma) +
                            FormatBytes(placement_q_->expert_bytes_per_token) + " / token " + T(Str::het_read)});
  sc.texts.push_back({"cpu.numa_note", kCpuX + 0.6f, 20.2f, 0.85f, pal.text_muted, T(Str::het_numa_note)});

  // The link: activations out and back, bytes per token from the engine.
  SceneRect link = BoxRect("link", kLinkX, 6.9f, kLinkW, 3.0f, pal.background, pal);
  link.label = T(Str::het_link);
  link.sublabel = "2\u00b7h\u00b7b = " + FormatInt(pl.link_bytes_per_token) + " " + unit + " / token";   // both ways
  sc.rects.push_back(link);
  SceneArrow out;
  out.id = "link.out";
  out.kind = ArrowKind::kRead;
  out.color = pal.read_arrow;
  out.points = {{kGpuX + kGpuW, 10.6f}, {kCpuX, 10.6f}};
  out.label = T(Str::het_link_out) + " " + FormatInt(pl.link_bytes_each_way) + " " + unit;   // h·b
  out.label_at = {kLinkX, 11.0f};
  sc.arrows.push_back(out);
  SceneArrow back;
  back.id = "link.back";
  back.kind = ArrowKind::kWrite;
  back.color = pal.write_arrow;
  back.points = {{kCpuX, 6.4f}, {kGpuX + kGpuW, 6.4f}};
  back.label = T(Str::het_link_back) + " " + FormatInt(pl.link_bytes_each_way) + " " + unit;
  back.label_at = {kLinkX, 4.6f};
  sc.arrows.push_back(back);
  sc.texts.push_back({"link.alt", kLinkX, 12.6f, 0.8f, pal.text_muted, T(Str::het_if_moved)});
  sc.texts.push_back({"link.alt.bytes", kLinkX, 13.7f, 0.8f, pal.text_muted, bytes(pl.expert_bytes_per_token) + " / token"});
  if (token >= 0)
    sc.texts.push_back({"token", kGpuX + 0.6f, 15.4f, 0.95f, pal.text,
                        T(Str::het_token) + " " + scenario_.token_labels[static_cast<size_t>(token)] + " \u2192 " +
                            QuantitiesAt(CpuGpuEvent() + 1 + static_cast<int>(token)).at("token_experts")});
  return sc;
}

// The same at the floors (SceneFrame::floors), in a 40 × 15.6 em frame (every text 1.4 times larger on
// screen): the GPU, the link and the CPU side by side above, and under them the lines the small print
// held — the link's bytes per token, the weights the CPU cores read per token, the quantised variant,
// the thread binding. (The GPU's attention box is named in its HBM's title; the NUMA note is left out.)
Scene MoeModel::BuildCpuGpuFloorsScene(std::int64_t token, const std::string& lang, const Palette& pal) const {
  constexpr float kW = 40, kH = 16.6f, kTopH = 9.9f, kGpuW = 12.4f, kLinkX = 12.6f, kCpuX = 19.6f, kCpuW = kW - kCpuX;
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& pl = *placement_;
  const auto& c = scenario_.config;
  const std::string unit = T(Str::unit_bytes);
  const auto wrapped = [](const std::string& text, float width_em) {
    std::string out;
    for (const auto& line : WrapEstimated(text, width_em)) out += (out.empty() ? "" : "\n") + line;
    return out;
  };
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.floors = true;
  sc.background = pal.background;
  SceneRect gpu = BoxRect("gpu", 0, 0, kGpuW, kTopH, pal.panel_hbm, pal);
  gpu.border_em = pal.line_em;
  sc.rects.push_back(gpu);
  sc.texts.push_back({"gpu.title", 0.4f, 0.2f, 1.0f, pal.text, "GPU"});
  SceneRect hbm = BoxRect("gpu.hbm", 0.4f, 1.5f, kGpuW - 0.8f, 5.0f, pal.processed, pal);
  hbm.label = wrapped(T(Str::het_gpu_hbm), (kGpuW - 1.6f) / 1.15f);
  hbm.sublabel = FormatParams(c.shared_params) + " \u00d7 " + std::to_string(pl.weight_bits) + " bit";
  sc.rects.push_back(hbm);
  // (The byte lines are drawn at the key size on a projector: each clear of the next, issue 29's
  // walk-through saw "= 400,000,000 bytes" over the token line and "8,192 bytes" under the cores' bar.)
  sc.texts.push_back({"gpu.bytes", 0.4f, 6.65f, 1.0f, pal.text, "= " + FormatInt(pl.gpu_weight_bytes) + " " + unit});
  if (token >= 0)
    sc.texts.push_back({"token", 0.4f, 8.45f, 1.0f, pal.text,
                        T(Str::het_token) + " " + scenario_.token_labels[static_cast<size_t>(token)] + " \u2192 " +
                            QuantitiesAt(CpuGpuEvent() + 1 + static_cast<int>(token)).at("token_experts")});

  // The link's column is a box of its own (HET/x2 points at it), its title and arrows inside.
  SceneRect link = BoxRect("link", kGpuW + 0.1f, 0, kCpuX - kGpuW - 0.2f, kTopH, pal.background, pal);
  sc.rects.push_back(link);
  sc.texts.push_back({"link.title", kLinkX + 0.1f, 0.2f, 1.0f, pal.text, T(Str::het_link)});
  const std::string bytes = FormatInt(pl.link_bytes_each_way) + " " + unit;
  sc.arrows.push_back({"link.back", ArrowKind::kWrite, {{kCpuX, 3.6f}, {kGpuW, 3.6f}}, pal.write_arrow, bytes, {kLinkX + 0.2f, 2.0f}});
  sc.arrows.push_back({"link.out", ArrowKind::kRead, {{kGpuW, 6.0f}, {kCpuX, 6.0f}}, pal.read_arrow, bytes, {kLinkX + 0.2f, 6.3f}});

  SceneRect cpu = BoxRect("cpu", kCpuX, 0, kCpuW, kTopH, pal.panel_sram, pal);
  cpu.border_em = pal.line_em;
  sc.rects.push_back(cpu);
  sc.texts.push_back({"cpu.title", kCpuX + 0.4f, 0.2f, 1.0f, pal.text,
                      "CPU" + std::string(T(Str::colon)) + std::to_string(c.experts) + " \u00d7 " + FormatParams(c.expert_params) + " \u00d7 " +
                          std::to_string(pl.weight_bits) + " bit"});
  sc.texts.push_back({"cpu.mem", kCpuX + 0.4f, 1.45f, 1.0f, pal.text,
                      "= " + FormatInt(pl.cpu_weight_bytes) + " " + unit + " (" + FormatBytes(pl.cpu_weight_bytes) + ")"});
  AddNumaNodes(sc, token, kCpuX + 0.3f, 2.9f, kCpuW - 0.6f, kTopH - 3.2f, 1.5f, 2.0f, false, lang, pal);

  const auto line = [&](const std::string& id, float y, Color col, const std::string& text) {
    sc.texts.push_back({id, 0.4f, y, 1.0f, col, text});
  };
  line("link.bytes", 10.1f, pal.text, T(Str::het_link) + T(Str::colon) + "2\u00b7h\u00b7b = " + FormatInt(pl.link_bytes_per_token) + " " + unit + " / token");
  // The CPU cores' line sits on a box of its own so that HET/x2 and x3 can point at the cores; clear
  // of the lines above and below, which the painter may enlarge to the floor (its highlight border cut
  // through "8,192 bytes", a helper).
  SceneRect cores = BoxRect("cpu.cores", 0.1f, 11.95f, kW - 0.2f, 1.5f, pal.in_sram, pal);
  sc.rects.push_back(cores);
  line("cpu.cores.line", 12.15f, pal.text,
       T(Str::het_weights_read) + " " + std::to_string(c.top_k) + " \u00d7 " + FormatParams(c.expert_params) + " \u00d7 " +
           std::to_string(pl.weight_bits) + " bit = " + FormatInt(pl.expert_bytes_per_token) + " " + unit + " / token");
  if (placement_q_)
    line("cpu.quantised", 13.75f, pal.text,
         T(Str::het_quantised) + " " + std::to_string(placement_q_->weight_bits) + " bit" + T(Str::colon) + FormatInt(placement_q_->cpu_weight_bytes) + " " +
             unit + " " + T(Str::het_in_memory) + T(Str::list_comma) + FormatInt(placement_q_->expert_bytes_per_token) + " " + unit + " / token " + T(Str::het_read));
  line("cpu.binding", placement_q_ ? 15.25f : 13.75f, pal.text_muted, T(Str::het_binding));
  return sc;
}

// [SECTION] Placeholders and panels ---------------------------------------------------------------------

void MoeModel::AddDeploymentQuantities(Quantities& q) const {
  const auto& d = *scenario_.deployment;
  const auto& est = *compute_;
  q["training_tokens"] = FormatFlops(engine::BigInt(d.training_tokens));
  q["compute_total"] = FormatFlops(est.with_total);
  q["compute_active"] = FormatFlops(est.with_active);
  q["compute_ratio"] = std::to_string(est.ratio_num) + "/" + std::to_string(est.ratio_den);
  q["compute_ratio_x"] = Times(est.ratio_num, est.ratio_den);
  const auto& ep = *ep_;
  q["ep_devices"] = std::to_string(ep.devices);
  q["ep_remote"] = std::to_string(ep.remote_copies);
  q["ep_local"] = std::to_string(ep.local_copies);
  q["ep_busiest_device"] = std::to_string(ep.busiest_device + 1);
  q["ep_busiest_load"] = std::to_string(ep.busiest_load);
  q["ep_busiest_link"] = std::to_string(ep.busiest_link);
  q["ep_load"] = FormatIntTuple(ep.load);
  const auto& pl = *placement_;
  q["hidden"] = FormatInt(d.hidden);
  q["activation_bytes"] = std::to_string(d.activation_bytes);
  q["weight_bits"] = std::to_string(pl.weight_bits);
  q["link_bytes_per_token"] = FormatInt(pl.link_bytes_per_token);
  q["expert_bytes_per_token"] = FormatInt(pl.expert_bytes_per_token);
  q["gpu_weight_bytes"] = FormatInt(pl.gpu_weight_bytes);
  q["cpu_weight_bytes"] = FormatInt(pl.cpu_weight_bytes);
  if (placement_q_) {
    q["q_bits"] = std::to_string(placement_q_->weight_bits);
    q["q_expert_bytes_per_token"] = FormatInt(placement_q_->expert_bytes_per_token);
    q["q_cpu_weight_bytes"] = FormatInt(placement_q_->cpu_weight_bytes);
  }
}

std::vector<PanelSection> MoeModel::DeploymentPanels(int e, const std::string& lang) const {
  const auto T = [&](Str k) { return UiText(k, lang); };
  std::vector<PanelSection> out;
  if (e == ComputeEvent()) {
    PanelSection c;
    c.id = "compute";
    c.title = T(Str::moe_compute_title);
    c.rows.push_back({T(Str::moe_n_total), FormatParams(count_.total) + " → " + FormatFlops(compute_->with_total) + " FLOPs"});
    c.rows.push_back({T(Str::moe_n_active), FormatParams(count_.active_per_token) + " → " + FormatFlops(compute_->with_active) + " FLOPs"});
    c.rows.push_back({T(Str::moe_ratio), std::to_string(compute_->ratio_num) + "/" + std::to_string(compute_->ratio_den) + " = " +
                                          Times(compute_->ratio_num, compute_->ratio_den)});
    out.push_back(c);
  }
  if (e >= ExpertParallelEvent() && e < CpuGpuEvent()) {
    PanelSection p;
    p.id = "ep";
    p.title = T(Str::ep_panel);
    p.columns = {T(Str::ep_device)};
    for (std::int64_t b = 0; b < ep_->devices; ++b) p.columns.push_back("→ " + std::to_string(b + 1));
    for (std::int64_t a = 0; a < ep_->devices; ++a) {
      std::string row;
      for (std::int64_t b = 0; b < ep_->devices; ++b)
        row += (b ? "\t" : "") + std::to_string(ep_->dispatch[static_cast<size_t>(a)][static_cast<size_t>(b)]);
      p.rows.push_back({std::to_string(a + 1), row});
    }
    // Each device's load is its column (what it receives, its own tokens included): the busiest is a
    // column, not a row, and not a wrong value (the purple ×, which marked device 2's row at MOE/e7).
    std::string loads;
    for (std::int64_t b = 0; b < ep_->devices; ++b) loads += (b ? "\t" : "") + std::to_string(ep_->load[static_cast<size_t>(b)]);
    p.rows.push_back({T(Str::ep_load), loads});
    out.push_back(p);
  }
  if (e >= CpuGpuEvent()) {
    PanelSection h;
    h.id = "het";
    h.title = T(Str::het_panel);
    // The load the busiest expert's cores carry (HET/x3 quotes it).
    h.rows.push_back({T(Str::moe_demand_per_expert), FormatIntTuple(routing_.demand)});
    const std::string unit = " " + T(Str::unit_bytes);
    h.rows.push_back({T(Str::het_gpu_hbm), FormatInt(placement_->gpu_weight_bytes) + unit});
    h.rows.push_back({T(Str::het_cpu_mem), FormatInt(placement_->cpu_weight_bytes) + unit});
    h.rows.push_back({T(Str::het_link) + " (" + T(Str::het_link_bytes) + ")", FormatInt(placement_->link_bytes_per_token) + unit + " / token"});
    h.rows.push_back({T(Str::het_weights_read), FormatInt(placement_->expert_bytes_per_token) + unit + " / token"});
    if (placement_q_)
      h.rows.push_back({T(Str::het_quantised) + " " + std::to_string(placement_q_->weight_bits) + " bit",
                        FormatInt(placement_q_->expert_bytes_per_token) + unit + " / token"});
    out.push_back(h);
  }
  return out;
}

}  // namespace bw::view
