// blockwise-cli: the headless front end over engine + scenario + lesson files (and the test harness).
#include <CLI/CLI.hpp>

#include "cli/run_command.h"
#if __has_include("cli/attention_command.h")
#include "cli/attention_command.h"
#define BW_HAS_ATTENTION_COMMAND 1
#endif

int main(int argc, char** argv) {
  CLI::App app{"blockwise-cli — FlashAttention, block by block, without a window"};
  app.require_subcommand(1);
  bw::cli::AddRunCommand(app);
#ifdef BW_HAS_ATTENTION_COMMAND
  bw::cli::AddAttentionCommand(app);
#endif
  CLI11_PARSE(app, argc, argv);
  return 0;
}
