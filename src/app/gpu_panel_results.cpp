// The GPU panel's right-hand column: SM × time lanes, the roofline against the device's peaks, the
// kernel's time and rates, and its counters against the CPU engine's prediction. See gpu_panel.h.
#include <imgui.h>

#include <algorithm>
#include <optional>

#include "app/gpu_panel.h"
#include "app/widgets.h"
#include "cuda/engine_adapter.h"
#include "engine/attention_formulas.h"
#include "view/format.h"
#include "view/gpu_roofline.h"
#include "view/gpu_text.h"

namespace bw::app {

namespace {

// The CPU engine's counters for the same problem shape, tiling and mask (its analytic formulas,
// which the engine's tests hold equal to its measured counters), in elements.
std::optional<engine::Counters> EnginePrediction(const cuda::RunSummary& r) {
  if (r.algorithm == cuda::Algorithm::Materialising) return std::nullopt;
  engine::Mask mask;
  if (r.mask == cuda::MaskKind::CausalTopLeft) mask = engine::Mask::Causal(engine::CausalAlignment::kTopLeft);
  else if (r.mask == cuda::MaskKind::CausalBottomRight) mask = engine::Mask::Causal(engine::CausalAlignment::kBottomRight);
  else if (r.mask != cuda::MaskKind::None) return std::nullopt;  // data-dependent masks have no closed form
  const auto f = engine::FormulaFor(engine::Algorithm::kFlash2, {r.n_q, r.n_k, r.d, r.d_v}, {r.b_r, r.b_c}, mask,
                                    engine::Precision::kFloat);
  if (!f) return std::nullopt;
  engine::Counters c = f->counters;
  for (auto& x : c.hbm_read_elements) x *= r.heads;
  for (auto& x : c.hbm_write_elements) x *= r.heads;
  c.tiles_computed *= r.heads;
  c.tiles_skipped *= r.heads;
  return c;
}

}  // namespace

void GpuPanel::DrawResults(AppState& s, const Fonts& fonts, float width_px, Painted& painted) {
  const float em = ImGui::GetFontSize();
  const float w_em = width_px / em - 0.5f;
  // SM × time (which tile ran where and when) and, beside it, the recorded warpgroup timeline; a
  // recording without one says so in a line below the lanes.
  const float lanes_h = std::clamp(ImGui::GetContentRegionAvail().y / em * 0.42f, 13.0f, 24.0f);
  const cuda::RunSummary* warp_run = WarpRun();
  const bool warps = warp_run != nullptr && !warp_run->warp_phases.empty();
  if (warps) {
    const float half = w_em * 0.5f - 0.5f;
    ImGui::BeginGroup();
    DrawLanes(s, fonts, half, lanes_h, painted);
    ImGui::EndGroup();
    ImGui::SameLine();
    ImGui::BeginGroup();
    DrawWarps(s, fonts, half, painted);
    ImGui::EndGroup();
  } else {
    DrawLanes(s, fonts, w_em, lanes_h, painted);
    // A live Hopper run logs its warp phases in device memory; they are read once the kernel has ended.
    const bool later = live_ && !done_ && shape_.kernel == "hopper" && warp_ctas_ > 0;
    ImGui::TextDisabled("%s", view::GpuText(later ? view::GpuStr::warps_after : view::GpuStr::warps_none, s.options.lang).c_str());
  }
  ImGui::TextWrapped("%s", T(s, view::Str::gpu_legend).c_str());
  ImGui::Separator();
  if (!totals_) {
    ImGui::TextWrapped("%s", T(s, view::Str::gpu_running).c_str());
    return;
  }
  const auto& t = *totals_;
  // Roofline: the kernel against this device's peaks.
  cuda::DevicePeaks peaks;
  if (cuda::PeaksFor(t.device_name, &peaks)) {
    ImGui::TextUnformatted(T(s, view::Str::gpu_roofline).c_str());
    const view::Scene roof = view::BuildRooflineScene(t, peaks, std::min(w_em, 40.0f), 15.0f, s.options.lang, s.Palette());
    Painted p = PaintScene(ImGui::GetWindowDrawList(), roof, ImGui::GetCursorScreenPos(), em, fonts, s.Palette(), 1.0f, {}, 1.0f, {}, fills_);
    painted.rects.insert(painted.rects.end(), p.rects.begin(), p.rects.end());
    ImGui::Dummy(ImVec2(roof.width * em, roof.height * em));
    s.ui.gpu.roofline = roof.FindRect("roof.point") != nullptr;
  } else {
    ImGui::TextWrapped("%s", T(s, view::Str::gpu_roof_unknown).c_str());
  }
  // Every number with where it comes from: measured, model, or model ÷ measured.
  const std::string& lang = s.options.lang;
  const std::string measured = view::GpuText(view::GpuStr::src_measured_events, lang), rate = view::GpuText(view::GpuStr::src_rate, lang),
                    model = view::GpuText(view::GpuStr::model, lang);
  if (ImGui::BeginTable("timing", 3, ImGuiTableFlags_BordersInnerH)) {
    const std::string* source = &measured;
    const auto row = [&source](const std::string& k, const std::string& v) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(k.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(v.c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextDisabled("%s", source->c_str());
    };
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f ms", t.kernel_ms);
    row(T(s, view::Str::gpu_time), t.pace_ns > 0 ? buf + std::string(" (") + T(s, view::Str::gpu_slow_motion) + ")" : std::string(buf));
    // A slowed-down run's rates are the pacing's, not the kernel's: not shown as if they were.
    source = &rate;
    std::snprintf(buf, sizeof buf, "%.1f TFLOP/s", t.tflops);
    row("TFLOP/s", t.pace_ns > 0 ? "\u2014" : buf);
    std::snprintf(buf, sizeof buf, "%s GB/s", view::FormatInt(static_cast<std::int64_t>(t.gbps + 0.5)).c_str());
    row("GB/s", t.pace_ns > 0 ? "\u2014" : buf);
    source = &model;
    row(T(s, view::Str::gpu_hbm), GpuBytes(static_cast<double>(t.counters.hbm_read_bytes() + t.counters.hbm_write_bytes())));
    ImGui::EndTable();
  }
  // GPU counters against the CPU engine's, tensor by tensor, in elements.
  const engine::Counters gpu = cuda::ToEngine(t.counters, t.algorithm);
  const auto predicted = EnginePrediction(t);
  ImGui::Spacing();
  ImGui::TextUnformatted(T(s, view::Str::gpu_vs_engine).c_str());
  if (ImGui::BeginTable("counters", 4, ImGuiTableFlags_Borders)) {
    ImGui::TableSetupColumn("");
    ImGui::TableSetupColumn(view::GpuText(view::GpuStr::gpu_measured_col, lang).c_str());
    ImGui::TableSetupColumn(view::GpuText(view::GpuStr::engine_model_col, lang).c_str());
    ImGui::TableSetupColumn("=");
    ImGui::TableHeadersRow();
    const auto row = [&](const std::string& name, long long g, long long e) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(name.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(view::FormatInt(g).c_str());
      ImGui::TableSetColumnIndex(2);
      ImGui::TextUnformatted(predicted ? view::FormatInt(e).c_str() : "\u2014");
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(!predicted ? "" : g == e ? "=" : "\u2260");
    };
    for (engine::Tensor tensor : {engine::Tensor::kQ, engine::Tensor::kK, engine::Tensor::kV, engine::Tensor::kO, engine::Tensor::kL}) {
      const std::string n = engine::ToString(tensor);
      row(n + " " + T(s, view::Str::reads_now), gpu.Reads(tensor), predicted ? predicted->Reads(tensor) : 0);
      row(n + " " + T(s, view::Str::writes_now), gpu.Writes(tensor), predicted ? predicted->Writes(tensor) : 0);
    }
    row(T(s, view::Str::tiles) + " " + T(s, view::Str::computed), gpu.tiles_computed, predicted ? predicted->tiles_computed : 0);
    row(T(s, view::Str::tiles) + " " + T(s, view::Str::skipped), gpu.tiles_skipped, predicted ? predicted->tiles_skipped : 0);
    ImGui::EndTable();
  }
}

}  // namespace bw::app
