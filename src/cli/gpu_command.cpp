// `blockwise-cli gpu`; see gpu_command.h.
#include "cli/gpu_command.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <thread>

#include "cuda/attention_cuda.h"
#include "cuda/gpu_record_json.h"
#include "view/format.h"
#include "view/gpu_roofline.h"
#include "view/gpu_scene.h"
#if BLOCKWISE_HAVE_CUDA
#include "cuda/gpu_run.h"
#endif

namespace bw::cli {
namespace {

struct Options {
  bool live = false;
  std::string recording, alg = "fp32", lang = "en";
  int n = 8192, d = 128;
  bool causal = false;
  double pace_ms = 0, speed = -1, refresh_ms = 100;
  int width = 64;
};

std::string Root() {
  if (const char* root = std::getenv("BLOCKWISE_ROOT")) return root;
  return BLOCKWISE_SOURCE_ROOT;
}

std::string Mb(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f MB", b / 1e6);
  return buf;
}

// The grid at most `width` columns wide (and half as many rows): each character stands for a block
// of cells. '/' all skipped, '.' some not done yet, '0'..'9' done, by start time (0 = first tenth).
std::string AsciiGrid(const view::GpuFrame& f, int width) {
  if (f.rows <= 0 || f.t_c <= 0) return "";
  const int cols = std::min(width, f.t_c), rows = std::min(std::max(1, width / 2), f.rows);
  const double span = f.any && f.t_last_ns > f.t0_ns ? static_cast<double>(f.t_last_ns - f.t0_ns) : 1.0;
  std::string out;
  for (int r = 0; r < rows; ++r) {
    const int i0 = r * f.rows / rows, i1 = (r + 1) * f.rows / rows;
    for (int c = 0; c < cols; ++c) {
      const int j0 = c * f.t_c / cols, j1 = (c + 1) * f.t_c / cols;
      int pending = 0, done = 0;
      double start = 0;
      for (int i = i0; i < i1; ++i)
        for (int j = j0; j < j1; ++j) {
          const auto& cell = f.cells[static_cast<size_t>(i) * f.t_c + j];
          if (cell.state == view::GpuCell::kPending) ++pending;
          if (cell.state == view::GpuCell::kDone) ++done, start += static_cast<double>(cell.t_start_ns - f.t0_ns);
        }
      if (pending > 0) out += '.';
      else if (done == 0) out += '/';
      else out += static_cast<char>('0' + std::min(9, static_cast<int>(10.0 * start / done / span)));
    }
    out += '\n';
  }
  return out;
}

std::string ProgressLine(const view::GpuFrame& f) {
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.1f %%", 100.0 * f.Fraction());
  return "tiles computed " + view::FormatInt(f.computed) + " / " + view::FormatInt(f.computed_total) + " (" + pct +
         ")  skipped " + view::FormatInt(f.skipped) + " / " + view::FormatInt(f.skipped_total) + "  loaded " +
         Mb(static_cast<double>(f.loaded_bytes)) + "  written " + Mb(static_cast<double>(f.written_bytes)) + "  SMs used " +
         view::FormatInt(f.SmsUsed());
}

void Show(const view::GpuFrame& f, bool tty, int width, double elapsed_s) {
  char t[32];
  std::snprintf(t, sizeof t, "[%6.2f s] ", elapsed_s);
  if (tty) std::cout << "\x1b[H\x1b[J" << t << ProgressLine(f) << "\n" << AsciiGrid(f, width) << std::flush;
  else std::cout << t << ProgressLine(f) << "\n" << std::flush;
}

void Summary(const cuda::RunSummary& r, const view::GpuFrame& f, bool tty, int width) {
  if (!tty) std::cout << AsciiGrid(f, width);
  std::cout << "legend: '.' not done yet  '/' skipped (fully masked)  0-9 done, by start time (0 = first tenth)\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s on %s: N %d, d %d, B_r %d, B_c %d, %s, heads %d\n", cuda::AlgorithmName(r.algorithm),
                r.device_name.c_str(), r.n_q, r.d, r.b_r, r.b_c, cuda::MaskKindName(r.mask), r.heads);
  std::cout << buf;
  std::snprintf(buf, sizeof buf, "kernel %.4f ms  %.1f TFLOP/s  %s GB/s (modelled HBM bytes %s)\n", r.kernel_ms, r.tflops,
                view::FormatInt(static_cast<std::int64_t>(r.gbps + 0.5)).c_str(),
                view::FormatInt(r.counters.hbm_read_bytes() + r.counters.hbm_write_bytes()).c_str());
  std::cout << buf;
  cuda::DevicePeaks peaks;
  if (cuda::PeaksFor(r.device_name, &peaks)) {
    const auto p = view::PlaceOnRoofline(r, peaks);
    std::snprintf(buf, sizeof buf,
                  "roofline: %.1f FLOP/B (ridge %.1f): %s-bound; %.1f TFLOP/s = %.0f %% of the roof (%.0f TFLOP/s), %.1f %% of the "
                  "%s peak\n",
                  p.intensity, p.ridge, p.memory_bound ? "memory" : "compute", p.attained_flops / 1e12, 100 * p.fraction_of_roof,
                  p.roof_flops / 1e12, 100 * p.fraction_of_peak,
                  (r.algorithm == cuda::Algorithm::TiledFp32 ? "fp32" : "tensor-core"));
    std::cout << buf;
  } else {
    std::cout << "roofline: peaks of \"" << r.device_name << "\" unknown\n";
  }
  std::cout << "counters (elements): Q read " << view::FormatInt(r.counters.q.read_elems) << ", K read "
            << view::FormatInt(r.counters.k.read_elems) << ", V read " << view::FormatInt(r.counters.v.read_elems) << ", O write "
            << view::FormatInt(r.counters.o.write_elems) << ", L write " << view::FormatInt(r.counters.l.write_elems)
            << "; tiles " << view::FormatInt(r.counters.tiles_total) << ", skipped " << view::FormatInt(r.counters.tiles_skipped)
            << "\n";
}

int Replay(const Options& o, const std::string& why) {
  if (!why.empty()) std::cout << view::UiText(view::Str::gpu_none, o.lang) << "  (" << why << ")\n";
  const std::string path = o.recording.empty() ? Root() + "/assets/gpu/recorded_run_h200.json" : o.recording;
  const cuda::RunSummary run = cuda::LoadRecordedRun(path);
  const double span = static_cast<double>(view::RunSpanNs(run));
  const double slow = o.speed >= 0 ? o.speed : (span > 0 ? 10.0 / (span * 1e-9) : 0.0);
  std::cout << view::UiText(view::Str::gpu_replay_of, o.lang) << " " << run.device_name << ": " << path << "\n";
  const bool tty = isatty(STDOUT_FILENO) != 0;
  const auto t0 = std::chrono::steady_clock::now();
  view::GpuFrame f;
  for (;;) {
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double at = slow > 0 ? el / slow * 1e9 : span;
    f = view::FrameAt(run, static_cast<std::uint64_t>(std::min(at, span)));
    Show(f, tty, o.width, el);
    if (at >= span) break;
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(o.refresh_ms));
  }
  Summary(run, f, tty, o.width);
  return 0;
}

