// The numerics report as panel rows; see numerics_panel.h.
#include "view/numerics_panel.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "view/format.h"
#include "view/scene.h"

namespace bw::view {

using engine::NumericsKind;

EventPathFn InputPaths(const data::AttentionScenario& sc) {
  const bool logits = sc.from_logits, scale = sc.problem.scale.has_value();
  return [logits, scale](const engine::NumericsEvent& ev) -> std::string {
    if (ev.quantity == "scale") return scale ? "/scale" : "";
    if (ev.row < 0 || ev.col < 0) return "";
    const std::string rc = "/" + std::to_string(ev.row) + "/" + std::to_string(ev.col);
    if (ev.quantity == "Q") return (logits ? "/logits" : "/Q") + rc;
    if (ev.quantity == "K") return logits ? "" : "/K" + rc;
    if (ev.quantity == "V") return "/V" + rc;
    return "";
  };
}

EventPathFn InputPaths(const data::SingleQueryScenario& sc) {
  const bool weights = sc.problem.score_kind == engine::ScoreKind::kWeights;
  return [weights](const engine::NumericsEvent& ev) -> std::string {
    const bool pos = ev.row < 0 && ev.col >= 0 && (ev.quantity == "e^s" || ev.quantity == "weights");
    return pos ? (weights ? "/weights/" : "/logits/") + std::to_string(ev.col) : "";
  };
}

const std::string& NumericsKindName(NumericsKind k, const std::string& lang) {
  return UiText(std::string("num_") + engine::ToString(k), lang);
}

std::string NumericsWhere(const engine::NumericsEvent& e, const std::string& lang, const EventPathFn& path) {
  const bool zh = lang == "zh";
  const auto n = [](std::int64_t x) { return std::to_string(x + 1); };
  std::string what = e.quantity + " = " + FormatDouble(e.value);
  if (e.kind == NumericsKind::kWeightsUnderflow) what = e.quantity + " = 0";
  if (e.kind == NumericsKind::kExpOverflow) what = "e^s = +\u221e (s = " + FormatDouble(e.value) + ")";
  std::vector<std::string> at;
  if (e.row >= 0) at.push_back(zh ? "第 " + n(e.row) + " 行" : "row " + n(e.row));
  if (e.col >= 0) {
    const bool key = e.quantity == "S";
    const bool pos = e.row < 0 && (e.quantity == "e^s" || e.quantity == "weights");
    if (pos) at.push_back(zh ? "位置 " + n(e.col) : "position " + n(e.col));
    else if (key) at.push_back(zh ? "第 " + n(e.col) + " 个键" : "key " + n(e.col));
    else at.push_back(zh ? "第 " + n(e.col) + " 列" : "column " + n(e.col));
  }
  std::string s = what;
  if (!at.empty()) {
    s += " \u00b7 ";
    for (size_t k = 0; k < at.size(); ++k) s += (k ? (zh ? "，" : ", ") : "") + at[k];
  }
  if (e.i >= 0 && e.j >= 0) s += std::string(" \u00b7 ") + (zh ? "分块 (" : "tile (") + n(e.i) + "," + n(e.j) + ")";
  else if (e.j >= 0) s += std::string(" \u00b7 ") + (zh ? "块 " : "block ") + n(e.j);
  if (path) {
    const std::string p = path(e);
    if (!p.empty()) s += " \u00b7 " + p;
  }
  if (e.kind == NumericsKind::kOutOfRange)
    s += std::string(" \u00b7 ") + e.precision + (zh ? " 中变成 " : ": becomes ") +
         (std::abs(e.value) > 1 ? (e.value > 0 ? "+\u221e" : "\u2212\u221e") : "0");
  return s;
}

std::optional<PanelSection> NumericsSection(const engine::NumericsReport& rep, const std::string& lang,
                                            const EventPathFn& path) {
  if (rep.empty()) return std::nullopt;
  PanelSection sec;
  sec.title = UiText("num_title", lang) + " (" + std::to_string(rep.size()) + ")";
  for (const auto& e : rep.events) sec.rows.push_back({NumericsKindName(e.kind, lang), NumericsWhere(e, lang, path), true});
  if (rep.dropped > 0) sec.rows.push_back({"\u2026", std::to_string(rep.dropped) + " " + UiText("num_more", lang), true});
  for (NumericsKind k : engine::kAllNumericsKinds)
    if (rep.Count(k) > 0)
      sec.rows.push_back({UiText("note", lang), UiText(std::string("num_hint_") + engine::ToString(k), lang), false});
  return sec;
}

void AddNumericsSection(std::vector<PanelSection>& sections, const engine::NumericsReport& rep, const std::string& lang,
                        const EventPathFn& path) {
  auto sec = NumericsSection(rep, lang, path);
  if (!sec) return;
  sections.insert(sections.begin() + (sections.empty() ? 0 : 1), std::move(*sec));
}

std::string CompareCell(const engine::CompareReport& rep) {
  if (rep.shape_mismatch) return "shape \u2260";
  const std::int64_t nan = std::max(rep.nan_actual, rep.nan_expected);
  if (nan > 0) return "NaN \u00d7" + std::to_string(nan);
  if (rep.nonfinite_mismatches > 0) return "\u00b1\u221e \u00d7" + std::to_string(rep.nonfinite_mismatches);
  return FormatDouble(rep.max_abs_error);
}

bool ShowsNaN(const std::string& text) {
  const auto low = [&](size_t k) { return static_cast<char>(std::tolower(static_cast<unsigned char>(text[k]))); };
  const auto letter = [&](size_t k) { return std::isalpha(static_cast<unsigned char>(text[k])) != 0; };
  for (size_t k = 0; k + 3 <= text.size(); ++k)
    if (low(k) == 'n' && low(k + 1) == 'a' && low(k + 2) == 'n' && (k == 0 || !letter(k - 1)) &&
        (k + 3 == text.size() || !letter(k + 3)))
      return true;  // a word "nan", any case: not "finance"
  return false;
}

std::vector<std::string> UnexplainedNaNs(const ScenarioModel& m, int stride) {
  std::vector<std::string> found;
  const auto* rep = m.Numerics();
  if (rep && !rep->empty()) return found;  // the report names the cause beside the numbers
  const int n = m.EventCount();
  const auto look = [&](int e) {
    for (const auto& [k, v] : m.QuantitiesAt(e))
      if (ShowsNaN(v)) found.push_back("event " + std::to_string(e + 1) + " {" + k + "} = " + v);
    for (const char* lang : {"zh", "en"})
      for (const auto& sec : m.Panels(e, lang))
        for (const auto& row : sec.rows)
          if (ShowsNaN(row.value)) found.push_back("event " + std::to_string(e + 1) + " " + row.name + " = " + row.value);
  };
  for (int e = 0; e < n; e += std::max(1, stride)) look(e);
  if (n > 0 && (n - 1) % std::max(1, stride) != 0) look(n - 1);
  return found;
}

}  // namespace bw::view
