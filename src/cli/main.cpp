// blockwise-cli: the headless front end over engine + scenario + lesson files (and the test harness).
#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <iostream>

#include "cli/attention_command.h"
#include "cli/bundle_command.h"
#include "cli/check_command.h"
#include "cli/gpu_command.h"
#include "cli/lesson_command.h"
#include "cli/placeholders_command.h"
#include "cli/run_command.h"

int main(int argc, char** argv) {
  CLI::App app{"blockwise-cli — FlashAttention, block by block, without a window"};
  app.require_subcommand(1);
  bw::cli::AddRunCommand(app);
  bw::cli::AddAttentionCommand(app);
  bw::cli::AddCheckCommand(app);
  bw::cli::AddGpuCommand(app);
  bw::cli::AddPlaceholdersCommand(app);
  bw::cli::AddBundleCommand(app);
  bw::cli::AddLessonCommand(app);
  int rc = 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    rc = app.exit(e);  // --help, a bad option, or a command's own exit status (CLI::RuntimeError)
  }
  // What went to standard output must have arrived: `> /dev/full`, a full disk or a closed pipe is a
  // failure with its reason, never exit 0 with the output lost (issue 31).
  errno = 0;
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "error: standard output: write failed" << (errno ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
    return rc != 0 ? rc : 3;
  }
  return rc;
}
