// `blockwise-cli bundle`; see bundle_command.h.
#include "cli/bundle_command.h"

#include <filesystem>
#include <iostream>

#include "cli/or_exit2.h"
#include "data/atomic_write.h"
#include "data/bundle.h"
#include "data/json_file.h"
#include "view/document.h"

namespace bw::cli {

void AddBundleCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("bundle",
                                 "Pack a lesson or course and every file it names into one lesson bundle (one JSON file to share), "
                                 "then open the bundle to check it");
  auto file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("file", *file, "A lesson or course JSON file")->required();
  cmd->add_option("-o,--output", *out, "The bundle to write (e.g. my-lesson.bundle.json)")->required();
  cmd->callback([=]() {
    OrExit2(*file, [&] {
      const nlohmann::json bundle = data::PackBundle(*file);
      data::WriteFileAtomically(*out, data::DumpJson(bundle, 1) + "\n");
      // Opened as the app opens it: a bundle that would not load is reported now, not in class, and
      // not left behind.
      view::OpenedDocument doc;
      try {
        doc = view::OpenDocument(*out);
      } catch (...) {
        std::error_code ec;
        std::filesystem::remove(*out, ec);
        throw;
      }
      std::size_t steps = 0;
      if (doc.lesson) steps = doc.lesson->lesson.steps.size();
      std::cout << *out << ": " << bundle["files"].size() << " files, main " << bundle["main"].get<std::string>();
      if (doc.course) std::cout << " (a course of " << doc.course->course.lessons.size() << " lessons)";
      else if (doc.lesson) std::cout << " (lesson " << doc.lesson->lesson.id << ", " << steps << " steps)";
      std::cout << "\n";
      for (const auto& [path, d] : bundle["files"].items()) std::cout << "  " << path << "\n";
    });
  });
}

}  // namespace bw::cli
