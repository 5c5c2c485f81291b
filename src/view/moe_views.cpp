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

SceneRect BoxRect(std::string id, float x, float y, float w, float h, Color fill, const Palette& pal, TileState st = TileState::kNone) {
  SceneRect r;
  r.id = std::move(id);
  r.x = x, r.y = y, r.w = w, r.h = h;
  r.fill = st == TileState::kNone ? fill : Style(st, pal).fill;
  r.border = pal.border;
  r.border_em = pal.line_em * 0.6f;
  r.state = st;
  r.hatched = Style(st, pal).hatched && st != TileState::kNone;
  return r;
}

std::string Times(std::int64_t num, std::int64_t den) {
  return FormatDouble(static_cast<double>(num) / static_cast<double>(den)) + "\u00d7";
}

}  // namespace

// [SECTION] Compute ----------------------------------------------------------------------------------

Scene MoeModel::BuildComputeScene(const std::string& lang, const Palette& pal) const {
  constexpr float kW = 56, kH = 22, kBarX = 17, kBarW = 36;
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& est = *compute_;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.background = pal.background;
  sc.texts.push_back({"compute.title", 1, 0.6f, 1.3f, pal.text, T(Str::moe_compute_title)});
  sc.texts.push_back({"compute.D", 1, 2.6f, 1.0f, pal.text_muted,
                      T(Str::moe_d) + " = " + FormatFlops(engine::BigInt(scenario_.deployment->training_tokens))});
  // Two linear bars: 6·N·D with the total and with the active parameter count.
  const double frac = static_cast<double>(est.ratio_den) / static_cast<double>(est.ratio_num);   // active / total
  const auto bar = [&](const std::string& id, float y, float w, const std::string& name, const std::string& n,
                       const engine::BigInt& flops, TileState st) {
    sc.texts.push_back({id + ".name", 1, y + 0.3f, 1.0f, pal.text, name});
    sc.texts.push_back({id + ".n", 1, y + 1.6f, 1.0f, pal.text, "N = " + n});
    SceneRect r = BoxRect(id, kBarX, y, w, 2.6f, pal.processed, pal, st);
    r.label = "6\u00b7N\u00b7D = " + FormatFlops(flops) + " FLOPs";
    r.sublabel = StateWord(st, lang).empty() ? "" : "";
    sc.rects.push_back(r);
  };
  bar("compute.total", 5.0f, kBarW, T(Str::moe_n_total), FormatParams(count_.total), est.with_total, TileState::kProcessed);
  bar("compute.active", 9.0f, kBarW * static_cast<float>(frac), T(Str::moe_n_active), FormatParams(count_.active_per_token),
      est.with_active, TileState::kInSram);
  sc.texts.push_back({"compute.ratio", 1, 13.4f, 1.6f, pal.text,
                      T(Str::moe_ratio) + T(Str::colon) + FormatParams(count_.total) + " / " + FormatParams(count_.active_per_token) + " = " +
                          std::to_string(est.ratio_num) + "/" + std::to_string(est.ratio_den) + " = " +
                          Times(est.ratio_num, est.ratio_den)});
  sc.texts.push_back({"compute.over", 1, 15.8f, 1.0f, pal.text, T(Str::moe_overcount)});
  sc.texts.push_back({"compute.missing", 1, 17.3f, 1.0f, pal.text, T(Str::moe_missing)});
  sc.texts.push_back({"compute.c_note", 1, 19.6f, 0.95f, pal.text, T(Str::moe_c_note)});
  return sc;
}

// [SECTION] Expert parallelism ---------------------------------------------------------------------------

