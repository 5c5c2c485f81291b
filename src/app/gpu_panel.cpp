// The GPU panel; see gpu_panel.h.
#include "app/gpu_panel.h"

#include <imgui.h>

#include <cmath>
#include <random>

#include "app/painter.h"
#include "cuda/attention_cuda.h"
#include "cuda/engine_adapter.h"
#include "cuda/gpu_record_json.h"
#include "engine/attention_formulas.h"
#include "view/gpu_scene.h"
#if BLOCKWISE_HAVE_CUDA
#include "cuda/gpu_run.h"
#endif

namespace bw::app {

namespace {

const std::string& T(const AppState& s, const char* key) { return view::UiText(key, s.options.lang); }

std::string Bytes(double b) {
  char buf[64];
  if (b >= 1e9) std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  else if (b >= 1e6) std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  else std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  return buf;
}

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

GpuPanel::GpuPanel(std::string recording_path) : recording_path_(std::move(recording_path)) {
#if BLOCKWISE_HAVE_CUDA
  if (!cuda::GpuAvailable(&why_no_gpu_) && why_no_gpu_.empty()) why_no_gpu_ = "no CUDA device";
#else
  why_no_gpu_ = "this build has no CUDA backend (nvcc was not found when it was configured)";
#endif
}

GpuPanel::~GpuPanel() = default;

bool GpuPanel::Busy() const { return (replay_ || live_) && !done_; }

void GpuPanel::Reset(const cuda::RunSummary& shape) {
  shape_ = shape;
  t_r_ = (shape.n_q + shape.b_r - 1) / std::max(1, shape.b_r) * std::max(1, shape.heads);
  t_c_ = (shape.n_k + shape.b_c - 1) / std::max(1, shape.b_c);
  cells_.assign(static_cast<size_t>(t_r_) * static_cast<size_t>(t_c_), view::kGpuCellPending);
  seen_ = 0;
  total_ = t_r_ * t_c_;
  loaded_ = written_ = 0;
  done_ = false;
  totals_.reset();
  error_.clear();
}

void GpuPanel::Take(const std::vector<cuda::TileRecord>& records) {
  const int per_head = (shape_.n_q + shape_.b_r - 1) / std::max(1, shape_.b_r);
  for (const auto& r : records) {
    const long long row = static_cast<long long>(r.head) * per_head + r.q_tile;
    const size_t idx = static_cast<size_t>(row) * static_cast<size_t>(t_c_) + r.kv_tile;
    if (idx < cells_.size()) cells_[idx] = (r.flags & cuda::kTileSkipped) ? view::kGpuCellSkipped : static_cast<int>(r.smid);
    loaded_ += r.bytes_loaded;
    written_ += r.bytes_written;
    ++seen_;
  }
}

void GpuPanel::StartReplay(double now, double elapsed_s) {
  live_.reset();
  try {
    replay_.emplace(cuda::LoadRecordedRun(recording_path_), slow_down_);
    Reset(replay_->Totals());
    started_at_ = now - elapsed_s;
  } catch (const std::exception& e) {
    replay_.reset();
    error_ = e.what();
  }
}

void GpuPanel::StartLive(double now) {
#if BLOCKWISE_HAVE_CUDA
  replay_.reset();
  cuda::Problem p;
  p.n_q = p.n_k = n_;
  p.d = p.d_v = d_;
  p.scale = 1.0f / std::sqrt(static_cast<float>(d_));
  p.mask.kind = causal_ ? cuda::MaskKind::CausalTopLeft : cuda::MaskKind::None;
  std::mt19937 rng(1);
  std::normal_distribution<float> g(0.0f, 1.0f);
  for (auto* v : {&p.q, &p.k, &p.v}) {
    v->resize(static_cast<size_t>(n_) * d_);
    for (auto& x : *v) x = g(rng);
  }
  cuda::GpuRunOptions o;
  o.algorithm = precision_ == 0 ? cuda::Algorithm::TiledFp32 : precision_ == 1 ? cuda::Algorithm::TensorCoreBf16
                                                                               : cuda::Algorithm::TensorCoreFp16;
  o.tiling = o.algorithm == cuda::Algorithm::TiledFp32 ? cuda::Tiling{b_r_, b_c_} : cuda::TensorCoreTiling(p.mask.kind);
  o.pace_ns = static_cast<std::uint64_t>(pace_ms_ * 1e6);
  cuda::RunSummary shape;
  shape.device_name = cuda::DeviceName();
  shape.algorithm = o.algorithm;
  shape.n_q = shape.n_k = n_;
  shape.d = shape.d_v = d_;
  shape.b_r = o.tiling.b_r;
  shape.b_c = o.tiling.b_c;
  shape.mask = p.mask.kind;
  try {
    live_ = {new cuda::GpuRun, [](cuda::GpuRun* r) { delete r; }};
    Reset(shape);
    live_->Start(p, o);
    started_at_ = now;
  } catch (const std::exception& e) {
    live_.reset();
    error_ = e.what();
  }
#else
  (void)now;
#endif
}

void GpuPanel::Draw(AppState& s, const Fonts& fonts, double now) {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(size.x * 0.8f, size.y * 0.85f), ImGuiCond_Appearing);
  if (!ImGui::Begin(T(s, "gpu_title").c_str(), &s.ui.show_gpu, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  // Poll whatever is running.
  if (replay_ && !done_) {
    Take(replay_->Poll(now - started_at_));
    if (replay_->Done()) {
      done_ = true;
      totals_ = replay_->Totals();
    }
  }
#if BLOCKWISE_HAVE_CUDA
  if (live_ && !done_) {
    Take(live_->Poll());
    if (live_->Done()) {
      Take(live_->Poll());
      done_ = true;
      totals_ = live_->Totals();
      shape_.sm_count = totals_->sm_count;
    }
  }
#endif

  // Source line: live GPU, or why not and what is replayed instead.
  if (why_no_gpu_.empty()) {
#if BLOCKWISE_HAVE_CUDA
    ImGui::Text("%s: %s", T(s, "gpu_live").c_str(), cuda::DeviceName().c_str());
#endif
  } else {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    ImGui::TextWrapped("%s %s", T(s, "gpu_none").c_str(), why_no_gpu_.c_str());
    ImGui::PopStyleColor();
  }
  if (why_no_gpu_.empty()) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("N", &n_, 1024);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("d", &d_, 32);
    ImGui::SameLine();
    ImGui::Checkbox(T(s, "causal").c_str(), &causal_);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::Combo("##prec", &precision_, "fp32 tiled\0bf16 tensor core\0fp16 tensor core\0");
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("B_r", &b_r_, 16);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("B_c", &b_c_, 16);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
    ImGui::SliderFloat(T(s, "gpu_pace").c_str(), &pace_ms_, 0.0f, 20.0f, "%.1f ms");
    n_ = std::clamp(n_, 64, 32768);
    d_ = std::clamp(d_, 1, 256);
    b_r_ = std::clamp(b_r_, 1, 64);
    b_c_ = std::clamp(b_c_, 1, 128);
    ImGui::SameLine();
    if (ImGui::Button(T(s, "gpu_run").c_str()) && !Busy()) StartLive(now);
    ImGui::SameLine();
  }
  if (ImGui::Button(T(s, "gpu_replay").c_str())) StartReplay(now);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  ImGui::SliderFloat(T(s, "gpu_slowdown").c_str(), &slow_down_, 1000.0f, 100000.0f, "%.0f\u00d7", ImGuiSliderFlags_Logarithmic);
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  if (!replay_ && !live_) {
    ImGui::TextWrapped("%s", T(s, "gpu_hint").c_str());
    ImGui::End();
    return;
  }

  // Header: what runs, and how far it is.
  ImGui::PushFont(fonts.large);
  ImGui::Text("%s \u00b7 N %d \u00b7 d %d \u00b7 B_r %d, B_c %d \u00b7 %s", cuda::AlgorithmName(shape_.algorithm), shape_.n_q,
              shape_.d, shape_.b_r, shape_.b_c, cuda::MaskKindName(shape_.mask));
  ImGui::PopFont();
  ImGui::Text("%s %s \u00b7 %s %d / %d \u00b7 %s %s \u00b7 %s %s", T(s, "gpu_device").c_str(),
              shape_.device_name.empty() ? "?" : shape_.device_name.c_str(), T(s, "tiles").c_str(), seen_, total_,
              T(s, "gpu_loaded").c_str(), Bytes(static_cast<double>(loaded_)).c_str(), T(s, "gpu_written").c_str(),
              Bytes(static_cast<double>(written_)).c_str());
  ImGui::ProgressBar(total_ > 0 ? static_cast<float>(seen_) / static_cast<float>(total_) : 0.0f, ImVec2(-1, 0));

  // The tile grid, cells coloured by SM; the results beside it once the run is over.
  const float grid_px = std::min(ImGui::GetContentRegionAvail().y, ImGui::GetContentRegionAvail().x * 0.55f);
  const float em = ImGui::GetFontSize();
  const view::Scene grid = view::BuildGpuGridScene(t_r_, t_c_, cells_, std::max(1, shape_.sm_count), grid_px / em,
                                                   grid_px / em, s.options.lang, s.Palette());
  ImGui::BeginGroup();
  PaintScene(ImGui::GetWindowDrawList(), grid, ImGui::GetCursorScreenPos(), em, fonts, s.Palette());
  ImGui::Dummy(ImVec2(grid_px, grid_px));
  ImGui::EndGroup();
  ImGui::SameLine();
  ImGui::BeginChild("gpu_results", ImVec2(0, grid_px));
  DrawResults(s);
  ImGui::EndChild();
  ImGui::End();
}

void GpuPanel::DrawResults(AppState& s) {
  ImGui::TextWrapped("%s", T(s, "gpu_legend").c_str());
  ImGui::Separator();
  if (!totals_) {
    ImGui::TextWrapped("%s", T(s, "gpu_running").c_str());
    return;
  }
  const auto& t = *totals_;
  if (ImGui::BeginTable("timing", 2, ImGuiTableFlags_BordersInnerH)) {
    const auto row = [](const std::string& k, const std::string& v) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(k.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::TextUnformatted(v.c_str());
    };
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f ms", t.kernel_ms);
    row(T(s, "gpu_time"), buf);
    std::snprintf(buf, sizeof buf, "%.1f TFLOP/s", t.tflops);
    row("TFLOP/s", buf);
    std::snprintf(buf, sizeof buf, "%.0f GB/s", t.gbps);
    row("GB/s", buf);
    row(T(s, "gpu_hbm"), Bytes(static_cast<double>(t.counters.hbm_read_bytes() + t.counters.hbm_write_bytes())));
    ImGui::EndTable();
  }
  // GPU counters against the CPU engine's, tensor by tensor, in elements.
  const engine::Counters gpu = cuda::ToEngine(t.counters, t.algorithm);
  const auto predicted = EnginePrediction(t);
  ImGui::Spacing();
  ImGui::TextUnformatted(T(s, "gpu_vs_engine").c_str());
  if (ImGui::BeginTable("counters", 4, ImGuiTableFlags_Borders)) {
    for (const char* h : {"", "GPU", T(s, "gpu_engine").c_str(), "="}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    const auto row = [&](const std::string& name, long long g, long long e) {
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      ImGui::TextUnformatted(name.c_str());
      ImGui::TableSetColumnIndex(1);
      ImGui::Text("%lld", g);
      ImGui::TableSetColumnIndex(2);
      if (predicted) ImGui::Text("%lld", e);
      else ImGui::TextUnformatted("\u2014");
      ImGui::TableSetColumnIndex(3);
      ImGui::TextUnformatted(!predicted ? "" : g == e ? "=" : "\u2260");
    };
    for (engine::Tensor tensor : {engine::Tensor::kQ, engine::Tensor::kK, engine::Tensor::kV, engine::Tensor::kO, engine::Tensor::kL}) {
      const std::string n = engine::ToString(tensor);
      row(n + " " + T(s, "reads_now"), gpu.Reads(tensor), predicted ? predicted->Reads(tensor) : 0);
      row(n + " " + T(s, "writes_now"), gpu.Writes(tensor), predicted ? predicted->Writes(tensor) : 0);
    }
    row(T(s, "tiles") + " " + T(s, "computed"), gpu.tiles_computed, predicted ? predicted->tiles_computed : 0);
    row(T(s, "tiles") + " " + T(s, "skipped"), gpu.tiles_skipped, predicted ? predicted->tiles_skipped : 0);
    ImGui::EndTable();
  }
}

}  // namespace bw::app
