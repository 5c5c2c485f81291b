// The numerics report in the CLI; see numerics_report.h.
#include "cli/numerics_report.h"

#include "data/json_file.h"

#include <cmath>

namespace bw::cli {

namespace {
std::string Line(const engine::NumericsEvent& e, const view::EventPathFn& path) {
  std::string s = engine::Describe(e);
  if (path) {
    const std::string p = path(e);
    if (!p.empty()) s += " [" + p + "]";
  }
  return s;
}
}  // namespace

void PrintNumerics(std::ostream& os, const engine::NumericsReport& rep, const view::EventPathFn& path) {
  if (rep.empty()) {
    os << "numerics: none (every number finite and in range)\n";
    return;
  }
  os << "numerics: " << rep.size() << " event" << (rep.size() == 1 ? "" : "s") << "\n";
  for (const auto& e : rep.events) os << "  - " << Line(e, path) << "\n";
  if (rep.dropped) os << "  - … " << rep.dropped << " more\n";
}

void PrintNumericsWarnings(std::ostream& os, const std::string& file, const engine::NumericsReport& rep,
                           const view::EventPathFn& path, int max_lines) {
  int shown = 0;
  for (const auto& e : rep.events) {
    if (shown++ >= max_lines) break;
    os << "warning: " << file << ": numerics: " << Line(e, path) << "\n";
  }
  if (rep.size() > max_lines)
    os << "warning: " << file << ": numerics: " << rep.size() - max_lines << " more events (blockwise-cli run/attention lists them)\n";
}

nlohmann::json NumericsJson(const engine::NumericsReport& rep, const view::EventPathFn& path) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& e : rep.events) {
    nlohmann::json j = {{"kind", engine::ToString(e.kind)}, {"quantity", e.quantity}, {"row", e.row + 1},
                        {"col", e.col + 1},  {"i", e.i + 1},    {"j", e.j + 1},
                        {"precision", e.precision}, {"text", engine::Describe(e)}};
    j["value"] = data::NumberJson(e.value);
    if (path && !path(e).empty()) j["json_path"] = path(e);
    a.push_back(std::move(j));
  }
  return a;
}

}  // namespace bw::cli
