// ScenarioModel for a recorded GPU run; see gpu_run_model.h. The scene is in gpu_run_scene.cpp.
#include "view/gpu_run_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "cuda/hopper_cuda.h"
#include "data/load_error.h"
#include "view/format.h"
#include "view/gpu_text.h"
#include "view/ui_text.h"

namespace bw::view {

namespace {

std::string Fixed(double x, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}
std::string Us(std::uint64_t ns) { return Fixed(static_cast<double>(ns) / 1e3, 1); }
std::string Pct(double share) { return Fixed(100.0 * share, 1); }

std::uint64_t FirstStart(const cuda::RunSummary& run) {
  std::uint64_t t0 = UINT64_MAX;
  for (const auto& t : run.tiles) t0 = std::min(t0, t.t_start_ns);
  return run.tiles.empty() ? 0 : t0;
}
bool Skipped(const cuda::TileRecord& t) { return (t.flags & cuda::kTileSkipped) != 0; }

cuda::RunSummary Load(const data::GpuRunScenario& sc, const std::filesystem::path& path, const char* json_path) {
  try {
    return cuda::LoadRecordedRun(path.string());
  } catch (const data::LoadError& e) {
    throw data::LoadError(sc.file, json_path, std::string("the recording does not load: ") + e.what());
  } catch (const std::exception& e) {
    throw data::LoadError(sc.file, json_path, std::string("the recording does not load: ") + e.what());
  }
}

std::string KernelName(const cuda::RunSummary& r) { return r.kernel.empty() ? cuda::AlgorithmName(r.algorithm) : r.kernel; }

const char* kPhaseKeys[] = {"tma_issue", "tma_wait", "wgmma_s", "softmax", "wgmma_pv", "write", "idle"};

}  // namespace

GpuRunStats RunStats(const cuda::RunSummary& run) {
  GpuRunStats s;
  s.rows = run.heads * ((run.n_q + std::max(1, run.b_r) - 1) / std::max(1, run.b_r));
  const std::uint64_t t0 = FirstStart(run);
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, std::uint64_t>>> by_sm;
  for (const auto& t : run.tiles) {
    s.span_ns = std::max(s.span_ns, t.t_end_ns - t0);
    if (Skipped(t)) continue;
    ++s.tiles_computed;
    by_sm[t.smid].emplace_back(t.t_start_ns - t0, t.t_end_ns - t0);
  }
  s.sms_used = static_cast<int>(by_sm.size());
  s.tail_ns = s.span_ns;
  double busy = 0;
  for (auto& [sm, iv] : by_sm) {
    std::sort(iv.begin(), iv.end());
    std::uint64_t a = iv[0].first, b = iv[0].second, last = 0;
    for (const auto& [x, y] : iv) {
      last = std::max(last, y);
      if (x > b) {
        busy += static_cast<double>(b - a);
        a = x;
      }
      b = std::max(b, y);
    }
    busy += static_cast<double>(b - a);
    s.tail_ns = std::min(s.tail_ns, last);
  }
  const double all = static_cast<double>(run.sm_count) * static_cast<double>(s.span_ns);
  s.idle_share = all > 0 ? 1.0 - busy / all : 0.0;
  return s;
}

std::vector<SmUse> SmUses(const cuda::RunSummary& run) {
  const std::uint64_t t0 = FirstStart(run);
  std::vector<SmUse> use(static_cast<size_t>(std::max(run.sm_count, 0)));
  for (const auto& t : run.tiles) {
    if (Skipped(t)) continue;
    if (t.smid >= use.size()) use.resize(static_cast<size_t>(t.smid) + 1);
    SmUse& u = use[t.smid];
    u.first_ns = u.used ? std::min(u.first_ns, t.t_start_ns - t0) : t.t_start_ns - t0;
    u.last_ns = std::max(u.last_ns, t.t_end_ns - t0);
    u.used = true;
  }
  return use;
}

int BusySmsAt(const cuda::RunSummary& run, std::uint64_t t_ns) {
  const std::uint64_t t0 = FirstStart(run);
  std::vector<std::uint32_t> sms;
  for (const auto& t : run.tiles)
    if (!Skipped(t) && t.t_start_ns - t0 <= t_ns && t_ns < t.t_end_ns - t0) sms.push_back(t.smid);
  std::sort(sms.begin(), sms.end());
  return static_cast<int>(std::unique(sms.begin(), sms.end()) - sms.begin());
}

std::optional<cuda::Counters> ModelCounters(const cuda::RunSummary& run) {
  if (run.mask != cuda::MaskKind::None && run.mask != cuda::MaskKind::CausalTopLeft && run.mask != cuda::MaskKind::CausalBottomRight)
    return std::nullopt;
  cuda::Problem p;
  p.n_q = run.n_q;
  p.n_k = run.n_k;
  p.d = run.d;
  p.d_v = run.d_v;
  p.heads = run.heads;
  p.mask.kind = run.mask;
  if (run.kernel == "hopper") return cuda::PredictHopperCounters(p);
  return cuda::PredictCounters(p, run.algorithm, cuda::Tiling{run.b_r, run.b_c});
}

std::string KernelWords(const cuda::RunSummary& r, const std::string& lang) {
  if (r.kernel == "hopper") return GpuText(GpuStr::kernel_hopper, lang);
  if (!r.kernel.empty() && r.kernel != "fa2-mma") return r.kernel;  // a kernel this build has no words for
  switch (r.algorithm) {
    case cuda::Algorithm::Materialising: return GpuText(GpuStr::kernel_materialising, lang);
    case cuda::Algorithm::TiledFp32: return GpuText(GpuStr::kernel_tiled_fp32, lang);
    case cuda::Algorithm::TensorCoreBf16: return GpuText(GpuStr::kernel_tc_bf16, lang);
    case cuda::Algorithm::TensorCoreFp16: return GpuText(GpuStr::kernel_tc_fp16, lang);
  }
  return cuda::AlgorithmName(r.algorithm);
}

std::string MaskWords(cuda::MaskKind m, const std::string& lang) {
  switch (m) {
    case cuda::MaskKind::None: return GpuText(GpuStr::mask_none, lang);
    case cuda::MaskKind::CausalTopLeft: return GpuText(GpuStr::mask_causal_top_left, lang);
    case cuda::MaskKind::CausalBottomRight: return GpuText(GpuStr::mask_causal_bottom_right, lang);
    case cuda::MaskKind::KeyPadding: return GpuText(GpuStr::mask_key_padding, lang);
    case cuda::MaskKind::Explicit: return GpuText(GpuStr::mask_explicit, lang);
  }
  return cuda::MaskKindName(m);
}

bool SameProblem(const cuda::RunSummary& a, const cuda::RunSummary& b) {
  return a.n_q == b.n_q && a.n_k == b.n_k && a.d == b.d && a.d_v == b.d_v && a.heads == b.heads && a.mask == b.mask;
}

double WarpPhaseShare(const cuda::RunSummary& run, int warpgroup, cuda::WarpPhase phase) {
  double in = 0, all = 0;
  for (const auto& w : run.warp_phases) {
    if (w.warpgroup != warpgroup) continue;
    const double d = static_cast<double>(w.t_end_ns - w.t_start_ns);
    all += d;
    if (w.phase == phase) in += d;
  }
  return all > 0 ? in / all : 0.0;
}

GpuRunModel::GpuRunModel(data::GpuRunScenario sc) : scenario_(std::move(sc)) {
  run_ = Load(scenario_, scenario_.recording_path, "/recording");
  if (run_.tiles.empty()) throw data::LoadError(scenario_.file, "/recording", "the recording has no tile records to replay");
  if (scenario_.warps && run_.warp_phases.empty())
    throw data::LoadError(scenario_.file, "/scene",
                          "the recording has no warp phases to draw (only the Hopper kernel records them, for sampled CTAs): use \"replay\"");
  if (!scenario_.compare.empty()) {
    compare_ = Load(scenario_, scenario_.compare_path, "/compare");
    if (compare_->tiles.empty()) throw data::LoadError(scenario_.file, "/compare", "the recording has no tile records to replay");
    compare_stats_ = RunStats(*compare_);
  }
  stats_ = RunStats(run_);
  model_ = ModelCounters(run_);
  events_.push_back({Event::kStart, 0, 0});
  bool tail_placed = false;
  for (int k = 1; k <= kFrames; ++k) {
    const std::uint64_t t = stats_.span_ns * static_cast<std::uint64_t>(k) / kFrames;
    if (!tail_placed && stats_.tail_ns < t) {
      events_.push_back({Event::kTail, stats_.tail_ns, 0});
      tail_placed = true;
    }
    events_.push_back({k == kFrames ? Event::kEnd : Event::kFrame, t, k});
  }
  if (compare_) events_.push_back({Event::kCompare, stats_.span_ns, kFrames});
}

std::string GpuRunModel::EventLabel(int e) const {
  const Event& ev = events_.at(static_cast<size_t>(e));
  switch (ev.kind) {
    case Event::kStart: return "start";
    case Event::kFrame: return "replay " + std::to_string(ev.frame) + "/" + std::to_string(kFrames);
    case Event::kTail: return "tail";
    case Event::kEnd: return "end";
    case Event::kCompare: return "compare";
  }
  return "";
}

std::vector<data::AcceptedPosition> GpuRunModel::AcceptedPositions() const {
  std::vector<data::AcceptedPosition> a = {{data::PositionForm::kStart},
                                           {data::PositionForm::kEvent, false, EventCount()},
                                           {data::PositionForm::kTail},
                                           {data::PositionForm::kEnd}};
  if (compare_) a.push_back({data::PositionForm::kCompare});
  return a;
}

int GpuRunModel::Find(const data::Position& p) const {
  const auto first = [&](Event::Kind k) {
    for (size_t i = 0; i < events_.size(); ++i)
      if (events_[i].kind == k) return static_cast<int>(i);
    return -1;
  };
  switch (p.form) {
    case data::PositionForm::kStart: return 0;
    case data::PositionForm::kEvent: return p.n <= EventCount() ? p.n - 1 : -1;
    case data::PositionForm::kTail: return first(Event::kTail);
    case data::PositionForm::kEnd: return first(Event::kEnd);
    case data::PositionForm::kCompare: return first(Event::kCompare);
    default: return -1;
  }
}

Quantities GpuRunModel::QuantitiesAt(int e) const {
  const Event& ev = events_.at(static_cast<size_t>(e));
  const auto& c = run_.counters;
  Quantities q;
  q["device"] = run_.device_name;
  q["kernel"] = KernelName(run_);
  q["n_q"] = FormatInt(run_.n_q);
  q["n_k"] = FormatInt(run_.n_k);
  q["d"] = std::to_string(run_.d);
  q["heads"] = std::to_string(run_.heads);
  q["mask"] = cuda::MaskKindName(run_.mask);
  q["b_r"] = std::to_string(run_.b_r);
  q["b_c"] = std::to_string(run_.b_c);
  q["sm_count"] = std::to_string(run_.sm_count);
  q["ctas"] = FormatInt(stats_.rows);
  q["kernel_us"] = Fixed(run_.kernel_ms * 1e3, 1);
  q["tflops"] = Fixed(run_.tflops, 1);
  q["gbps"] = FormatInt(std::llround(run_.gbps));
  q["bytes_read"] = FormatInt(c.hbm_read_bytes());
  q["bytes_written"] = FormatInt(c.hbm_write_bytes());
  q["tiles_total"] = FormatInt(c.tiles_total);
  q["tiles_computed"] = FormatInt(stats_.tiles_computed);
  q["tiles_skipped"] = FormatInt(c.tiles_skipped);
  q["sms_used"] = std::to_string(stats_.sms_used);
  q["sms_idle"] = std::to_string(run_.sm_count - stats_.sms_used);
  q["idle_share_pct"] = Pct(stats_.idle_share);
  q["span_us"] = Us(stats_.span_ns);
  q["tail_us"] = Us(stats_.span_ns - stats_.tail_ns);
  q["tail_share_pct"] = Pct(stats_.span_ns ? static_cast<double>(stats_.span_ns - stats_.tail_ns) / static_cast<double>(stats_.span_ns) : 0.0);
  if (model_) {
    q["model_bytes_read"] = FormatInt(model_->hbm_read_bytes());
    q["model_bytes_written"] = FormatInt(model_->hbm_write_bytes());
    q["model_tiles_skipped"] = FormatInt(model_->tiles_skipped);
    q["bytes_read_diff"] = FormatInt(c.hbm_read_bytes() - model_->hbm_read_bytes());
  }
  if (cuda::DevicePeaks peaks; cuda::PeaksFor(run_.device_name, &peaks)) {
    const double roof = peaks.ComputeRoof(run_.algorithm) / 1e12;
    q["peak_tflops"] = FormatInt(std::llround(roof));
    q["peak_share_pct"] = Pct(run_.tflops / roof);
  }
  // At the position.
  const GpuFrame f = FrameAt(run_, ev.t_ns);
  q["t_us"] = Us(ev.kind == Event::kStart ? 0 : ev.t_ns);
  q["tiles_done"] = FormatInt(ev.kind == Event::kStart ? 0 : f.computed);
  q["busy_sms"] = std::to_string(ev.kind == Event::kStart ? 0 : BusySmsAt(run_, ev.t_ns));
  q["done_pct"] = Pct(ev.kind == Event::kStart ? 0.0 : f.Fraction());
  if (compare_) {
    q["compare_kernel"] = KernelName(*compare_);
    q["compare_kernel_us"] = Fixed(compare_->kernel_ms * 1e3, 1);
    q["compare_tflops"] = Fixed(compare_->tflops, 1);
    q["compare_bytes_read"] = FormatInt(compare_->counters.hbm_read_bytes());
    q["compare_bytes_written"] = FormatInt(compare_->counters.hbm_write_bytes());
    q["compare_sms_used"] = std::to_string(compare_stats_.sms_used);
    q["compare_idle_share_pct"] = Pct(compare_stats_.idle_share);
    q["compare_same_problem"] = SameProblem(run_, *compare_) ? "1" : "0";
    q["compare_problem"] = "N " + FormatInt(compare_->n_q) + " · d " + std::to_string(compare_->d) + " · heads " +
                           std::to_string(compare_->heads) + " · " + cuda::MaskKindName(compare_->mask);
    // Throughput, not time: the two recordings may hold different amounts of work (heads, N, mask); for
    // the same problem it equals compare_kernel_us / kernel_us, and the compare panel says which it is.
    q["speedup"] = Fixed(compare_->tflops > 0 ? run_.tflops / compare_->tflops : 0.0, 2);
  }
  if (!run_.warp_phases.empty())
    for (int w = 0; w < 3; ++w)
      for (int ph = 0; ph < 7; ++ph)
        q[std::string("wg_") + kPhaseKeys[ph] + "@" + std::to_string(w + 1)] = Pct(WarpPhaseShare(run_, w, static_cast<cuda::WarpPhase>(ph)));
  return q;
}

std::vector<PanelSection> GpuRunModel::Panels(int e, const std::string& lang) const {
  const Quantities q = QuantitiesAt(e);
  const auto T = [&](Str s) { return UiText(s, lang); };
  const auto at = [&](const char* k) { const auto it = q.find(k); return it == q.end() ? std::string() : it->second; };
  std::vector<PanelSection> out;
  PanelSection run{"run", T(Str::grun_sec_run), {}, {}};
  run.rows.push_back({T(Str::grun_device), at("device")});
  const auto problem = [&](const cuda::RunSummary& r) {
    return GpuFormat(GpuStr::problem_line, lang, {FormatInt(r.n_q), std::to_string(r.d), std::to_string(r.heads), MaskWords(r.mask, lang)});
  };
  run.rows.push_back({T(Str::grun_kernel), KernelWords(run_, lang)});
  run.rows.push_back({T(Str::grun_problem), problem(run_) + " · B_r×B_c " + at("b_r") + "×" + at("b_c")});
  // Two measured times, each named by what it spans: the kernel's (CUDA events around the launch) and the
  // replay's (the tile records' first start to last end, the scene's axis) — 320.0 and 314.4 µs for FA3's
  // FA-2 run, side by side they read as one time measured twice.
  run.rows.push_back({GpuText(GpuStr::kernel_time_events, lang), at("kernel_us") + " µs", false, -1, false, false, true});
  run.rows.push_back({T(Str::grun_tflops), at("tflops"), false, -1, false, false, true});
  run.rows.push_back({T(Str::grun_ctas), at("ctas")});
  if (q.count("peak_tflops")) {
    run.rows.push_back({T(run_.algorithm == cuda::Algorithm::TiledFp32 ? Str::grun_peak_fp32 : Str::grun_peak), at("peak_tflops")});
    run.rows.push_back({T(Str::grun_peak_share), at("peak_share_pct") + "%"});
  }
  run.rows.push_back({T(Str::grun_idle), at("idle_share_pct") + "%"});
  out.push_back(run);
  PanelSection sms{"sms", T(Str::grun_sec_sms), {}, {}};
  sms.rows.push_back({T(Str::grun_sms_used), at("sms_used") + " / " + at("sm_count"), false, -1, false, false, true});
  sms.rows.push_back({T(Str::grun_idle), at("idle_share_pct") + "%", false, -1, false, false, true});
  sms.rows.push_back({T(Str::grun_tail), at("tail_us") + " µs · " + at("tail_share_pct") + "%"});
  sms.rows.push_back({GpuText(GpuStr::replay_span, lang), at("span_us") + " µs"});
  sms.rows.push_back({T(Str::grun_now), at("t_us") + " / " + at("span_us") + " µs"});
  sms.rows.push_back({T(Str::grun_tiles_done), at("tiles_done") + " / " + at("tiles_computed")});
  sms.rows.push_back({T(Str::grun_busy_now), at("busy_sms")});
  out.push_back(sms);
  PanelSection cnt{"counters", T(Str::grun_sec_counters), {}, {}};
  cnt.rows.push_back({T(Str::grun_read_measured), at("bytes_read"), false, -1, false, false, true});
  cnt.rows.push_back(model_ ? PanelRow{T(Str::grun_read_model), at("model_bytes_read"), false, -1, false, false, true}
                            : PanelRow{T(Str::grun_read_model), T(Str::grun_no_model)});
  cnt.rows.push_back({T(Str::grun_write_measured), at("bytes_written")});
  if (model_) cnt.rows.push_back({T(Str::grun_write_model), at("model_bytes_written")});
  cnt.rows.push_back({T(Str::grun_tiles), at("tiles_computed") + " / " + at("tiles_skipped")});
  out.push_back(cnt);
  if (!run_.warp_phases.empty()) {  // each warpgroup's share of its time per phase (the body's numbers)
    PanelSection wps{"warps", T(Str::grun_sec_warps), {}, {}};
    const auto G = [&](GpuStr g) { return GpuText(g, lang); };
    const auto share = [&](GpuStr name, const char* key, int wg) { return G(name) + " " + at((std::string("wg_") + key + "@" + std::to_string(wg)).c_str()) + "%"; };
    wps.rows.push_back({G(GpuStr::warps_producer), share(GpuStr::phase_tma_issue, "tma_issue", 1) + " · " + share(GpuStr::phase_idle, "idle", 1)});
    for (int wg : {2, 3})
      wps.rows.push_back({G(wg == 2 ? GpuStr::warps_consumer1 : GpuStr::warps_consumer2),
                          share(GpuStr::phase_softmax, "softmax", wg) + " · " + share(GpuStr::phase_wgmma_pv, "wgmma_pv", wg) + " · " +
                              share(GpuStr::phase_tma_wait, "tma_wait", wg) + " · " + share(GpuStr::phase_wgmma_s, "wgmma_s", wg)});
    out.push_back(wps);
  }
  if (compare_) {
    PanelSection cmp{"compare", T(Str::grun_sec_compare), {}, {}};
    const bool same = SameProblem(run_, *compare_);
    cmp.rows.push_back({T(Str::grun_kernel), KernelWords(*compare_, lang)});
    cmp.rows.push_back({T(Str::grun_problem), problem(*compare_)});
    cmp.rows.push_back({GpuText(GpuStr::kernel_time_events, lang), at("compare_kernel_us") + " µs", false, -1, false, false, true});
    cmp.rows.push_back({T(Str::grun_tflops), at("compare_tflops")});
    cmp.rows.push_back({T(Str::grun_read_measured), at("compare_bytes_read")});
    // A different problem is named where it matters, a notice (not a mistake), and the ratio is called
    // what it is: throughput; the time ratio of two different amounts of work is no speed-up.
    PanelRow note{same ? GpuText(GpuStr::compare_same, lang) : GpuFormat(GpuStr::compare_other, lang, {problem(*compare_)}), ""};
    note.notice = !same;
    cmp.rows.push_back(note);
    cmp.rows.push_back({same ? T(Str::grun_speedup) : GpuText(GpuStr::throughput_ratio, lang), at("speedup") + "×", false, -1, false, false, true});
    out.push_back(cmp);
  }
  return out;
}

std::vector<TimelineMark> GpuRunModel::BlockMarks() const {
  std::vector<TimelineMark> marks;
  for (int e = 0; e < EventCount(); ++e)
    if (events_[static_cast<size_t>(e)].kind != Event::kFrame) marks.push_back({e, EventLabel(e)});
  return marks;
}

std::vector<std::string> GpuRunModel::Texts() const {
  std::vector<std::string> texts;
  const Palette pal = ClassroomPalette();
  for (const char* lang : {"zh", "en"})
    for (int e : {0, EventCount() - 1}) {
      for (const auto& t : BuildScene(e, lang, pal).texts) texts.push_back(t.text);
      for (const auto& r : BuildScene(e, lang, pal).rects) texts.push_back(r.label + r.sublabel);
      AppendPanelTexts(Panels(e, lang), texts);
      texts.push_back(EventTitle(e, lang));
    }
  return texts;
}

}  // namespace bw::view
