// `blockwise-cli lesson`; see lesson_command.h.
#include "cli/lesson_command.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/or_exit2.h"
#include "cli/placeholders_command.h"
#include "data/atomic_write.h"
#include "data/bundle.h"
#include "data/json_file.h"
#include "data/load_error.h"
#include "data/schema_url.h"
#include "view/document.h"
#include "view/lesson_model.h"
#include "view/scenario_model.h"

namespace bw::cli {

namespace fs = std::filesystem;

namespace {

nlohmann::json Text(const std::string& zh, const std::string& en) { return {{"zh", zh}, {"en", en}}; }

// The lesson template: the question is asked at the scenario's start, before the trace shows any
// output (a question at "end" had its answer drawn in HBM and in the side panel beside it: a new
// author's try), checked against the output where the scenario has one number of that name; the last
// step, at the end, shows it.
nlohmann::json NewLesson(const std::string& id, const std::string& scenario_rel, const view::ScenarioModel& m) {
  const auto position = [&](const char* name, int fallback) {
    return m.FindPosition(name) >= 0 ? std::string(name) : "event:" + std::to_string(fallback + 1);
  };
  const std::string first = position("start", 0), last = position("end", m.EventCount() - 1);
  const bool output = m.NumberAt(m.FindPosition(first), "output").has_value();
  // Placeholders the scenario has (a single query's {l} and {u}; another kind's first two names): a
  // template that used {l} on an attention scenario failed its own check (a new author's try).
  const auto at_first = m.QuantitiesAt(m.FindPosition(first)), at_last = m.QuantitiesAt(m.FindPosition(last));
  std::vector<std::string> some;
  for (const char* n : {"l", "u"})
    if (at_first.count(n)) some.push_back(n);
  for (const auto& [n, v] : at_first)
    if (some.size() < 2 && std::find(some.begin(), some.end(), n) == some.end()) some.push_back(n);
  std::string zh_some, en_some;
  for (const auto& n : some) {
    zh_some += (zh_some.empty() ? "" : "、") + ("{" + n + "}");
    en_some += (en_some.empty() ? "" : ", ") + ("{" + n + "}");
  }
  const bool output_at_last = at_last.count("output") > 0;
  nlohmann::json step1 = {
      {"id", id + "/s1"},
      {"scenario", "main"},
      {"position", first},
      {"title", Text("第一步：先猜输出", "Step 1: predict the output")},
      {"body", Text("这里写这一步讲什么。可以引用引擎算出的数" + (some.empty() ? "" : "，例如 " + zh_some) + "（blockwise-cli placeholders 列出全部）。",
                    "Say what this step shows. Numbers come from the engine" + (some.empty() ? "" : ": " + en_some) +
                        " (blockwise-cli placeholders lists them all).")},
      {"further", Text("想多讲一点时的补充：一个细节、一段推导或一个链接。", "More, for a class that asks: a detail, a derivation, a link.")},
      {"predict", Text("所有块处理完以后，写回的输出是多少？", "Once every block is processed, what output is written back?")},
      {"answer", output_at_last ? Text("输出 = {output}。", "The output is {output}.") : Text("在这里写答案。", "Write the answer here.")},
      {"teacher_notes", Text("先让学生写下答案，再揭晓。", "Let the class write an answer down before the reveal.")},
      {"source", Text("来源与条件：写明出处、精度和假设。", "Source and conditions: where this comes from, the precision, the assumptions.")}};
  if (output) step1["check"] = {{"number", "output"}};
  nlohmann::json step2 = {
      {"id", id + "/s2"},
      {"scenario", "main"},
      {"position", last},
      {"title", Text("最后：写回输出", "Last: the output is written back")},
      {"body", output_at_last ? Text("所有块都处理完了，写回的输出是 {output}。", "Every block has been processed; the output written back is {output}.")
                              : Text("所有块都处理完了：这里写写回了什么。", "Every block has been processed: say what was written back.")},
      {"further", Text("揭晓之后可以补充的推导。", "A derivation to add here.")},
      {"teacher_notes", Text("和第一步学生猜的数对照。", "Compare with what the class predicted in step 1.")},
      {"source", Text("来源与条件：由引擎精确计算。", "Source and conditions: computed exactly by the engine.")}};
  // "$schema": the schema's URL, its "$id" (data/schema_url.h) — a relative path to schemas/ would not
  // exist beside the author's file (a new author's try); the schemas are in the project's schemas/,
  // installed in share/blockwise/schemas/ and served by the web edition at that URL's path.
  return {{"$schema", data::SchemaUrl("lesson-v1.schema.json")},
          {"schema_version", 1},
          {"id", id},
          {"title", Text("我的课", "My lesson")},
          {"scenarios", {{"main", scenario_rel}}},
          {"steps", nlohmann::json::array({step1, step2})}};
}

void AddNew(CLI::App& lesson) {
  auto* cmd = lesson.add_subcommand("new", "Write a bilingual lesson to fill in, bound to a scenario, and check that it loads");
  auto id = std::make_shared<std::string>();
  auto scenario = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("--id", *id, "The lesson's id, e.g. MINE (its steps become MINE/s1, MINE/s2)")->required();
  cmd->add_option("--scenario", *scenario, "The scenario file the steps show (inside the lesson's folder)")->required();
  cmd->add_option("-o,--output", *out, "The lesson file to write (never overwritten)")->required();
  cmd->callback([=]() {
    OrExit2(*out, [&] {
      if (id->empty() || id->find('/') != std::string::npos || id->find_first_of(" \t\n") != std::string::npos)
        throw data::LoadError(*out, "/id", "give an id without spaces or \"/\" (e.g. MINE)");
      std::error_code ec;
      if (fs::exists(*out, ec)) throw data::LoadError(*out, "", "already exists; lesson new never overwrites a file");
      const auto sc = view::OpenDocument(*scenario);
      if (!sc.scenario) throw data::LoadError(*scenario, "", "not a scenario (a lesson is bound to scenario files)");
      const fs::path folder = fs::absolute(fs::path(*out)).parent_path();
      const std::string rel = data::RelativePathInside(folder, *scenario);
      if (rel.empty())
        throw data::LoadError(*scenario, "", "lies outside the lesson's folder " + folder.string() +
                                                 ": put the scenario in that folder (e.g. scenarios/) so the lesson can name it");
      data::WriteFileAtomically(*out, data::DumpJson(NewLesson(*id, rel, *sc.scenario), 2) + "\n");
      try {
        const auto doc = view::OpenDocument(*out);   // what it wrote loads, as the app would load it
        std::cout << *out << ": lesson " << *id << ", " << doc.lesson->lesson.steps.size() << " steps over " << rel
                  << "\nnext: edit its texts, then  blockwise-cli check " << *out << "  and  blockwise --lesson " << *out << "\n";
      } catch (...) {
        fs::remove(*out, ec);   // a template that does not load is not left behind
        throw;
      }
    });
  });
}

void AddIds(CLI::App& lesson) {
  auto* cmd = lesson.add_subcommand("ids", "List the ids a step can name at a position: scene rects (highlight, conceal), panels, heatmap, strip");
  auto file = std::make_shared<std::string>();
  auto position = std::make_shared<std::string>();
  auto key = std::make_shared<std::string>();
  auto step = std::make_shared<std::string>();
  cmd->add_option("file", *file, "A lesson or scenario JSON file")->required();
  cmd->add_option("--position", *position, "A trace position: start, end, update:2, tile:1,2 … (default: a scenario's end, a step's own)");
  cmd->add_option("--scenario", *key, "In a lesson: the scenario with this key (default: the first step's)");
  cmd->add_option("--step", *step, "In a lesson: this step's scenario, at its position unless --position is given (e.g. b2)");
  cmd->callback([=]() {
    OrExit2(*file, [&] {
      const PositionTarget t = ResolvePositionTarget(*file, *position, *key, *step);
      // The scene and panels the lesson loader checks a step's ids against (view::LoadLessonModel).
      const view::Scene scene = t.model->BuildScene(t.event, "en", view::ClassroomPalette());
      std::cout << "# " << t.model->File() << (t.key.empty() ? "" : " (lesson key \"" + t.key + "\")") << ", kind " << t.model->Kind()
                << ", at \"" << t.position << "\" (event " << t.event + 1 << "/" << t.model->EventCount() << ")\n";
      std::cout << "# scene rects: \"highlight\" and \"conceal\"\n";
      for (const auto& r : scene.rects) {
        const std::string label = r.label.substr(0, r.label.find('\n'));
        std::cout << r.id << "\t" << label << "\n";
      }
      std::cout << "# side-panel sections: \"panel\" and \"conceal\"\n";
      for (const auto& p : t.model->Panels(t.event, "en")) std::cout << p.id << "\t" << p.title << "\n";
      if (t.model->HeatmapAt(t.event)) std::cout << "# the P heatmap: \"conceal\"\n" << view::kConcealHeatmap << "\n";
      if (view::HasMergeStrip(scene)) std::cout << "# the merge strip under the diagram: \"conceal\"\n" << view::kConcealStrip << "\n";
    });
  });
}

// A shell word for `s` (single quotes).
std::string Quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string Html(const std::string& s) {
  std::string o;
  for (char c : s) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : c == '"' ? "&quot;" : std::string(1, c);
  return o;
}

void AddPreview(CLI::App& lesson) {
  auto* cmd = lesson.add_subcommand("preview", "Every step in zh and en, before and after its reveal, as PNGs and one HTML contact sheet");
  auto file = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto app_path = std::make_shared<std::string>();
  auto projector = std::make_shared<bool>(false);
  cmd->add_option("file", *file, "A lesson JSON file")->required();
  cmd->add_option("--out", *out, "The folder for the PNGs and index.html (made if missing)")->required();
  cmd->add_option("--app", *app_path, "The blockwise app (default: beside this program)");
  cmd->add_flag("--projector", *projector, "Draw in projector mode at 1920×1080 (default: a laptop, 1280×720)");
  cmd->callback([=]() {
    OrExit2(*file, [&] {
      const auto doc = view::OpenDocument(*file);
      if (!doc.lesson) throw data::LoadError(*file, "", "not a lesson (preview draws a lesson's steps)");
      std::error_code ec;
      std::string app = *app_path;
      if (app.empty()) app = (fs::read_symlink("/proc/self/exe", ec).parent_path() / ".." / "app" / "blockwise").lexically_normal().string();
      if (!fs::exists(app, ec)) {
        const fs::path beside = fs::read_symlink("/proc/self/exe", ec).parent_path() / "blockwise";
        if (fs::exists(beside, ec)) app = beside.string();
      }
      if (!fs::exists(app, ec)) throw data::LoadError(*file, "", "no blockwise app at " + app + " (give --app PATH)");
      fs::create_directories(*out, ec);
      if (ec) throw data::LoadError(*out, "", "cannot make the folder: " + ec.message());
      const std::string w = *projector ? "1920" : "1280", h = *projector ? "1080" : "720";
      // Without a display, each frame is drawn under its own Xvfb (xvfb-run), as the tests do.
      const char* display = std::getenv("DISPLAY");
      const std::string runner = display && *display ? "" : "xvfb-run -a -s '-screen 0 " + w + "x" + h + "x24' ";
      const fs::path lesson_abs = fs::absolute(*file);
      std::ostringstream html;
      html << "<!doctype html><meta charset=utf-8><title>" << Html(doc.lesson->lesson.id) << " preview</title>\n"
           << "<style>body{font:14px sans-serif;margin:16px} figure{display:inline-block;margin:6px;vertical-align:top}"
              " img{width:480px;border:1px solid #999} figcaption{max-width:480px}</style>\n"
           << "<h1>" << Html(doc.lesson->lesson.id) << " — " << Html(doc.lesson->lesson.title.en) << "</h1>\n";
      int drawn = 0;
      for (const auto& st : doc.lesson->lesson.steps) {
        html << "<h2>" << Html(st.id) << " — " << Html(st.title.en) << "</h2>\n";
        std::string base = st.id;
        for (char& c : base)
          if (c == '/') c = '_';
        for (const std::string lang : {"zh", "en"})
          for (const bool reveal : {false, true}) {
            if (reveal && !st.predict) continue;
            const std::string name = base + "_" + lang + (reveal ? "_revealed" : "") + ".png";
            const std::string cmdline = runner + Quoted(app) + " --no-settings --lesson " + Quoted(lesson_abs.string()) + " --step " +
                                        Quoted(st.id) + " --lang " + lang + (reveal ? " --reveal" : "") + (*projector ? " --projector" : "") +
                                        " --width " + w + " --height " + h + " --screenshot " + Quoted((fs::path(*out) / name).string()) +
                                        " >/dev/null 2>&1";
            const int rc = std::system(cmdline.c_str());
            if (rc != 0) throw data::LoadError(*file, "", "the app could not draw " + st.id + " (" + lang + "): exit " +
                                                              std::to_string(WIFEXITED(rc) ? WEXITSTATUS(rc) : rc) + "; run: " + cmdline);
            ++drawn;
            html << "<figure><a href=\"" << Html(name) << "\"><img src=\"" << Html(name) << "\" loading=lazy></a><figcaption>" << lang
                 << (reveal ? ", revealed" : st.predict ? ", question open" : "") << "</figcaption></figure>\n";
          }
      }
      data::WriteFileAtomically(fs::path(*out) / "index.html", html.str());
      std::cout << (fs::path(*out) / "index.html").string() << ": " << drawn << " pictures of " << doc.lesson->lesson.steps.size()
                << " steps\n";
    });
  });
}

}  // namespace

void AddLessonCommand(CLI::App& app) {
  auto* lesson = app.add_subcommand("lesson", "An author's tools: lesson new, lesson ids, lesson preview (docs/authoring.md)");
  lesson->require_subcommand(1);
  AddNew(*lesson);
  AddIds(*lesson);
  AddPreview(*lesson);
}

}  // namespace bw::cli
