// The GPU panel; see gpu_panel.h. Results (roofline, timing, counters): gpu_panel_results.cpp.
#include "app/gpu_panel.h"

#include "view/gpu_run_model.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>

#include "session/replay_clock.h"
#include "app/widgets.h"
#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "view/format.h"
#include "view/gpu_scene.h"
#include "view/gpu_text.h"
#include "view/gpu_tooltip.h"
#if BLOCKWISE_HAVE_CUDA
#include "cuda/gpu_run.h"
#include "cuda/hopper_cuda.h"
#endif

namespace bw::app {

std::string GpuBytes(double b) { return view::GpuBytes(b); }

GpuPanel::GpuPanel(std::string recording_path, ReplayClock& clock) : clock_(clock) {
  recordings_.push_back(recording_path);
  std::error_code ec;
  const auto dir = std::filesystem::path(recording_path).parent_path();
  std::vector<std::string> others;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json" && e.path() != std::filesystem::path(recording_path)) others.push_back(e.path().string());
  std::sort(others.begin(), others.end());
  recordings_.insert(recordings_.end(), others.begin(), others.end());
#if BLOCKWISE_HAVE_CUDA
  if (!cuda::GpuAvailable(&why_no_gpu_) && why_no_gpu_.empty()) why_no_gpu_ = "no CUDA device";
  if (why_no_gpu_.empty()) {
    try {
      device_name_ = cuda::DeviceName();
    } catch (const std::exception& e) {
      why_no_gpu_ = e.what();
    }
  }
  if (!why_no_gpu_.empty()) why_no_hopper_ = why_no_gpu_;
  else if (!cuda::HopperAvailable(&why_no_hopper_) && why_no_hopper_.empty()) why_no_hopper_ = "no sm_90 device";
#else
  why_no_gpu_ = "this build has no CUDA backend (nvcc was not found when it was configured)";
  why_no_hopper_ = why_no_gpu_;
#endif
}

GpuPanel::~GpuPanel() = default;

bool GpuPanel::Busy() const { return (live_ && !done_) || (replay_ && clock_.playing); }

void GpuPanel::LoadRecording(size_t index) {
  live_.reset();
  recording_ = std::min(index, recordings_.size() - 1);
  try {
    replay_ = cuda::LoadRecordedRun(recordings_[recording_]);
    shape_ = *replay_;
    clock_.loaded = true;
    clock_.span_ns = static_cast<double>(view::RunSpanNs(*replay_));
    clock_.slow_down = clock_.span_ns > 0 ? static_cast<float>(std::clamp(10.0 / (clock_.span_ns * 1e-9), 1e3, 1e7))
                                          : 20000.0f;  // about 10 s
    clock_.position_ns = clock_.span_ns;  // opens on the finished run, a drawn state (Play starts again from 0)
    clock_.playing = false;
    totals_ = *replay_;  // a recording's results are known from the start
    error_.clear();
  } catch (const std::exception& e) {
    replay_.reset();
    clock_ = ReplayClock{};
    totals_.reset();
    error_ = e.what();
  }
}

void GpuPanel::StartReplay(double now, double elapsed_s) {
  LoadRecording(0);
  if (!replay_) return;
  clock_.slow_down = 20000.0f;
  clock_.position_ns = std::min(clock_.span_ns, elapsed_s / clock_.slow_down * 1e9);
  clock_.playing = clock_.position_ns < clock_.span_ns;
  last_now_ = now;
}

std::string GpuPanel::StartLiveFromSpec(const std::string& spec, double now) {
  std::stringstream ss(spec);
  std::string alg, item;
  std::vector<double> v;
  std::getline(ss, alg, ',');
  while (std::getline(ss, item, ',')) v.push_back(std::atof(item.c_str()));
  const bool hopper = alg == "hopper";
  if (hopper ? (v.size() != 4 && v.size() != 5) : ((alg != "fp32" && alg != "bf16") || v.size() != 4))
    return "expected ALG,N,D,CAUSAL,PACE_MS with ALG fp32 or bf16, or hopper,N,D,CAUSAL,0[,WARP_CTAS]";
  if (hopper && v[3] != 0) return "the Hopper kernel has no slow motion: PACE_MS must be 0";
  if (hopper && (v[1] < 1 || v[1] > 128)) return "the Hopper kernel needs 1 <= d <= 128";
  precision_ = hopper ? kHopperChoice : alg == "fp32" ? 0 : 1;
  n_ = static_cast<int>(v[0]);
  d_ = static_cast<int>(v[1]);
  causal_ = v[2] != 0;
  pace_ms_ = static_cast<float>(v[3]);
  if (hopper) warp_ctas_ = v.size() == 5 ? std::clamp(static_cast<int>(v[4]), 0, 64) : 3;
  if (!why_no_gpu_.empty()) return why_no_gpu_;
  if (hopper && !why_no_hopper_.empty()) return why_no_hopper_;
  StartLive(now);
  return error_;
}

void GpuPanel::StartLive(double now) {
  (void)now;
#if BLOCKWISE_HAVE_CUDA
  replay_.reset();
  clock_ = ReplayClock{};  // the timeline goes back to the lesson while a live run is on screen
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
  const bool hopper = precision_ == kHopperChoice;
  o.algorithm = precision_ == 0 ? cuda::Algorithm::TiledFp32 : precision_ == 2 ? cuda::Algorithm::TensorCoreFp16
                                                                               : cuda::Algorithm::TensorCoreBf16;
  o.tiling = hopper ? cuda::kHopperTiling
             : o.algorithm == cuda::Algorithm::TiledFp32 ? cuda::Tiling{b_r_, b_c_} : cuda::TensorCoreTiling(p.mask.kind);
  o.pace_ns = hopper ? 0 : static_cast<std::uint64_t>(pace_ms_ * 1e6);
  if (hopper) {
    o.kernel = cuda::GpuKernel::kHopper;
    o.warp_sample_ctas = warp_ctas_;
  }
  shape_ = cuda::RunSummary{};
  shape_.device_name = device_name_;
  shape_.algorithm = o.algorithm;
  shape_.n_q = shape_.n_k = n_;
  shape_.d = shape_.d_v = d_;
  shape_.b_r = o.tiling.b_r;
  shape_.b_c = o.tiling.b_c;
  shape_.mask = p.mask.kind;
  shape_.sm_count = cuda::SmCount();
  if (hopper) shape_.kernel = "hopper";
  const auto cls = cuda::ClassifyTiles(p, o.tiling);
  frame_ = view::MakeGpuFrame(shape_, std::count(cls.begin(), cls.end(), std::uint8_t{0}));
  done_ = false;
  totals_.reset();
  error_.clear();
  try {
    live_ = {new cuda::GpuRun, [](cuda::GpuRun* r) { delete r; }};
    live_->Start(p, o);
  } catch (const std::exception& e) {
    live_.reset();
    error_ = e.what();
  }
#endif
}

void GpuPanel::PollLive() {
#if BLOCKWISE_HAVE_CUDA
  if (!live_ || done_) return;
  try {
    view::AddRecords(frame_, live_->Poll());
    if (live_->Done()) {
      view::AddRecords(frame_, live_->Poll());
      done_ = true;
      totals_ = live_->Totals();
    }
  } catch (const std::exception& e) {
    error_ = e.what();
    done_ = true;
  }
#endif
}

void GpuPanel::Tick(AppState& s, double now) {
  if (replay_) AdvanceGpuReplay(s, now - last_now_);
  last_now_ = now;
}

Painted GpuPanel::Draw(AppState& s, const Fonts& fonts, double now, const FillPass& fills) {
  fills_ = fills;
  Painted painted;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  // Opens above the main window's timeline, which stays visible: it scrubs the replay too (replay_clock.h).
  const float timeline_px = s.ui.chrome_px * 3.0f;
  ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.03f), ImGuiCond_Appearing, ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(size.x * 0.9f, std::max(size.y * 0.5f, size.y * 0.96f - timeline_px)), ImGuiCond_Appearing);
  if (!ImGui::Begin(T(s, view::Str::gpu_title).c_str(), &s.ui.show_gpu, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return painted;
  }
  // Without a GPU the panel opens on a paused replay of the default recording.
  if (!replay_ && !live_ && !why_no_gpu_.empty() && error_.empty()) LoadRecording(recording_);
  Tick(s, now);
  if (replay_) {
    frame_ = view::FrameAt(*replay_, static_cast<std::uint64_t>(clock_.position_ns));
    done_ = clock_.position_ns >= clock_.span_ns;
  }
  PollLive();

  GpuStatus& st = s.ui.gpu;
  st = GpuStatus{};
  // Where the tiles come from: a live kernel on this GPU (only then "LIVE"), or a recording.
  if (live_) {
    ImGui::PushStyleColor(ImGuiCol_Button, IM_COL32(46, 125, 50, 255));
    ImGui::SmallButton(T(s, view::Str::gpu_live_badge).c_str());
    ImGui::PopStyleColor();
    ImGui::SameLine();
    ImGui::TextUnformatted(device_name_.c_str());
    st.source = "live";
    st.sentence = T(s, view::Str::gpu_live_badge) + " " + device_name_;
  } else if (!why_no_gpu_.empty()) {
    ImGui::TextWrapped("%s", T(s, view::Str::gpu_none).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why_no_gpu_.c_str());
    ImGui::SameLine();
    ImGui::TextDisabled("(%s)", T(s, view::Str::gpu_driver_detail).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why_no_gpu_.c_str());
    if (replay_) {
      ImGui::SameLine();
      ImGui::TextDisabled("\u00b7 %s %s%s%s", T(s, view::Str::gpu_replay_of).c_str(), replay_->device_name.c_str(), clock_.playing ? "" : " \u00b7 ",
                          clock_.playing ? "" : T(s, view::Str::gpu_paused).c_str());
    }
    st.sentence = T(s, view::Str::gpu_none);
    st.detail = why_no_gpu_;
  } else {
    ImGui::Text("GPU: %s", device_name_.c_str());
    st.sentence = "GPU: " + device_name_;
    if (replay_) {
      ImGui::SameLine();
      ImGui::TextDisabled("\u00b7 %s %s%s%s", T(s, view::Str::gpu_replay_of).c_str(), replay_->device_name.c_str(), clock_.playing ? "" : " \u00b7 ",
                          clock_.playing ? "" : T(s, view::Str::gpu_paused).c_str());
    }
  }
  DrawControls(s, now);
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(183, 28, 28, 255));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  if (!replay_ && !live_) {
    ImGui::TextWrapped("%s", T(s, view::Str::gpu_hint).c_str());
    ImGui::End();
    return painted;
  }
  if (replay_) {
    st.source = "replay";
    st.recording = std::filesystem::path(recordings_[recording_]).filename().string();
    st.paused = !clock_.playing;
    st.position_us = clock_.position_ns * 1e-3;
    st.span_us = clock_.span_ns * 1e-3;
  }
  st.computed = frame_.computed;
  st.computed_total = frame_.computed_total;
  st.skipped = frame_.skipped;
  st.skipped_total = frame_.skipped_total;

  // What runs, and how far it is: computed tiles against computed tiles (skipped ones apart).
  ImGui::PushFont(fonts.large);
  // the kernel and the mask in the UI's words (the recording's ids, "tensor_core_bf16", "causal_top_left", are not for a class)
  ImGui::Text("%s \u00b7 N %s \u00b7 d %d \u00b7 B_r %d, B_c %d \u00b7 %s \u00b7 %s %s", view::KernelWords(shape_, s.options.lang).c_str(),
              view::FormatInt(shape_.n_q).c_str(), shape_.d, shape_.b_r, shape_.b_c, view::MaskWords(shape_.mask, s.options.lang).c_str(),
              T(s, view::Str::gpu_device).c_str(), shape_.device_name.empty() ? "?" : shape_.device_name.c_str());
  ImGui::PopFont();
  ImGui::TextDisabled("%s", KernelLabel(s.options.lang).c_str());
  ImGui::SameLine();
  ImGui::Text("%s %s / %s \u00b7 %s %s / %s \u00b7 %s %s \u00b7 %s %s (%s)", T(s, view::Str::gpu_computed).c_str(),
              view::FormatInt(frame_.computed).c_str(), view::FormatInt(frame_.computed_total).c_str(),
              T(s, view::Str::gpu_skipped_tiles).c_str(), view::FormatInt(frame_.skipped).c_str(),
              view::FormatInt(frame_.skipped_total).c_str(), T(s, view::Str::gpu_loaded).c_str(),
              GpuBytes(static_cast<double>(frame_.loaded_bytes)).c_str(), T(s, view::Str::gpu_written).c_str(),
              GpuBytes(static_cast<double>(frame_.written_bytes)).c_str(), view::GpuText(view::GpuStr::measured, s.options.lang).c_str());
  char overlay[32];
  std::snprintf(overlay, sizeof overlay, "%.1f %%", 100.0 * frame_.Fraction());
  ImGui::ProgressBar(static_cast<float>(frame_.Fraction()), ImVec2(-1, 0), overlay);

  // The tile grid on the left; lanes, roofline and numbers on the right.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float grid_px = std::max(50.0f, std::min(avail.y - 4.0f, avail.x * 0.40f));
  hovered_ = found_;
  found_ = {};
  DrawGrid(s, fonts, grid_px, painted);
  ImGui::SameLine();
  ImGui::BeginChild("gpu_results", ImVec2(0, grid_px));
  DrawResults(s, fonts, ImGui::GetContentRegionAvail().x, painted);
  ImGui::EndChild();
  ImGui::End();
  return painted;
}

