// blockwise-cli: the headless front end over engine + scenario + lesson files (and the test harness).
#include <CLI/CLI.hpp>

#include "cli/attention_command.h"
#include "cli/check_command.h"
#include "cli/gpu_command.h"
#include "cli/run_command.h"

int main(int argc, char** argv) {
  CLI::App app{"blockwise-cli — FlashAttention, block by block, without a window"};
  app.require_subcommand(1);
  bw::cli::AddRunCommand(app);
  bw::cli::AddAttentionCommand(app);
  bw::cli::AddCheckCommand(app);
  bw::cli::AddGpuCommand(app);
  CLI11_PARSE(app, argc, argv);
  return 0;
}
