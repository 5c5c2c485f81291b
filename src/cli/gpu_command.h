// `blockwise-cli gpu`: the GPU panel in a terminal (issue 15). Counters and tiles done, refreshed
// while the kernel runs: with --live, a kernel on this machine's GPU through GpuRun (records copied on
// a second stream as it runs); without a GPU, or without --live, a recording (assets/gpu/*.json)
// replayed at --speed (GPU time slowed down by this factor; 0 = straight to the end). On a terminal the
// view redraws in place; otherwise one progress line per refresh, then the tile grid once.
// At the end: kernel time, TFLOP/s, GB/s, the roofline placement (H200/H100 peaks), the counters
// against the traffic model. Exit 0; 1 when the run or the recording fails (the reason on stderr).
#pragma once

#include <CLI/CLI.hpp>

namespace bw::cli {

void AddGpuCommand(CLI::App& app);

}  // namespace bw::cli