// phase 0 = dispatch, 1 = experts compute, 2 = combine.
Scene MoeModel::BuildExpertParallelScene(int phase, const std::string& lang, const Palette& pal) const {
  constexpr float kW = 56, kH = 22, kTopY = 2.6f, kTopH = 3.6f, kBotY = 12.0f, kBotH = 6.6f;
  const auto T = [&](Str k) { return UiText(k, lang); };
  const auto& ep = *ep_;
  const std::int64_t G = ep.devices;
  Scene sc;
  sc.width = kW, sc.height = kH;
  sc.background = pal.background;
  const Str phase_key = phase == 0 ? Str::ep_dispatch : phase == 1 ? Str::ep_compute : Str::ep_combine;
  sc.texts.push_back({"ep.title", 0.6f, 0.4f, 1.15f, pal.text,
                      T(Str::ep_title) + " " + std::to_string(G) + " " + T(Str::ep_devices) + " \u2014 " + T(phase_key)});
  const float gap = 1.0f, w = (kW - 1.2f - gap * static_cast<float>(G - 1)) / static_cast<float>(G);
  std::vector<float> dev_x;
  for (std::int64_t d = 0; d < G; ++d) dev_x.push_back(0.6f + (w + gap) * static_cast<float>(d));
  // Top row: each device's own tokens (its shard of the batch).
  for (std::int64_t d = 0; d < G; ++d) {
    std::string toks;
    for (std::int64_t t = 0; t < ep.tokens; ++t)
      if (ep.home_of_token[static_cast<size_t>(t)] == d) toks += (toks.empty() ? "" : ", ") + scenario_.token_labels[static_cast<size_t>(t)];
    SceneRect r = BoxRect("ep.shard." + std::to_string(d + 1), dev_x[static_cast<size_t>(d)], kTopY, w, kTopH, pal.panel_hbm, pal);
    r.label = T(Str::ep_device) + " " + std::to_string(d + 1) + T(Str::colon) + (toks.empty() ? "\u2014" : toks);
    r.sublabel = T(Str::ep_tokens);
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
    r.label = T(Str::ep_device) + " " + std::to_string(d + 1) + T(Str::colon) + ex;
    r.sublabel = T(Str::ep_load) + " " + std::to_string(ep.load[static_cast<size_t>(d)]) + (busiest ? " \u2014 " + T(Str::ep_busiest) : "");
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
  sc.texts.push_back({"ep.summary", 0.6f, kH - 2.8f, 0.95f, pal.text,
                      T(Str::ep_remote) + " " + std::to_string(ep.remote_copies) + " (" + T(Str::ep_each_way) + "), " + T(Str::ep_local) +
                          " " + std::to_string(ep.local_copies) + "; " + T(Str::ep_busiest_link) + " " + std::to_string(ep.busiest_link)});
  sc.texts.push_back({"ep.critical", 0.6f, kH - 1.5f, 0.95f, pal.write_arrow,
                      T(Str::ep_busiest) + T(Str::colon) + T(Str::ep_device) + " " + std::to_string(ep.busiest_device + 1) + T(Str::list_comma) +
                          std::to_string(ep.busiest_load) + " " + T(Str::ep_assignments) + " (" + T(Str::ep_mean) + " " +
                          FormatDouble(static_cast<double>(routing_.assignments - routing_.dropped_assignments) / static_cast<double>(G)) + ")"});
  return sc;
}

// [SECTION] CPU/GPU ----------------------------------------------------------------------------------------

Scene MoeModel::BuildCpuGpuScene(std::int64_t token, const std::string& lang, const Palette& pal) const {
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
  const std::int64_t E = c.experts, half = (E + 1) / 2;
  const float node_w = (kCpuW - 1.8f) / 2;
  std::vector<bool> chosen(static_cast<size_t>(E), false);
  if (token >= 0)
    for (auto x : routing_.routes[static_cast<size_t>(token)].experts) chosen[static_cast<size_t>(x)] = true;
  for (int node = 0; node < 2; ++node) {
    const float nx = kCpuX + 0.6f + (node_w + 0.6f) * static_cast<float>(node);
    SceneRect n = BoxRect("numa." + std::to_string(node), nx, 3.4f, node_w, 9.6f, pal.background, pal);
    n.label = T(Str::het_numa) + " " + std::to_string(node);
    n.dashed = true;
    sc.rects.push_back(n);
    const std::int64_t e0 = node == 0 ? 0 : half, e1 = node == 0 ? half : E;
    const std::int64_t per_row = 2;
    const float ew = (node_w - 0.9f) / static_cast<float>(per_row), eh = 3.0f;
    for (std::int64_t x = e0; x < e1; ++x) {
      const std::int64_t k = x - e0;
      const float exx = nx + 0.3f + (ew + 0.3f) * static_cast<float>(k % per_row);
      const float eyy = 5.0f + (eh + 0.3f) * static_cast<float>(k / per_row);
      SceneRect r = BoxRect("expert." + std::to_string(x + 1), exx, eyy, ew, eh, pal.pending, pal,
                        chosen[static_cast<size_t>(x)] ? TileState::kInSram : TileState::kPending);
      r.label = "E" + std::to_string(x + 1);
      r.sublabel = ShortStateWord(r.state, lang);
      if (!chosen[static_cast<size_t>(x)]) r.sublabel = T(Str::het_stored);
      sc.rects.push_back(r);
    }
  }
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
  std::string load = "(";
  for (size_t x = 0; x < ep.load.size(); ++x) load += (x ? ", " : "") + std::to_string(ep.load[x]);
  q["ep_load"] = load + ")";
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
    c.title = T(Str::moe_compute_title);
    c.rows.push_back({T(Str::moe_n_total), FormatParams(count_.total) + " → " + FormatFlops(compute_->with_total) + " FLOPs"});
    c.rows.push_back({T(Str::moe_n_active), FormatParams(count_.active_per_token) + " → " + FormatFlops(compute_->with_active) + " FLOPs"});
    c.rows.push_back({T(Str::moe_ratio), std::to_string(compute_->ratio_num) + "/" + std::to_string(compute_->ratio_den) + " = " +
                                          Times(compute_->ratio_num, compute_->ratio_den)});
    out.push_back(c);
  }
  if (e >= ExpertParallelEvent() && e < CpuGpuEvent()) {
    PanelSection p;
    p.title = T(Str::ep_panel);
    p.columns = {T(Str::ep_device)};
    for (std::int64_t b = 0; b < ep_->devices; ++b) p.columns.push_back("→ " + std::to_string(b + 1));
    for (std::int64_t a = 0; a < ep_->devices; ++a) {
      std::string row;
      for (std::int64_t b = 0; b < ep_->devices; ++b)
        row += (b ? "\t" : "") + std::to_string(ep_->dispatch[static_cast<size_t>(a)][static_cast<size_t>(b)]);
      p.rows.push_back({std::to_string(a + 1), row, a == ep_->busiest_device});
    }
    out.push_back(p);
  }
  if (e >= CpuGpuEvent()) {
    PanelSection h;
    h.title = T(Str::het_panel);
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