// The kernel choice: the three FA-2 kernels, and the Hopper kernel where it can run (an sm_90 device),
// else shown greyed with the reason on hover.
void GpuPanel::DrawKernelChoice(AppState& s) {
  const std::string& lang = s.options.lang;
  const std::string hopper = view::GpuText(view::GpuStr::kernel_choice_hopper, lang);
  const char* names[] = {"fp32 tiled", "bf16 tensor core", "fp16 tensor core", hopper.c_str()};
  if (precision_ == kHopperChoice && !why_no_hopper_.empty()) precision_ = 1;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * (precision_ == kHopperChoice ? 13 : 8));
  if (ImGui::BeginCombo("##prec", names[std::clamp(precision_, 0, kHopperChoice)])) {
    for (int k = 0; k <= kHopperChoice; ++k) {
      const bool unavailable = k == kHopperChoice && !why_no_hopper_.empty();
      if (ImGui::Selectable(names[k], precision_ == k, unavailable ? ImGuiSelectableFlags_Disabled : 0)) precision_ = k;
      if (unavailable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", view::GpuFormat(view::GpuStr::hopper_unavailable, lang, {why_no_hopper_}).c_str());
    }
    ImGui::EndCombo();
  }
}

void GpuPanel::DrawControls(AppState& s, double now) {
  if (why_no_gpu_.empty()) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::InputInt("N", &n_, 1024);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("d", &d_, 32);
    ImGui::SameLine();
    ImGui::Checkbox(T(s, view::Str::causal).c_str(), &causal_);
    ImGui::SameLine();
    DrawKernelChoice(s);
    ImGui::SameLine();
    ImGui::BeginDisabled(precision_ != 0);  // the tensor-core kernels choose their own tiles (TensorCoreTiling)
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("B_r", &b_r_, 16);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::InputInt("B_c", &b_c_, 16);
    ImGui::EndDisabled();
    ImGui::SameLine();
    const bool hopper = precision_ == kHopperChoice;
    if (hopper) {  // no slow motion; instead, how many CTAs log their warp phases (the warp timeline)
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
      ImGui::InputInt(view::GpuText(view::GpuStr::warp_ctas, s.options.lang).c_str(), &warp_ctas_, 1);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", view::GpuText(view::GpuStr::hopper_fixed, s.options.lang).c_str());
      warp_ctas_ = std::clamp(warp_ctas_, 0, 64);
    } else {
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
      ImGui::SliderFloat(T(s, view::Str::gpu_pace).c_str(), &pace_ms_, 0.0f, 20.0f, "%.2f ms");
    }
    n_ = std::clamp(n_, 64, 32768);
    d_ = std::clamp(d_, 1, hopper ? 128 : 256);
    b_r_ = std::clamp(b_r_, 1, 64);
    b_c_ = std::clamp(b_c_, 1, 128);
    ImGui::SameLine();
    if (ImGui::Button(T(s, view::Str::gpu_run).c_str()) && !Busy()) StartLive(now);
  }
  // Replay: which recording, play / pause, speed, and the scrubber (GPU microseconds).
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  const std::string cur = std::filesystem::path(recordings_[recording_]).filename().string();
  if (ImGui::BeginCombo(T(s, view::Str::gpu_replay).c_str(), replay_ ? cur.c_str() : "")) {
    for (size_t i = 0; i < recordings_.size(); ++i)
      if (ImGui::Selectable(std::filesystem::path(recordings_[i]).filename().string().c_str(), replay_ && i == recording_))
        LoadRecording(i);
    ImGui::EndCombo();
  }
  if (!replay_) return;
  ImGui::SameLine();
  if (ImGui::Button(clock_.playing ? T(s, view::Str::gpu_pause).c_str() : T(s, view::Str::gpu_play).c_str())) {
    ToggleGpuReplay(s);
    last_now_ = now;
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
  ImGui::SliderFloat(T(s, view::Str::gpu_speed).c_str(), &clock_.slow_down, 1000.0f, 1e7f, "%.0f\u00d7", ImGuiSliderFlags_Logarithmic);
  // The scrubber: the same position as the main window's timeline (replay_clock.h).
  float pos_us = static_cast<float>(clock_.position_ns * 1e-3);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 6);
  char fmt[64];
  std::snprintf(fmt, sizeof fmt, "%%.1f / %.1f \u00b5s", clock_.span_ns * 1e-3);
  if (ImGui::SliderFloat(T(s, view::Str::gpu_time_at).c_str(), &pos_us, 0.0f, static_cast<float>(clock_.span_ns * 1e-3), fmt))
    ScrubGpuReplay(s, SliderUsToNs(pos_us, clock_.span_ns));
}

}  // namespace bw::app
