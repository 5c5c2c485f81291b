// gpu_run_load: loads each recording named on the command line with the app's loader
// (cuda::LoadRecordedRun) and prints one line per file, "ok PATH" or "refused PATH: the error line", for
// gpu_run_schema_agreement.py, which compares that verdict with schemas/gpu-run-v1.schema.json's.
#include <cstdio>
#include <exception>

#include "cuda/gpu_record_json.h"

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    try {
      const bw::cuda::RunSummary r = bw::cuda::LoadRecordedRun(argv[i]);
      std::printf("ok %s %zu\n", argv[i], r.warp_phases.size());
    } catch (const std::exception& e) {
      std::printf("refused %s: %s\n", argv[i], e.what());
    }
  }
  return 0;
}
