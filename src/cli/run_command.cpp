// `blockwise-cli run`: loads a scenario file v1, runs the engine, prints each block's merge —
// m, l, u (exact when the weights and values are integers; logits give decimals), the rescale factor, output so far — then the final
// output beside the direct reference and the wrong average of block outputs, then the numerics
// report (overflow, underflow, NaN). --json for machines; --strict exits 4 when the report is not
// empty. Blocks and positions are numbered from 1, as in the app and the papers.
// Any other kind (attention, decode, ring, moe, chart) prints the side panels the app shows at the
// trace's last event — the same rows, from the same model (view::ScenarioModel::Panels), in --lang.
#include "cli/run_command.h"
#include "data/json_file.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/numerics_report.h"
#include "data/scenario.h"
#include "view/scenario_model.h"
#include "view/format.h"
#include "view/lesson_text.h"

namespace bw::cli {

namespace {

nlohmann::json TraceJson(const data::SingleQueryScenario& sc, const engine::SingleQueryRun& run) {
  nlohmann::json j;
  j["file"] = sc.file;
  j["mode"] = engine::ToString(run.problem.mode);
  j["exact"] = run.exact.has_value();
  j["blocks"] = nlohmann::json::array();
  // −∞, +∞ and NaN as "-inf", "+inf", "NaN" (data::NumberJson), never null: null here means "none".
  const auto vec = [](const Eigen::VectorXd& v) { return data::NumbersJson(v.data(), static_cast<std::size_t>(v.size())); };
  const auto num = [](double x) { return data::NumberJson(x); };
  for (const auto& b : run.blocks) {
    auto q = view::StateQuantitiesAt(run, run.FindEvent("update:" + std::to_string(b.block)));  // linear in blocks
    view::AddBlockQuantities(q, run, b.block);
    nlohmann::json jb;
    jb["block"] = b.block;
    jb["positions"] = {b.begin + 1, b.end};  // first and last, 1-based
    jb["m_b"] = b.local.IsEmpty() ? nlohmann::json(nullptr) : num(b.local.m);
    jb["l_b"] = num(b.local.l);
    jb["u_b"] = vec(b.local.u);
    jb["alpha"] = num(b.factors.alpha);
    jb["beta"] = num(b.factors.beta);
    jb["m"] = b.after.IsEmpty() ? nlohmann::json(nullptr) : num(b.after.m);
    jb["l"] = num(b.after.l);
    jb["u"] = vec(b.after.u);
    jb["output_so_far"] = b.after.IsEmpty() ? nlohmann::json(nullptr) : vec(b.output_so_far);
    if (b.exact) {
      jb["exact"] = {{"m", q.at("m")}, {"l", q.at("l")}, {"u", q.at("u")}, {"alpha", q.at("alpha@" + std::to_string(b.block))},
                     {"output_so_far", q.at("output_so_far")}};
    }
    j["blocks"].push_back(jb);
  }
  j["output"] = vec(run.output);
  j["reference_output"] = vec(run.reference_output);
  j["average_of_block_outputs"] = vec(run.average_of_block_outputs);
  j["all_masked"] = run.all_masked;
  j["numerics"] = NumericsJson(run.numerics, view::InputPaths(sc));
  if (run.exact) {
    const auto strs = [](const std::vector<engine::Rational>& v) {
      std::vector<std::string> s;
      for (const auto& x : v) s.push_back(engine::ToFractionString(x));
      return s;
    };
    j["exact_output"] = strs(run.exact->output);
    j["exact_average_of_block_outputs"] = strs(run.exact->average_of_block_outputs);
  }
  return j;
}

void PrintText(const data::SingleQueryScenario& sc, const engine::SingleQueryRun& run) {
  const auto& p = run.problem;
  std::cout << sc.file << "  (" << engine::ToString(p.mode) << " mode, " << p.scores.size() << " positions, "
            << run.BlockCount() << " blocks" << (run.exact ? ", exact rationals" : "")
            << (p.rescale_threshold ? ", conditional rescale (FA-4) with tau = " + view::FormatDouble(*p.rescale_threshold) + ": " +
                                          std::to_string(run.rescales_skipped) + " of " + std::to_string(run.BlockCount()) + " merges kept m"
                                    : "")
            << ")\n";
  for (const auto& b : run.blocks) {
    const std::string j = std::to_string(b.block);
    auto q = view::StateQuantitiesAt(run, run.FindEvent("update:" + j));  // linear in blocks
    view::AddBlockQuantities(q, run, b.block);
    std::cout << "block " << j << "  positions " << b.begin + 1 << ".." << b.end << "\n"
              << "  alone:        m_b = " << q.at("m_b@" + j) << "   l_b = " << q.at("l_b@" + j)
              << "   u_b = " << q.at("u_b@" + j) << "   u_b/l_b = " << q.at("local_output@" + j) << "\n"
              << "  rescale:      old × " << q.at("alpha@" + j) << ", block × " << q.at("beta@" + j)
              << (b.rescale_skipped ? "   (skipped: m_b - m <= tau, m kept)" : "") << "\n"
              << "  after merge:  m = " << q.at("m") << "   l = " << q.at("l") << "   u = " << q.at("u")
              << "   output so far = " << q.at("output_so_far") << "\n";
  }
  const auto q = view::StateQuantitiesAt(run, static_cast<int>(run.events.size()) - 1);
  std::cout << "output (blocked)            = " << q.at("output") << "\n"
            << "reference (direct Σwv/Σw)   = " << q.at("reference") << "\n"
            << "wrong: mean of block outputs = " << q.at("average") << "\n";
  if (run.all_masked) std::cout << "note: every position is masked; the output is defined as 0 and flagged\n";
  PrintNumerics(std::cout, run.numerics, view::InputPaths(sc));
}

// The app's side panels at the trace's end, as text: a section title, then "name  value" rows or a
// table; a wrong value is marked "×", a notice "!", as on screen.
void PrintPanels(const view::ScenarioModel& m, const std::string& lang) {
  const int last = m.EventCount() - 1;
  std::cout << m.File() << "  (" << m.Kind() << ": " << m.Title().In(lang) << "; " << m.EventCount()
            << " events, the panels at the last: " << m.EventLabel(last) << ")\n";
  for (const auto& sec : m.Panels(last, lang)) {
    std::cout << "\n" << sec.title << "\n";
    if (!sec.columns.empty()) {
      std::string head;
      for (const auto& c : sec.columns) head += (head.empty() ? "" : " | ") + c;
      std::cout << "  " << head << "\n";
    }
    for (const auto& r : sec.rows) {
      const std::string mark = r.warning ? "× " : r.notice ? "! " : "";
      std::string value = r.value;
      for (auto& ch : value) if (ch == '\t') ch = '|';
      if (sec.columns.empty()) std::cout << "  " << mark << r.name << ": " << value << "\n";
      else std::cout << "  " << mark << (r.name.empty() ? "" : r.name + " | ") << value << "\n";
    }
  }
}

nlohmann::json PanelsJson(const view::ScenarioModel& m, const std::string& lang) {
  const int last = m.EventCount() - 1;
  nlohmann::json j{{"file", m.File()}, {"kind", m.Kind()}, {"events", m.EventCount()}, {"at", m.EventLabel(last)}};
  j["panels"] = nlohmann::json::array();
  for (const auto& sec : m.Panels(last, lang)) {
    nlohmann::json js{{"id", sec.id}, {"title", sec.title}, {"columns", sec.columns}, {"rows", nlohmann::json::array()}};
    for (const auto& r : sec.rows) js["rows"].push_back({{"name", r.name}, {"value", r.value}, {"wrong", r.warning}, {"notice", r.notice}});
    j["panels"].push_back(js);
  }
  return j;
}

}  // namespace

void AddRunCommand(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run a scenario: a single query's per-block trace; any other kind's panels at the trace's end");
  auto file = std::make_shared<std::string>();
  auto as_json = std::make_shared<bool>(false);
  auto strict = std::make_shared<bool>(false);
  cmd->add_option("scenario", *file, "Scenario JSON file")->required();
  cmd->add_flag("--json", *as_json, "Print the trace as JSON");
  auto lang = std::make_shared<std::string>("en");
  cmd->add_flag("--strict", *strict, "Exit with status 4 when the numerics report names any overflow, underflow or NaN");
  cmd->add_option("--lang", *lang, "Language of the other kinds' panels")->check(CLI::IsMember({"en", "zh"}));
  cmd->callback([file, as_json, strict, lang]() {
    // The file is read once; its "kind" picks the loader (a file without one is refused by the
    // single-query loader, which names the path).
    data::SingleQueryScenario sc;
    std::shared_ptr<const view::ScenarioModel> other;
    try {
      const nlohmann::json doc = data::ReadJsonFile(*file);
      const bool single = !doc.is_object() || !doc.contains("kind") || doc["kind"] == "single_query";
      if (single) sc = data::ParseSingleQueryScenario(doc, *file);
      else other = view::ParseScenarioModel(doc, *file);
    } catch (const std::exception& e) {  // data::LoadError names the file and path; an engine refusal, the reason
      std::cerr << "error: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    if (other) {
      if (*as_json) std::cout << data::DumpJson(PanelsJson(*other, *lang), 2) << "\n";
      else PrintPanels(*other, *lang);
      const auto* numerics = other->Numerics();
      if (*strict && numerics && !numerics->empty()) throw CLI::RuntimeError(kStrictExit);
      return;
    }
    const auto run = engine::RunSingleQuery(sc.problem);
    if (*as_json) std::cout << data::DumpJson(TraceJson(sc, run), 2) << "\n";
    else PrintText(sc, run);
    if (*strict && !run.numerics.empty()) throw CLI::RuntimeError(kStrictExit);
  });
}

}  // namespace bw::cli