#if BLOCKWISE_HAVE_CUDA
int Live(const Options& o) {
  cuda::Problem p;
  p.n_q = p.n_k = o.n;
  p.d = p.d_v = o.d;
  p.scale = 1.0f / std::sqrt(static_cast<float>(o.d));
  p.mask.kind = o.causal ? cuda::MaskKind::CausalTopLeft : cuda::MaskKind::None;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (auto* v : {&p.q, &p.k, &p.v}) {
    v->resize(static_cast<size_t>(o.n) * o.d);
    for (auto& x : *v) x = u(rng);
  }
  cuda::GpuRunOptions ro;
  ro.algorithm = o.alg == "bf16" ? cuda::Algorithm::TensorCoreBf16 : cuda::Algorithm::TiledFp32;
  ro.tiling = ro.algorithm == cuda::Algorithm::TiledFp32 ? cuda::Tiling{64, 64} : cuda::TensorCoreTiling(p.mask.kind);
  ro.pace_ns = static_cast<std::uint64_t>(o.pace_ms * 1e6);
  cuda::RunSummary shape;
  shape.n_q = shape.n_k = o.n;
  shape.d = shape.d_v = o.d;
  shape.b_r = ro.tiling.b_r;
  shape.b_c = ro.tiling.b_c;
  shape.sm_count = cuda::SmCount();
  const auto cls = cuda::ClassifyTiles(p, ro.tiling);
  view::GpuFrame f = view::MakeGpuFrame(shape, std::count(cls.begin(), cls.end(), std::uint8_t{0}));
  std::cout << view::UiText(view::Str::gpu_live_badge, o.lang) << " " << cuda::DeviceName() << "\n";
  const bool tty = isatty(STDOUT_FILENO) != 0;
  cuda::GpuRun run;
  const auto t0 = std::chrono::steady_clock::now();
  run.Start(p, ro);
  auto last = t0 - std::chrono::hours(1);
  while (!run.Done()) {
    view::AddRecords(f, run.Poll());
    const auto now = std::chrono::steady_clock::now();
    if (now - last >= std::chrono::duration<double, std::milli>(o.refresh_ms)) {
      Show(f, tty, o.width, std::chrono::duration<double>(now - t0).count());
      last = now;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  view::AddRecords(f, run.Poll());
  Show(f, tty, o.width, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  const cuda::RunSummary& r = run.Totals();
  Summary(r, f, tty, o.width);
  const bool model_ok = r.counters == cuda::PredictCounters(p, ro.algorithm, ro.tiling);
  std::cout << "counters " << (model_ok ? "equal" : "DIFFER FROM") << " the traffic model; live records "
            << view::FormatInt(run.TilesSeen()) << " / " << view::FormatInt(run.TilesTotal()) << ", copies while running "
            << view::FormatInt(run.CopiesIssued()) << ", mismatches after re-reading " << run.LiveMismatches() << "\n";
  return model_ok && run.LiveMismatches() == 0 ? 0 : 1;
}
#endif

}  // namespace

void AddGpuCommand(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("gpu", "The GPU panel in a terminal: a live kernel (--live) or a recorded H200 run");
  cmd->add_flag("--live", o->live, "Run the kernel on this machine's GPU (falls back to the recording without one)");
  cmd->add_option("--recording", o->recording, "Recorded run to replay (default assets/gpu/recorded_run_h200.json)");
  cmd->add_option("--alg", o->alg, "Live: fp32 (tiled FA-2) or bf16 (tensor core)")->check(CLI::IsMember({"fp32", "bf16"}));
  cmd->add_option("-n", o->n, "Live: sequence length N")->check(CLI::Range(64, 65536));
  cmd->add_option("-d", o->d, "Live: head dimension d")->check(CLI::Range(1, 256));
  cmd->add_flag("--causal", o->causal, "Live: causal mask (top-left)");
  cmd->add_option("--pace-ms", o->pace_ms, "Live: each computed tile lasts at least this long (slow motion)");
  cmd->add_option("--speed", o->speed, "Replay: GPU time slowed down by this factor (default: about 10 s in all; 0 = at once)");
  cmd->add_option("--refresh-ms", o->refresh_ms, "Refresh interval")->check(CLI::Range(1.0, 10000.0));
  cmd->add_option("--width", o->width, "Grid width in characters")->check(CLI::Range(8, 400));
  cmd->add_option("--lang", o->lang, "Language: en or zh")->check(CLI::IsMember({"en", "zh"}));
  cmd->callback([o]() {
    try {
      std::string why;
#if BLOCKWISE_HAVE_CUDA
      if (o->live && cuda::GpuAvailable(&why)) {
        if (Live(*o) != 0) throw CLI::RuntimeError(1);
        return;
      }
      if (o->live && why.empty()) why = "no CUDA device";
#else
      if (o->live) why = "this build has no CUDA backend (nvcc was not found when it was configured)";
#endif
      Replay(*o, why);
    } catch (const CLI::RuntimeError&) {
      throw;
    } catch (const std::exception& e) {
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(1);
    }
  });
}

}  // namespace bw::cli
